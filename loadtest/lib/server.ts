/**
 * The server under test: the real composition root (Colyseus + Express + SQLite in memory) on a free
 * loopback port, with the per-minute rate limits scaled out of the way (the limiter still runs on every
 * request, as in production) and the per-socket frame budget raised to its ceiling (a load generator's
 * socket plays as fast as the server answers, far past a person's 20 frames a second; the budget is still
 * counted on every frame). Colyseus' matchmaker is process-wide: one server per process.
 */
import { testConfig, type Config } from "../../src/shared/config";
import { startServer, type RunningServer, type StartOptions } from "../../src/server";
import { freePort } from "./common";

export async function startBenchServer(
  overrides: Partial<Config> = {},
  options: Pick<StartOptions, "finishedGraceMs" | "onFsync"> = {},
): Promise<RunningServer> {
  const port = await freePort();
  const defaults = testConfig();
  const config = testConfig({
    host: "127.0.0.1",
    port,
    publicBaseUrl: `http://127.0.0.1:${port}`,
    rateLimitScale: 1_000_000,
    houseDelayMs: 0,
    // Every simulated client shares one loopback address: the per-address bounds are moved out of the way.
    limits: { ...defaults.limits, framesPerSecond: 10_000, longPollsPerAddress: 10_000 },
    ...overrides,
  });
  return startServer(config, options);
}
