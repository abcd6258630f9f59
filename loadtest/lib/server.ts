/**
 * The server under test: the real composition root (Colyseus + Express + SQLite in memory) on a free
 * loopback port, with the per-minute rate limits scaled out of the way (the limiter still runs on every
 * request, as in production). Colyseus' matchmaker is process-wide: one server per process.
 */
import { testConfig, type Config } from "../../src/config";
import { startServer, type RunningServer } from "../../src/server";
import { freePort } from "./common";

export async function startBenchServer(overrides: Partial<Config> = {}, finishedGraceMs?: number): Promise<RunningServer> {
  const port = await freePort();
  const config = testConfig({
    host: "127.0.0.1",
    port,
    publicBaseUrl: `http://127.0.0.1:${port}`,
    rateLimitScale: 1_000_000,
    houseDelayMs: 0,
    ...overrides,
  });
  return startServer(config, finishedGraceMs === undefined ? {} : { finishedGraceMs });
}
