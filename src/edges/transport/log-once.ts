/**
 * Logging for what clients can trigger at will (malformed frames, refused sockets): one entry per
 * connection at most, and at most `perMinute` entries per minute for the whole process, so a client cannot
 * turn the log into its amplifier. What was left out is counted and reported with the next entry.
 */
import type { Logger } from "../../shared/logger";

export class RateLimitedLog {
  private windowStart = -Infinity;
  private written = 0;
  private suppressed = 0;

  constructor(
    private readonly log: Logger,
    private readonly perMinute = 30,
    private readonly now: () => number = Date.now,
  ) {}

  warn(fields: Record<string, unknown>, msg: string): void {
    const t = this.now();
    if (t - this.windowStart >= 60_000) {
      this.windowStart = t;
      this.written = 0;
    }
    if (++this.written > this.perMinute) {
      this.suppressed++;
      return;
    }
    const extra = this.suppressed ? { suppressed: this.suppressed } : {};
    this.suppressed = 0;
    this.log.warn({ ...fields, ...extra }, msg);
  }
}

/** What is known of a connection while one of its frames is handled. */
export interface ConnectionMark {
  ip: string | undefined;
  errorLogged: boolean;
}

/**
 * Which connection's frame is being handled at this instant. Colyseus logs a frame it cannot decode with
 * no word of the connection; the transport marks the connection before the room reads the frame (the same
 * synchronous emit), so the log can tell a connection's second bad frame from another's first. The mark
 * clears once the emit is over.
 */
export class ConnectionScope {
  private current: ConnectionMark | null = null;

  enter(conn: ConnectionMark): void {
    this.current = conn;
    queueMicrotask(() => {
      if (this.current === conn) this.current = null;
    });
  }

  get active(): ConnectionMark | null {
    return this.current;
  }
}
