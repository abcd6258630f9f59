/**
 * The open exports of the public log running at once in this process: a few per client address (429
 * `rate_limited` past them) and a bound for every address together (503 `unavailable`), each with Retry-After.
 * An export holds its slot until its answer is over; one whose reader takes nothing for the stall time (a reader
 * that stopped, or reads a byte a second) is cut, so no reader keeps a slot for ever. The reading itself is paced
 * by the log's read turns (src/services/log/read-turns.ts); this bounds how many readers there are.
 */
import type { Request, Response } from "express";
import type { ExportLimits } from "../../shared/config";
import { addressKey } from "./edges";
import { HeldPerKey } from "./held";

/** Seconds a refused export is told to wait: an export of the whole log takes a few. */
const RETRY_AFTER_S = 5;

export class ExportSlots {
  private readonly perAddress: HeldPerKey;
  private readonly inAll: HeldPerKey;

  constructor(private readonly limits: ExportLimits) {
    this.perAddress = new HeldPerKey(
      limits.perAddress,
      `this address already has ${limits.perAddress} exports running, the most allowed: wait for one to end`,
      RETRY_AFTER_S,
    );
    this.inAll = new HeldPerKey(
      limits.inAll,
      `${limits.inAll} exports are running, the most this server serves at once: retry shortly`,
      RETRY_AFTER_S,
      "unavailable",
    );
  }

  /**
   * Takes a slot for the request's export, or refuses it; the slot is given back when the answer is over
   * (ended, cut or closed by the reader), and the answer is cut once its reader has taken nothing for the
   * stall time.
   */
  take(req: Request, res: Response): void {
    const own = this.perAddress.take(addressKey(req));
    let all: () => void;
    try {
      all = this.inAll.take("");
    } catch (err) {
      own();
      throw err;
    }
    res.once("close", () => {
      own();
      all();
    });
    // The socket's idle timer: it runs while nothing is written or read, that is while the reader takes nothing.
    // Reset rather than closed: a close would queue its FIN behind the megabytes the reader is not taking, and
    // the kernel would keep them (and the connection) for minutes.
    res.setTimeout(this.limits.stallMs, () => (res.socket ? res.socket.resetAndDestroy() : res.destroy()));
  }
}
