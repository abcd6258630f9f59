/**
 * The sequencer: the one writer of the public log. A game's finish write marks it pending (the store's
 * commitGames, in the same transaction, so no finished game is stored without its mark); the process holding the store's lease
 * appends what is pending every batch interval, as one batch with one signed tree head. A batch is written
 * under the epoch of the lease and the size it read (LogPort.appendLog), so a process that lost the lease, or
 * was cut off mid-batch, never forks the tree: the next holder continues from the stored one, and the games of
 * a batch that did not go in are still pending. A game already in the log is never appended again.
 *
 * A sealed league game (GameRecord.sealed) is not pending: its finish write leaves it unmarked and its unsealing
 * (once the deal's other game has finished) marks it, so it enters the log in the order of unsealing, after
 * games that finished later. A sealed game marked all the same (by a version that marked every finish) is
 * not appended; its mark is dropped and its unsealing marks it again.
 *
 * A private game never enters the log (entersPublicLog): it is unrated, so every rated step is in the log, and
 * its content is its seats' alone. One marked all the same (by a version that logged private games as salted
 * digests) has its mark dropped.
 */
import type { Logger } from "../../shared/logger";
import { DEFAULT_RATING } from "../players/rating";
import type { GamesPort, GameRecord, LogEntryRecord, LogNodeRecord, LogPort, RatingsPort } from "../../store/port";
import { entersPublicLog } from "../../store/shared";
import { gameEntryOf, leafOf, type SeatRating } from "./entry";
import { signHead, type LogKey } from "./heads";
import { appendLeaf, frontierRefs, frontierRoot, refKey, type Hash } from "./merkle";

export interface SequencerStore {
  log: LogPort;
  games: Pick<GamesPort, "getGame" | "listActions">;
  ratings: Pick<RatingsPort, "ratingChanges">;
}

export interface SequencerOptions {
  /** The longest time between a game's finish and the batch that appends it. */
  batchMs: number;
  /** How long one holding of the lease lasts; renewed at every batch that has games to append. */
  leaseMs: number;
  /** Most games per batch. */
  batchSize?: number;
  /** The time the lease is reckoned in, ms since the epoch (tests move it); default Date.now. */
  clock?: () => number;
}

/** Finished games looked at per page of the start-up catch-up. */
const CATCH_UP_PAGE = 500;

export class LogSequencer {
  /** The tree as this process last appended to it, while it holds the lease: its epoch, size and frontier. */
  private tree: { epoch: number; size: number; frontier: Hash[] } | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private stopped = false;

  constructor(
    private readonly store: SequencerStore,
    private readonly key: LogKey,
    private readonly holder: () => string,
    private readonly options: SequencerOptions,
    private readonly logger: Logger,
  ) {}

