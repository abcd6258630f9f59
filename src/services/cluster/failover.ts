/**
 * Failover: every process looks at its peers after each heartbeat. A peer whose heartbeat is older than
 * the dead-after time is removed from the registry (by exactly one peer: the removal is conditional on
 * the heartbeat it saw), its room listings are dropped from the matchmaking driver, and its unfinished
 * games are re-created from the store on live processes, the same rebuild a restart does. A peer that
 * left gracefully is handled the same way, minus the removal. Each game gets one room: a room claims its
 * game with a conditional owner-epoch update, so of two concurrent re-creations one starts.
 */
import type { Logger } from "../../shared/logger";
import type { GameRecord, ProcessRecord, Store } from "../../store/port";
import type { ProcessRegistry } from "./registry";

export interface FailoverDeps {
  store: Pick<Store, "processes" | "games">;
  registry: ProcessRegistry;
  /** Drops the room listings of a process from the matchmaking driver (Colyseus' stale roomcache cleanup). */
  dropListings(processId: string): Promise<void>;
  /** Re-creates the game's room unless one is listed (src/services/games/room-access). */
  ensure(gameId: string): Promise<void>;
  /** Ends the leases of the webhook deliveries the process held and takes them over. */
  releaseDeliveries(processId: string): Promise<void>;
  /**
   * Finishes what the gone process may have left half-done outside its games (a tournament result stored but
   * not counted, a round paired but its games not created); idempotent, failures are logged.
   */
  reconcile?(): Promise<void>;
  log: Logger;
}

/** A game created moments ago may still be getting its first room: the sweep leaves it alone. */
const YOUNG_GAME_MS = 10_000;
/** The backstop sweep runs every this many scans. */
const SWEEP_EVERY = 10;

export class Failover {
  private knownPeers = new Set<string>();
  private scans = 0;
  private readonly taking = new Map<string, Promise<number>>();

  constructor(private readonly d: FailoverDeps) {}

  /** Called with the registry after each heartbeat. */
  async onPeers(peers: ProcessRecord[]): Promise<void> {
    const me = this.d.registry.id;
    const now = Date.now();
    const gone: string[] = [];
    for (const p of peers) {
      if (p.id === me || this.d.registry.isLive(p.id, now)) continue;
      if (await this.d.store.processes.removeProcessIf(p.id, p.heartbeatAt)) {
        this.d.log.warn({ processId: p.id, pid: p.pid, heartbeatAt: p.heartbeatAt }, "process declared dead: taking over its games");
        gone.push(p.id);
      }
    }
    // Peers that were live at the last look and are no longer registered left (SIGTERM) or were removed by
    // another peer; taking over their games here too is safe (one room per game) and covers a taker that died.
    const present = new Set(peers.map((p) => p.id));
    for (const id of this.knownPeers) if (!present.has(id) && !gone.includes(id)) gone.push(id);
    this.knownPeers = new Set(peers.filter((p) => p.id !== me && this.d.registry.isLive(p.id, now)).map((p) => p.id));
    for (const id of gone) await this.takeOver(id);
    if (++this.scans % SWEEP_EVERY === 0) await this.sweep();
  }

  /** Drops a gone process's listings and re-creates its unfinished games; resolves with how many it started. */
  takeOver(processId: string): Promise<number> {
    let pending = this.taking.get(processId);
    if (!pending) {
      pending = this.run(processId).finally(() => this.taking.delete(processId));
      this.taking.set(processId, pending);
    }
    return pending;
  }

  private async run(processId: string): Promise<number> {
    const started = Date.now();
    await this.d.dropListings(processId);
    await this.d.releaseDeliveries(processId).catch((err) => this.d.log.warn({ err, processId }, "could not take over the deliveries of a gone process"));
    const games = (await this.d.store.games.listUnfinishedGames()).filter((g) => g.owner === processId);
    const results = await Promise.all(games.map((g) => this.recreate(g)));
    const count = results.filter(Boolean).length;
    await this.d.reconcile?.().catch((err: unknown) => this.d.log.warn({ err, processId }, "reconciliation after a take-over failed"));
    if (games.length) this.d.log.info({ processId, games: games.length, ms: Date.now() - started }, "games of a gone process re-created");
    return count;
  }

  /**
   * The backstop: unfinished games whose owner is neither live nor registered (a taker that died half-way,
   * an owner removed while this process was not looking) get their room re-created if none is listed.
   */
  private async sweep(): Promise<void> {
    const now = Date.now();
    const orphans = (await this.d.store.games.listUnfinishedGames()).filter(
      (g) => g.owner !== undefined && !this.d.registry.isLive(g.owner, now) && now - Date.parse(g.createdAt) > YOUNG_GAME_MS,
    );
    await Promise.all(orphans.map((g) => this.recreate(g)));
  }

  private async recreate(g: GameRecord): Promise<boolean> {
    try {
      await this.d.ensure(g.id);
      return true;
    } catch (err) {
      // Another process re-created it first (its claim won), or the store is unreachable: the sweep retries.
      this.d.log.debug({ err, gameId: g.id }, "game not re-created here");
      return false;
    }
  }
}
