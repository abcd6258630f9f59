/**
 * The SQLite store's synchronous writes of records on one connection: read-merge-write updates, a game's
 * fenced patch and a group commit's batch. Both the main thread's connection (set-ups, REST writes) and the
 * writer thread's (the rooms' game writes: writer-thread.ts) use them, so a batch is committed the same way
 * wherever it runs.
 */
import type Database from "better-sqlite3";
import type { GameExpectation, GameRecord, GameWrite, GameWriteResult, PlayerRecord, StoredAction } from "../port";
import { matchesExpectation, mergePatch, nowIso, seatCodes } from "../shared";
import { GamePatches } from "./game-patch";
import { LOG_PENDING_IF_ENTERS } from "./log";
import { SqliteRatings } from "./ratings";
import type { Statements } from "./statements";

type DocRow = { doc: string };

export const parse = <T>(row: DocRow | undefined): T | null => (row ? (JSON.parse(row.doc) as T) : null);

export function gameRow(g: GameRecord) {
  const [codeA, codeB] = seatCodes(g.seats);
  const playerA = g.seats.A?.playerId ?? null;
  const playerB = g.seats.B?.playerId ?? null;
  return { id: g.id, createdAt: g.createdAt, status: g.status, public: g.public ? 1 : 0, codeA, codeB, playerA, playerB, doc: JSON.stringify(g) };
}
export const playerRow = (p: PlayerRecord) => ({ id: p.id, rating: p.rating, doc: JSON.stringify(p) });

export const isPrimaryKeyViolation = (e: unknown): boolean => (e as { code?: string } | null)?.code === "SQLITE_CONSTRAINT_PRIMARYKEY";
export const isConstraintViolation = (e: unknown): boolean => (e as { code?: string } | null)?.code?.startsWith("SQLITE_CONSTRAINT") === true;

/** New games and the profiles their seats refer to, stored together or not at all (GamesPort.createGame). */
export interface NewGames {
  games: readonly GameRecord[];
  players: readonly PlayerRecord[];
}
/**
 * One request of the writer thread's batch: a group commit's game writes, or new games. What became of it:
 * the writes' results; for new games, null once stored, or the constraint error that refused them alone
 * (a taken id), nothing of them stored.
 */
export type BatchItem = { writes: readonly GameWrite[] } | { create: NewGames };
export type BatchOutcome = GameWriteResult[] | Error | null;

/** Rolls back a write's savepoint in a batch (commitGame): its result, not an error. */
class Refused extends Error {
  constructor(readonly result: GameWriteResult) {
    super(result);
  }
}

export class RecordWrites {
  private readonly gamePatches: GamePatches;
  /** The rating history: a profile write that carries a rated game's point adds it in the same transaction. */
  readonly ratings: SqliteRatings;
  /** One immediate transaction for a batch (one commit, one fsync after it); made once, like the statements. */
  readonly commitBatch: (writes: GameWrite[]) => GameWriteResult[];
  /**
   * Runs `fn` in one IMMEDIATE transaction (a savepoint inside one already open, such as a batch's). Made
   * once: better-sqlite3's `transaction()` builds its wrapper functions anew on every call, which cost more
   * than the statements of a small write.
   */
  readonly atomically: <T>(fn: () => T) => T;
  /** The writer thread's batch: every request's writes and new games in one immediate transaction. */
  readonly commitItems: (items: readonly BatchItem[]) => BatchOutcome[];
  /**
   * Marks a game for the public log unless it is sealed (its table exists: the main thread's migrations made
   * every table first).
   */
  private readonly markLogPending: Database.Statement;

  constructor(
    db: Database.Database,
    private readonly st: Statements,
  ) {
    this.gamePatches = new GamePatches(db);
    this.ratings = new SqliteRatings(db);
    this.markLogPending = db.prepare(LOG_PENDING_IF_ENTERS);
    const batch = db.transaction((writes: GameWrite[]) => writes.map((w) => this.commitGame(w)));
    this.commitBatch = (writes) => batch.immediate(writes);
    const transaction = db.transaction((fn: () => unknown) => fn());
    this.atomically = <T>(fn: () => T) => transaction.immediate(fn) as T;
    const items = db.transaction((list: readonly BatchItem[]) =>
      list.map((item): BatchOutcome => ("writes" in item ? item.writes.map((w) => this.commitGame(w)) : this.tryInsertNew(item.create))),
    );
    this.commitItems = (list) => items.immediate(list);
  }

  /** Inserts new games with their seats' new profiles, in one transaction (a savepoint inside a batch's). */
  insertNew({ games, players }: NewGames): void {
    const insert = () => {
      for (const p of players) this.st.insertPlayer.run(playerRow(p));
      for (const g of games) this.st.insertGame.run(gameRow(g));
    };
    if (games.length + players.length === 1) insert();
    else this.atomically(insert);
  }