  /**
   * Starts the batches, and marks pending the finished games the log does not hold and no mark covers (in the
   * background): games a store kept before it marked them in their finish write, and, on a store without a
   * transaction spanning both (MongoDB), a finish a crash cut off before its mark.
   */
  start(): void {
    this.stopped = false;
    void this.catchUp().catch((err: unknown) => this.logger.warn({ err }, "public log catch-up failed"));
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => 0);
  }

  /** Marks pending every finished game the log does not hold and may hold now (not sealed). Idempotent; returns how many it marked. */
  async catchUp(): Promise<number> {
    let cursor: string | null = null;
    let marked = 0;
    do {
      const page = await this.store.log.unloggedGames(cursor, CATCH_UP_PAGE);
      await this.store.log.addLogPending(page.gameIds);
      marked += page.gameIds.length;
      cursor = page.next;
    } while (cursor && !this.stopped);
    if (marked) this.logger.info({ games: marked }, "public log: finished games not yet logged marked pending");
    return marked;
  }

  /** One batch now (one at a time): how many games it appended; 0 when not the holder or nothing is pending. */
  batch(): Promise<number> {
    const run = (this.running ?? Promise.resolve(0)).catch(() => 0).then(() => this.appendPending());
    this.running = run;
    return run;
  }

  /** Batches until nothing is pending (or this process is not the holder): the total appended. */
  async drain(): Promise<number> {
    let total = 0;
    for (let n = await this.batch(); n > 0; n = await this.batch()) total += n;
    return total;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.batch()
        .catch((err: unknown) => this.logger.error({ err }, "public log batch failed; retried at the next"))
        .finally(() => this.schedule());
    }, this.options.batchMs);
    this.timer.unref();
  }

  private async appendPending(): Promise<number> {
    // Nothing pending: no lease is taken or renewed, so an idle log writes nothing (every process would otherwise
    // make a durable write per batch interval). A lapsed lease goes to whichever process next has work; taking it
    // again as the same holder keeps the epoch. The batch is read once, before the lease: a game another holder
    // appended meanwhile is found logged below and only taken off the list.
    const ids = await this.store.log.logPending(this.options.batchSize ?? 500);
    if (ids.length === 0) return 0;
    const now = (this.options.clock ?? Date.now)();
    const lease = await this.store.log.claimLogLease(this.holder(), new Date(now).toISOString(), new Date(now + this.options.leaseMs).toISOString());
    if (!lease) {
      this.tree = null;
      return 0;
    }
    if (!this.tree || this.tree.epoch !== lease.epoch || this.tree.size !== lease.size) {
      // Taken over (or first held): continue from the stored tree, whose frontier is stored complete subtrees.
      const refs = frontierRefs(lease.size);
      const stored = new Map((await this.store.log.logNodes(refs)).map((n) => [refKey(n), Buffer.from(n.hash, "hex")]));
      const frontier = refs.map((r) => stored.get(refKey(r)));
      if (frontier.some((h) => !h)) throw new Error(`the public log's store lacks a node of the tree of ${lease.size}`);
      this.tree = { epoch: lease.epoch, size: lease.size, frontier: frontier as Hash[] };
    }
    const tree = this.tree;
    const entries: LogEntryRecord[] = [];
    const nodes: LogNodeRecord[] = [];
    const settled: string[] = [];
    const held: string[] = [];
    let frontier = tree.frontier;
    for (const gameId of ids) {
      const [record, logged] = await Promise.all([this.store.games.getGame(gameId), this.store.log.logIndexOfGame(gameId)]);
      // Already logged (a batch whose pending mark outlived it), or gone: nothing to append.
      if (logged !== null || !record || record.status !== "finished") {
        settled.push(gameId);
        continue;
      }
      if (!entersPublicLog(record)) {
        settled.push(gameId);
        held.push(gameId);
        continue;
      }
      const [actions, ratings] = await Promise.all([this.store.games.listActions(gameId), this.seatRatings(record)]);
      const entry = gameEntryOf(record, actions, ratings);
      const leaf = leafOf(entry);
      const index = tree.size + entries.length;
      const grown = appendLeaf(frontier, index, leaf.hash);
      frontier = grown.frontier;
      for (const n of grown.nodes) nodes.push({ level: n.level, index: n.index, hash: n.hash.toString("hex") });
      // The stored leaf is the text its hash was taken of: the entry is canonicalized once.
      entries.push({ index, gameId, leaf: leaf.text, finishedAt: entry.finishedAt });
    }
    if (settled.length) await this.store.log.dropLogPending(settled);
    await this.markUnsealed(held);
    if (entries.length === 0) return 0;
    const size = tree.size + entries.length;
    const head = signHead(this.key, { size, rootHash: frontierRoot(frontier).toString("hex"), timestamp: new Date().toISOString() });
    if (!(await this.store.log.appendLog({ epoch: tree.epoch, fromSize: tree.size, entries, nodes, head }))) {
      // Fenced out or raced: read the stored tree again at the next batch.
      this.tree = null;
      return 0;
    }
    this.tree = { epoch: tree.epoch, size, frontier };
    return entries.length;
  }

  /**
   * Marks again those of `gameIds` (found sealed, their marks dropped) that were unsealed meanwhile: an unsealing
   * between the read and the drop found the mark still there, and would otherwise be lost until the next start.
   */
  private async markUnsealed(gameIds: readonly string[]): Promise<void> {
    if (gameIds.length === 0) return;
    const records = await Promise.all(gameIds.map((id) => this.store.games.getGame(id)));
    const unsealed = records.filter((r): r is GameRecord => r !== null && r.status === "finished" && entersPublicLog(r)).map((r) => r.id);
    if (unsealed.length) await this.store.log.addLogPending(unsealed);
  }

  /**
   * What the game did to its seats' ratings, from their rating histories: the game's point is the rating after,
   * the point before it the rating before (none: the rating every profile starts from). The finish write stores
   * the points with the record, so a rated game's points exist by the time it is appended; an unrated game has none.
   */
  private async seatRatings(record: GameRecord): Promise<SeatRating[]> {
    const players = (["A", "B"] as const).flatMap((seat) => (record.seats[seat] ? [record.seats[seat].playerId] : []));
    const changes = players.length ? await this.store.ratings.ratingChanges(record.id, players) : [];
    return changes.map(({ after, before }) => ({
      playerId: after.playerId,
      before: before ? { rating: before.rating, rd: before.rd } : { rating: DEFAULT_RATING.rating, rd: DEFAULT_RATING.rd },
      after: { rating: after.rating, rd: after.rd },
      ...(after.step ? { n: after.n, step: after.step } : {}),
    }));
  }
}
