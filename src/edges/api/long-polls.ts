/**
 * Long-polls (sync and quick-match polls with a `timeout`) parked at once per client address, REST and MCP
 * together. Each is cheap, but an address holding hundreds of them makes one move wake hundreds of
 * answers; the per-minute request limit does not bound what is parked, since every request may wait 20 s.
 */
import { HeldPerKey } from "./held";

export class LongPolls {
  private readonly parked: HeldPerKey;

  /** `perAddress` long-polls may wait at once per address (config LONG_POLLS_PER_ADDRESS). */
  constructor(perAddress: number) {
    this.parked = new HeldPerKey(perAddress, `this address already has ${perAddress} long-polls waiting, the most allowed: wait for one to answer`, 1);
  }

  /**
   * Runs `wait` as one of `address`'s parked long-polls when it may wait (`seconds` > 0); a read that does
   * not wait is not counted. Over the bound it is refused with 429 `rate_limited`.
   */
  async hold<T>(address: string, seconds: number, wait: () => Promise<T>): Promise<T> {
    if (seconds <= 0) return wait();
    const release = this.parked.take(address);
    try {
      return await wait();
    } finally {
      release();
    }
  }
}
