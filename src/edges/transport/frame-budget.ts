/**
 * How many frames one WebSocket may send: a fixed one-second window on the wall clock. Every frame counts,
 * whatever its protocol type (room messages, Colyseus PINGs, joins, WebSocket control frames), because
 * answering any of them costs the event loop; a turn-based client needs a few a second.
 */
export class FrameBudget {
  private windowStart = -Infinity;
  private count = 0;

  constructor(
    private readonly perSecond: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one frame; false once more than `perSecond` frames arrived within one window. */
  take(): boolean {
    const t = this.now();
    if (t - this.windowStart >= 1000) {
      this.windowStart = t;
      this.count = 0;
    }
    return ++this.count <= this.perSecond;
  }
}