  /** insertNew inside a batch: a refused constraint (a taken id) undoes these inserts alone and is their answer. */
  private tryInsertNew(create: NewGames): Error | null {
    try {
      this.atomically(() => this.insertNew(create));
      return null;
    } catch (e) {
      if (isConstraintViolation(e)) return e as Error;
      throw e;
    }
  }

  readonly writeGame = (g: GameRecord): void => {
    this.st.updateGame.run(gameRow(g));
  };
  /** Every profile update, alone or with its game's write: the point it carries joins the history in the same transaction. */
  readonly writePlayer = (p: PlayerRecord): void => {
    this.st.updatePlayer.run(playerRow(p));
    this.ratings.addFrom(p);
  };

  /**
   * updateGameIf's check and write, synchronous (so also inside a batch's transaction): one in-place UPDATE
   * with the expectation as its condition (a room's claim, a move's fenced patch), or, for a patch of seats or
   * `public` (their invite codes and flag are indexed columns), a read, a merge and a full-row rewrite.
   */
  patchGameIf(id: string, expected: GameExpectation, patch: Partial<GameRecord>): boolean {
    const plan = this.gamePatches.plan(id, patch, nowIso(), expected);
    if (plan) return plan.statement.run(plan.params).changes > 0;
    return this.update<GameRecord>(this.st.getGame, id, patch, "id", this.writeGame, expected);
  }

  /**
   * Read-merge-write in one immediate transaction so a concurrent writer cannot interleave; with `expected`,
   * only when the record matches it. Returns whether it wrote.
   */
  update<T extends object>(
    get: Database.Statement,
    key: string,
    patch: Partial<T>,
    keyField: keyof T,
    write: (merged: T) => void,
    expected: object = {},
  ): boolean {
    return this.atomically(() => this.updateInTransaction(get, key, patch, keyField, write, expected));
  }
  /** update's read, check and write, inside a transaction the caller holds. */
  updateInTransaction<T extends object>(
    get: Database.Statement,
    key: string,
    patch: Partial<T>,
    keyField: keyof T,
    write: (merged: T) => void,
    expected: object,
  ): boolean {
    const current = parse<T>(get.get(key) as DocRow | undefined);
    if (!current || !matchesExpectation(current, expected)) return false;
    write(mergePatch(current, patch, keyField));
    return true;
  }

  /**
   * One write of a batch, undone alone when its condition fails without a savepoint: its actions go first (a
   * taken index fails that INSERT alone), then the record patch fenced by the owner epoch; when the fence
   * does not hold, the actions just inserted are deleted again.
   */
  private commitGame(w: GameWrite): GameWriteResult {
    if (!w.players?.length && !w.guests?.length) return this.commitGameAlone(w);
    // With its profiles: all of it in a savepoint, rolled back when any condition fails.
    try {
      return this.atomically(() => {
        for (const p of w.guests ?? []) {
          try {
            this.st.insertPlayer.run(playerRow(p));
          } catch (e) {
            if (isPrimaryKeyViolation(e)) throw new Refused("stale");
            throw e;
          }
        }
        const result = this.commitGameAlone(w);
        if (result !== "committed") throw new Refused(result);
        for (const u of w.players ?? []) {
          if (!this.updateInTransaction<PlayerRecord>(this.st.getPlayer, u.id, u.patch, "id", this.writePlayer, u.expected)) throw new Refused("stale");
        }
        return result;
      });
    } catch (e) {
      if (e instanceof Refused) return e.result;
      throw e;
    }
  }
  private commitGameAlone(w: GameWrite): GameWriteResult {
    const inserted: StoredAction[] = [];
    try {
      for (const a of w.actions) {
        this.st.insertAction.run({ gameId: a.gameId, index: a.index, at: a.at, action: JSON.stringify(a.action) });
        inserted.push(a);
      }
    } catch (e) {
      this.undoActions(inserted);
      if (isPrimaryKeyViolation(e)) return "conflict";
      throw e;
    }
    if (this.patchGame(w)) {
      // The finish write marks the game for the public log in its own transaction: a finished game that enters
      // the log is never stored without being pending, and no second write follows it (a refused write rolls
      // the mark back). A sealed league game is marked by its unsealing instead (GameReads.unseal).
      if (w.patch.status === "finished") this.markLogPending.run(w.gameId);
      return "committed";
    }
    this.undoActions(inserted);
    return "conflict";
  }
  private undoActions(actions: StoredAction[]): void {
    for (const a of actions) this.st.deleteAction.run({ gameId: a.gameId, index: a.index });
  }
  /** Applies a write's patch under its owner fence; false when the fence does not hold (nothing changed). */
  private patchGame(w: GameWrite): boolean {
    const fenced = w.ownerEpoch !== undefined;
    // An empty patch leaves the record alone: only the fence is checked.
    if (Object.keys(w.patch).length === 0) return !fenced || Boolean(this.st.gameOwnedAt.get({ id: w.gameId, epoch: w.ownerEpoch }));
    return this.patchGameIf(w.gameId, fenced ? { ownerEpoch: w.ownerEpoch } : {}, w.patch) || !fenced;
  }
}
