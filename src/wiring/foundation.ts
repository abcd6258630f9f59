/**
 * What every other part stands on: the logger, the metrics, the store, and (scaled out) Redis's presence and
 * matchmaker driver, with the check that this process may join the store's other processes.
 */
import { LocalPresence, matchMaker, type MatchMakerDriver, type Presence } from "@colyseus/core";
import type { Config } from "../shared/config";
import { createLogger, type Logger } from "../shared/logger";
import { assertCanJoin, Ownership, type ClusterTiming } from "../services/cluster";
import { createMetrics, type Metrics } from "../services/metrics";
import { openStore, type Store } from "../store";
import { scaledInfra } from "../store/scale";
import { IndexedLocalDriver } from "../edges/transport";
import type { StartOptions } from "./options";

export interface Foundation {
  log: Logger;
  metrics: Metrics;
  store: Store;
  /** Redis's presence, driver and rate-limit store when scaled out (REDIS_URL); null alone. */
  infra: Awaited<ReturnType<typeof scaledInfra>> | null;
  presence: Presence;
  driver: MatchMakerDriver;
  timing: ClusterTiming;
  /** Which games this process holds, fenced by their owner epoch. */
  ownership: Ownership;
}

export async function openFoundation(config: Config, opts: StartOptions): Promise<Foundation> {
  const log = opts.log ?? createLogger(config.logLevel);
  const metrics = createMetrics();
  const store = await openStore({
    database: config.database,
    mongodbUrl: config.mongodbUrl,
    synchronous: config.sqliteSynchronous,
    commitWindowMs: config.commitWindowMs,
    onState: (state, err) => (err ? log.error({ err, state }, "store connection error") : log.info({ state }, "store connection state")),
    onFailure: (err, operation) => log.error({ err, operation }, "store operation failed; answered unavailable"),
    onFsync: (seconds) => {
      metrics.walFsyncSeconds.observe(seconds);
      opts.onFsync?.(seconds);
    },
  });
  const infra = config.redisUrl ? await scaledInfra(config.redisUrl) : null;
  const presence: Presence = infra?.presence ?? new LocalPresence();
  const driver: MatchMakerDriver = infra?.driver ?? new IndexedLocalDriver();
  presence.setMaxListeners(0);
  const timing: ClusterTiming = { heartbeatMs: config.clusterHeartbeatMs, deadAfterMs: config.clusterDeadAfterMs };
  try {
    await assertCanJoin(store, Boolean(infra), timing);
  } catch (e) {
    await infra?.close();
    await store.close();
    throw e;
  }
  // Without shared presence the matchmaker knows no other process: every room is created here.
  const ownership = new Ownership(store.games, () => matchMaker.processId, log, !infra);
  return { log, metrics, store, infra, presence, driver, timing, ownership };
}
