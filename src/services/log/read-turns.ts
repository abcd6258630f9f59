/**
 * The public log's store reads, served one page at a time in turns on the event loop. With SQLite a page is
 * read synchronously; a flood of exports or of 1,000-entry reads would otherwise run hundreds of pages back to
 * back and hold every other request (a move, /healthz) behind them for seconds. A reader waits for a turn, reads
 * its page and hands the turn on in the next iteration of the event loop, after the I/O that arrived meanwhile,
 * so another request waits for at most `slots` pages, however many readers queue.
 *
 * The turn is handed on in the next iteration even when nobody waits for it: a SQLite read is over before the
 * next request is even parsed, so its reader would otherwise find the turn free again at once and read all its
 * pages back to back, and so would every reader after it, each in its own socket's callback of one poll phase.
 */
import type { LogPort } from "../../store/port";

/** Rows of one page of an export or an entries read: about a millisecond of reading and hashing. */
export const SERVED_PAGE = 100;

export class ReadTurns {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  /** `slots` pages may be read at once (more than one lets a MongoDB round trip overlap another's). */
  constructor(private readonly slots = 2) {}

  /** Runs `read` in a turn: at once when a slot is free and nobody waits, otherwise after those before it. */
  async run<T>(read: () => Promise<T>): Promise<T> {
    if (this.running < this.slots && this.waiting.length === 0) this.running++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await read();
    } finally {
      // Handed on in the next iteration with the slot still counted: the I/O that arrived meanwhile goes first.
      setImmediate(() => this.handOn());
    }
  }

  /** The slot goes to the reader that waited longest, or is free when nobody waits. */
  private handOn(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }

  /** The log's entry reads, each in a turn. */
  paced<S extends Pick<LogPort, "logEntries" | "logEntriesFinished">>(store: S): Pick<LogPort, "logEntries" | "logEntriesFinished"> {
    return {
      logEntries: (from, to) => this.run(() => store.logEntries(from, to)),
      logEntriesFinished: (start, end, after, limit) => this.run(() => store.logEntriesFinished(start, end, after, limit)),
    };
  }
}
