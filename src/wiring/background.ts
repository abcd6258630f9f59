/**
 * What runs beside the requests once the server listens: the process registry and, scaled out, the failover
 * that takes over a dead peer's games; webhook recovery; the rooms of active games resumed; the public log's
 * appender; the reconciliation of tournament and league results; the sweep of waiting games.
 */
import { matchMaker } from "@colyseus/core";
import type { Config } from "../shared/config";
import type { Logger } from "../shared/logger";
import { dropListings, Failover, ProcessRegistry, relist } from "../services/cluster";
import type { RoomAccess } from "../services/games/room-access";
import { WaitingSweep } from "../services/games/waiting-sweep";
import type { Store } from "../store";
import type { GameRoom } from "../../rooms/game-room";
import type { Foundation } from "./foundation";
import type { Services } from "./services";

export async function startBackground(config: Config, { store, infra, log, timing, ownership }: Foundation, s: Services) {
  const { rooms, events, tournaments, leagues } = s;
  const registry: ProcessRegistry = new ProcessRegistry(
    store,
    { id: matchMaker.processId, sharedPresence: Boolean(infra), publicAddress: config.publicAddress },
    timing,
    log,
    async () => {
      for (const room of await ownership.verifyAll()) await relist(room as GameRoom);
    },
    (peers) => failover?.onPeers(peers) ?? Promise.resolve(),
  );
  ownership.setLiveness((id) => registry.isLive(id));
  // Alone on the store (no Redis) there is nobody to take over from: a restart resumes every game.
  const failover: Failover | null = infra
    ? new Failover({
        store,
        registry,
        dropListings,
        ensure: (id) => rooms.ensure(id),
        releaseDeliveries: async (id) => {
          if ((await store.subscriptions.expireDeliveriesOf(id, new Date().toISOString())) > 0) await events.dispatcher.recover();
        },
        // Tournaments and leagues alike: a result the dead process stored but did not count is counted now.
        reconcile: async () => {
          const failed = (await Promise.allSettled([tournaments.reconcileRunning(), leagues.reconcileRunning()])).find((r) => r.status === "rejected");
          if (failed) throw failed.reason;
        },
        log,
      })
    : null;
  await registry.start();
  events.startSweep();
  await events.startRecovery();
  await resumeGames(store, rooms, log);
  s.gameLog.start();
  // Results whose finish hook a crash cut off are counted now; a slow store must not hold up the start.
  void tournaments.reconcileRunning().catch((err: unknown) => log.warn({ err }, "tournament reconciliation failed"));
  void leagues.reconcileRunning().catch((err: unknown) => log.warn({ err }, "league reconciliation failed"));
  const sweep = new WaitingSweep(store.games, (id) => rooms.ensure(id), config.waitingGameTtlS, log);
  sweep.start();
  return {
    /** Before the rooms close: no new sweep or tournament round starts. */
    quiet: () => {
      sweep.stop();
      tournaments.stop();
    },
    /** After the rooms closed: peers see this process leave and re-create its unfinished games. */
    stop: async () => {
      await registry.stop();
      await s.gameLog.stop();
    },
  };
}

/** Rooms re-created at once while resuming: their store reads and claims overlap, and claims share fsyncs. */
const RESUME_WIDTH = 16;

/**
 * Re-creates the rooms of the active games, so clocks and house moves go on after a restart, RESUME_WIDTH at
 * a time. Waiting games have no room until someone arrives (GameCreation.open), so none is made for them; the
 * waiting sweep aborts those whose time ran out meanwhile.
 */
async function resumeGames(store: Pick<Store, "games">, rooms: RoomAccess, log: Logger): Promise<void> {
  const started = Date.now();
  const active = await store.games.listGamesWithStatus("active");
  let next = 0;
  const worker = async () => {
    while (next < active.length) {
      const { id } = active[next++];
      await rooms.ensure(id).catch((err) => log.error({ err, gameId: id }, "could not resume game"));
    }
  };
  await Promise.all(Array.from({ length: Math.min(RESUME_WIDTH, active.length) }, worker));
  if (active.length) log.info({ count: active.length, ms: Date.now() - started }, "resumed active games");
}
