/** The MongoDB a test suite runs against: MONGODB_URL (a real server) or a CongoDB started for the suite. */
import { congoAvailable, startCongo, type CongoHandle } from "../../src/services/cluster/congodb";

export { congoAvailable, startCongo };

/**
 * In a describe: MONGODB_URL when set, else a CongoDB started before the suite and stopped after it (none
 * when CongoDB is not installed: the caller skips).
 */
export function useMongo(): { url: () => string | undefined } {
  let handle: CongoHandle | null = null;
  before(async function () {
    if (process.env.MONGODB_URL || !congoAvailable()) return;
    this.timeout(30_000);
    handle = await startCongo();
  });
  after(async function () {
    await handle?.stop();
  });
  return { url: () => process.env.MONGODB_URL ?? handle?.url };
}
