/**
 * What a key (a client address, a bot key, a seat token) holds open at once in this process: long-polls, NDJSON
 * streams. Each is cheap, but one client holding hundreds of them costs every other client its share of the
 * process's sockets, descriptors and wake-ups, which no per-minute request limit bounds (one request may stay
 * open for minutes). Counted per process, because that is what they cost.
 */
import { AppError } from "../../shared/errors";

export class HeldPerKey {
  private readonly held = new Map<string, number>();

  /**
   * `max` may be held at once per key; one more is refused with 429 `rate_limited` (or `code`: 503 `unavailable`
   * for a bound of the whole process, which no one client is over), `refusal` as its detail.
   */
  constructor(
    readonly max: number,
    private readonly refusal: string,
    private readonly retryAfterS: number,
    private readonly code: "rate_limited" | "unavailable" = "rate_limited",
  ) {}

  /** Counts one more held by `key`, or refuses it past the bound; answers its release (a second call does nothing). */
  take(key: string): () => void {
    const n = this.held.get(key) ?? 0;
    if (n >= this.max) throw new AppError(this.code, this.refusal, { retryAfter: this.retryAfterS });
    this.held.set(key, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.held.get(key) ?? 1) - 1;
      if (left > 0) this.held.set(key, left);
      else this.held.delete(key);
    };
  }
}
