/**
 * Waiting games run out of time without a room. A waiting game's room is what aborts it when its waiting
 * time is up (its clock), but such a game has no room until someone arrives (GameCreation.open). So every
 * little while the sweep opens the rooms of the waiting games whose time is up, a page at a time, one after
 * the other: each room finds its time up, aborts its game (stored, events emitted) and, with nobody
 * connected, closes at once.
 */
import type { Logger } from "../../shared/logger";
import type { GamesPort } from "../../store/port";

/** Rooms opened per sweep at most: a backlog (after a long stop) is worked off over several sweeps. */
const PAGE = 100;

export class WaitingSweep {
  private timer?: NodeJS.Timeout;
  private running: Promise<number> | null = null;

  constructor(
    private readonly store: Pick<GamesPort, "listGamesWithStatus">,
    /** Opens a game's room (if none is open anywhere). */
    private readonly open: (gameId: string) => Promise<void>,
    private readonly ttlS: number,
    private readonly log: Logger,
  ) {}

  /** Sweeps now and then every tenth of the waiting time (0.25 s to 60 s): an indexed query that finds nothing, mostly. */
  start(): void {
    const everyMs = Math.min(60_000, Math.max(250, (this.ttlS * 1000) / 10));
    this.timer = setInterval(() => void this.sweep(), everyMs);
    this.timer.unref();
    void this.sweep();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Opens the rooms of up to PAGE waiting games whose time is up; resolves with how many. */
  sweep(): Promise<number> {
    this.running ??= this.run().finally(() => (this.running = null));
    return this.running;
  }

  private async run(): Promise<number> {
    try {
      const createdBefore = new Date(Date.now() - this.ttlS * 1000).toISOString();
      const expired = await this.store.listGamesWithStatus("waiting", { createdBefore, limit: PAGE });
      for (const g of expired)
        await this.open(g.id).catch((err: unknown) => this.log.warn({ err, gameId: g.id }, "could not open an expired waiting game's room"));
      return expired.length;
    } catch (err) {
      this.log.warn({ err }, "waiting games not swept; the next sweep retries");
      return 0;
    }
  }
}
