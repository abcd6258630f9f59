/**
 * The public log's store reads, served one page at a time in turns on the event loop. With SQLite a page is
 * read synchronously; a flood of exports or of 1,000-entry reads would otherwise run hundreds of pages back to
 * back and hold every other request (a move, /healthz) behind them for seconds. A reader waits for a turn, reads
 * its page and hands the turn on in the next iteration of the event loop, after the I/O that arrived meanwhile,
 * so another request waits for at most `slots` pages, however many readers queue.
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
      const next = this.waiting.shift();
      // Handed on with the slot still counted, in the next iteration: the I/O that arrived meanwhile goes first.
      if (next) setImmediate(next);
      else this.running--;
    }
  }

  /** The log's entry reads, each in a turn. */
  paced<S extends Pick<LogPort, "logEntries" | "logEntriesFinished">>(store: S): Pick<LogPort, "logEntries" | "logEntriesFinished"> {
    return {
      logEntries: (from, to) => this.run(() => store.logEntries(from, to)),
      logEntriesFinished: (start, end, after, limit) => this.run(() => store.logEntriesFinished(start, end, after, limit)),
    };
  }
}
