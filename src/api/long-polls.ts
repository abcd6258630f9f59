/**
 * Long-polls (sync and quick-match polls with a `timeout`) parked at once per client address, REST and MCP
 * together. Each is cheap, but an address holding hundreds of them makes one move wake hundreds of
 * answers; the per-minute request limit does not bound what is parked, since every request may wait 20 s.
 */
import { AppError } from "../errors";

export class LongPolls {
  private readonly parked = new Map<string, number>();

  /** `perAddress` long-polls may wait at once per address (config LONG_POLLS_PER_ADDRESS). */
  constructor(private readonly perAddress: number) {}

  /**
   * Runs `wait` as one of `address`'s parked long-polls when it may wait (`seconds` > 0); a read that does
   * not wait is not counted. Over the bound it is refused with 429 `rate_limited`.
   */
  async hold<T>(address: string, seconds: number, wait: () => Promise<T>): Promise<T> {
    if (seconds <= 0) return wait();
    const held = this.parked.get(address) ?? 0;
    if (held >= this.perAddress) {
      throw new AppError("rate_limited", `this address already has ${this.perAddress} long-polls waiting, the most allowed: wait for one to answer`, { retryAfter: 1 });
    }
    this.parked.set(address, held + 1);
    try {
      return await wait();
    } finally {
      const left = (this.parked.get(address) ?? 1) - 1;
      if (left > 0) this.parked.set(address, left);
      else this.parked.delete(address);
    }
  }
}
