/**
 * Games on MongoDB: one document per game holding its record and its action log (`log`, at most sixteen
 * placements plus a resign, timeout or abort), so that every write of a game is one conditional update of
 * one document, atomic without a transaction. The filter carries the fence (id, the owner epoch the room
 * claimed, and the log's length: the index the write appends at); the match decides committed or conflict.
 *
 * Games stored before this layout (actions in their own `actions` collection, no `log`) migrate when their
 * log is first read (listActions, which every room runs before it writes).
 */
import type { Model } from "mongoose";
import type { GameExpectation, GameRecord, GameRematch, GamesPort, GameWrite, GameWriteResult, ListGamesQuery, PlayerRecord, StoredAction } from "../port";
import { copy, decodeCursor, encodeCursor, entersPublicLog, nowIso, pageSize } from "../shared";
import { DURABLY, INSERT_DURABLY, isDuplicateKey, patchUpdate } from "./writes";
import type { Doc } from "./models";
import type { MongoPlayers } from "./players";
import { findRecord, patchRecordIf } from "./records";

/** Records are exactly the port's shapes: neither Mongo's _id nor the log. */
export const GAME_FIELDS = { _id: 0, log: 0 } as const;

/** What undoes one applied write of a batch that is rejected as a whole. */
interface Applied {
  filter: Doc;
  update: Doc;
}

export class MongoGames implements GamesPort {
  /**
   * `players` writes the profiles a game's creation or write carries (GameWrite.players, guests);
   * `markFinished` marks a game for the public log; a game's finish write calls it before the write is
   * answered (commitOne).
   */
  constructor(
    private readonly games: Model<Doc>,
    private readonly legacyActions: Model<Doc>,
    private readonly players: MongoPlayers,
    private readonly markFinished: (gameId: string) => Promise<void>,
  ) {}

  async createGame(game: GameRecord, players: readonly PlayerRecord[] = []): Promise<void> {
    // No multi-document transaction (that needs a replica set): the profiles first, so a game never refers to
    // a profile that is not stored.
    for (const p of players) await this.players.createPlayer(p);
    await this.games.insertMany([{ ...copy(game), log: [] }], INSERT_DURABLY);
  }

  /**
   * Several games in one ordered insert (one round trip, journaled once). MongoDB has no transaction here (a
   * standalone server has none), so a duplicate id leaves the documents inserted before it: they are removed
   * again, and the call rejects, as SQLite's rolled-back transaction does.
   */
  async createGames(games: GameRecord[]): Promise<void> {
    if (games.length === 0) return;
    try {
      await this.games.insertMany(
        games.map((g) => ({ ...copy(g), log: [] })),
        { ...INSERT_DURABLY, ordered: true },
      );
    } catch (e) {
      const err = e as { writeErrors?: { index?: number }[]; index?: number };
      const failedAt = err.writeErrors?.[0]?.index ?? err.index ?? 0;
      if (isDuplicateKey(e) && failedAt > 0) {
        await this.games.deleteMany({ id: { $in: games.slice(0, failedAt).map((g) => g.id) } }, DURABLY).exec();
      }
      throw e;
    }
  }

  async getGame(id: string): Promise<GameRecord | null> {
    return findRecord<GameRecord>(this.games, { id }, GAME_FIELDS);
  }
  async updateGameIf(id: string, expected: GameExpectation, patch: Partial<GameRecord>): Promise<boolean> {
    return patchRecordIf(this.games, "id", id, expected, patch);
  }
  async updateRematchIf(id: string, version: number | undefined, rematch: GameRematch): Promise<boolean> {
    // A null filter value also matches a missing member: a game without a rematch yet.
    const filter = { id, status: "finished", "rematch.version": version ?? null };
    return (await this.games.updateOne(filter, { $set: { rematch: copy(rematch), updatedAt: nowIso() } }, DURABLY).exec()).matchedCount > 0;
  }
  async findGameByCode(code: string): Promise<GameRecord | null> {
    const [game] = await this.games
      .find({ $or: [{ "seats.A.code": code }, { "seats.B.code": code }] }, GAME_FIELDS)
      .sort({ createdAt: -1, id: -1 })
      .limit(1)
      .lean<GameRecord[]>()
      .exec();
    return game ?? null;
  }
  async listGames(q: ListGamesQuery): Promise<{ games: GameRecord[]; nextCursor: string | null }> {
    const limit = pageSize(q.limit);
    const filter: Doc = {};
    if (q.status) filter.status = q.status;
    if (q.publicOnly || q.playerId) filter.public = true;
    const and: Doc[] = [];
    if (q.playerId) {
      delete filter.status;
      and.push({ $or: [{ "seats.A.playerId": q.playerId }, { "seats.B.playerId": q.playerId }] });
    }
    if (q.cursor) {
      const c = decodeCursor(q.cursor);
      and.push({ $or: [{ createdAt: { $lt: c.createdAt } }, { createdAt: c.createdAt, id: { $lt: c.id } }] });
    }
    if (and.length) filter.$and = and;
    const games = await this.games
      .find(filter, GAME_FIELDS)
      .sort({ createdAt: -1, id: -1 })
      .limit(limit + 1)
      .lean<GameRecord[]>()
      .exec();
    const more = games.length > limit;
    if (more) games.length = limit;
    const last = games[games.length - 1];
    return { games, nextCursor: more && last ? encodeCursor(last) : null };
  }
  async listUnfinishedGames(): Promise<GameRecord[]> {
    return this.games
      .find({ status: { $in: ["waiting", "active"] } }, GAME_FIELDS)
      .sort({ createdAt: 1, id: 1 })
      .lean<GameRecord[]>()
      .exec();
  }
  async listGamesWithStatus(status: "waiting" | "active", q: { createdBefore?: string; limit?: number } = {}): Promise<GameRecord[]> {
    const filter = q.createdBefore === undefined ? { status } : { status, createdAt: { $lt: q.createdBefore } };
    // limit(0) is no limit.
    return this.games
      .find(filter, GAME_FIELDS)
      .sort({ createdAt: 1, id: 1 })
      .limit(q.limit === undefined ? 0 : pageSize(q.limit))
      .lean<GameRecord[]>()
      .exec();
  }

  async commitGames(writes: GameWrite[]): Promise<GameWriteResult[]> {
    // A write's profiles first (GameWrite.players), in order, the writes in batch order as SQLite's transaction
    // applies them; a write one of whose profiles did not hold is "stale" and left out of the batch.
    const stale: boolean[] = [];
    for (const w of writes) {
      let held = true;
      for (const p of w.guests ?? []) if (held) held = await this.players.insertGuest(p);
      for (const u of w.players ?? []) if (held) held = await this.players.updatePlayerIf(u.id, u.expected, u.patch);
      stale.push(!held);
    }
    if (!stale.includes(true)) return this.commitEach(writes);
    const kept = writes.filter((_, i) => !stale[i]);
    const results = kept.length > 0 ? await this.commitEach(kept) : [];
    let next = 0;
    return stale.map((s): GameWriteResult => (s ? "stale" : results[next++]));
  }

  /**
   * Each write is one conditional update. The writes of different games are sent at once; those of one game
   * one after the other, in batch order, as SQLite's transaction applies them (a write after one that failed
   * is not sent). A write refused by its fence stores nothing. If any write fails, the call rejects, and the
   * writes of the batch that did apply are undone first, latest first (each undo is conditional on the state
   * its write left, so a game's earlier write is undone only after its later one), so a rejected batch
   * stores nothing; only an undo that cannot reach the server either leaves its write, as a crash right
   * after the commit would.
   */
  private async commitEach(writes: GameWrite[]): Promise<GameWriteResult[]> {
    const last = new Map<string, Promise<unknown>>();
    const settled = await Promise.allSettled(
      writes.map((w) => {
        const previous = last.get(w.gameId);
        const run = previous ? previous.then(() => this.commitOne(w)) : this.commitOne(w);
        last.set(w.gameId, run);
        return run;
      }),
    );
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
    if (!failed) return settled.map((s) => (s as PromiseFulfilledResult<{ result: GameWriteResult }>).value.result);
    const undo = new Map<string, Applied[]>();
    for (const [i, s] of settled.entries()) {
      if (s.status === "fulfilled" && s.value.applied) undo.set(writes[i].gameId, [s.value.applied, ...(undo.get(writes[i].gameId) ?? [])]);
    }
    await Promise.all(
      [...undo.values()].map(async (latestFirst) => {
        for (const u of latestFirst) await this.games.updateOne(u.filter, u.update, DURABLY).exec();
      }),
    );
    throw failed.reason;
  }

  private async commitOne(w: GameWrite): Promise<{ result: GameWriteResult; applied?: Applied }> {
    const fenced = w.ownerEpoch !== undefined;
    const first = w.actions[0]?.index ?? 0;
    // Actions of one game in a row from the log's end; anything else could never be stored.
    if (w.actions.some((a, i) => a.gameId !== w.gameId || a.index !== first + i)) return { result: "conflict" };
    const filter: Doc = { id: w.gameId };
    if (fenced) filter.ownerEpoch = w.ownerEpoch;
    if (w.actions.length > 0) filter.log = { $size: first };
    const patched = Object.keys(w.patch).length > 0;
    if (!patched && w.actions.length === 0) {
      // Nothing to write: only the fence is checked, as SQLite does.
      return { result: !fenced || (await this.games.exists(filter)) ? "committed" : "conflict" };
    }
    const stamp = nowIso();
    const update: Doc = patched ? patchUpdate(w.patch, "id", stamp) : {};
    if (w.actions.length > 0) update.$push = { log: { $each: copy(w.actions) } };
    // The record as it was before (the patched members only), to undo this write if the batch is rejected; and
    // its seal and privacy, which a finish write does not change, for whether the finish enters the public log.
    const before = Object.fromEntries(
      Object.keys(w.patch)
        .concat(patched ? ["updatedAt"] : [])
        .map((k) => [k, 1]),
    );
    const prior = await this.games
      .findOneAndUpdate(filter, update, {
        returnDocument: "before",
        projection: { _id: 0, id: 1, sealed: 1, public: 1, ...before },
        ...DURABLY,
      })
      .lean<Doc>()
      .exec();
    if (!prior) return { result: w.actions.length === 0 && !fenced ? "committed" : "conflict" };
    const applied = undoOf(w, prior, first, patched ? stamp : undefined);
    if (w.patch.status === "finished" && entersPublicLog({ ...prior, ...w.patch })) {
      // The public log's pending mark, before the write is answered (a sealed league game's comes with its
      // unsealing instead: GameReads.unseal). No transaction spans the two documents:
      // a mark that fails undoes the game's write (the batch then rejects as a whole), and a crash between
      // them leaves a finished game unmarked, which the log's catch-up at the next start marks.
      try {
        await this.markFinished(w.gameId);
      } catch (e) {
        await this.games.updateOne(applied.filter, applied.update, DURABLY).exec();
        throw e;
      }
    }
    return { result: "committed", applied };
  }

  async listActions(gameId: string): Promise<StoredAction[]> {
    const doc = await this.games.findOne({ id: gameId }, { _id: 0, log: 1 }).lean<{ log?: StoredAction[] }>().exec();
    if (!doc) return [];
    return doc.log ?? this.migrate(gameId);
  }

  /** A game of the earlier layout gets its log from the actions collection, once (whoever reads first). */
  private async migrate(gameId: string): Promise<StoredAction[]> {
    const log = await this.legacyActions.find({ gameId }, { _id: 0 }).sort({ index: 1 }).lean<StoredAction[]>().exec();
    await this.games.updateOne({ id: gameId, log: { $exists: false } }, { $set: { log } }, DURABLY).exec();
    const doc = await this.games.findOne({ id: gameId }, { _id: 0, log: 1 }).lean<{ log?: StoredAction[] }>().exec();
    return doc?.log ?? log;
  }
}

/** The update that takes a game back to `prior`, matching only the state this write left. */
function undoOf(w: GameWrite, prior: Doc, first: number, stamp: string | undefined): Applied {
  const filter: Doc = { id: w.gameId };
  if (stamp) filter.updatedAt = stamp;
  if (w.actions.length > 0) filter.log = { $size: first + w.actions.length };
  const set: Doc = {};
  const unset: Doc = {};
  for (const k of Object.keys(w.patch).concat(stamp ? ["updatedAt"] : [])) {
    if (k === "id") continue;
    if (k in prior) set[k] = prior[k];
    else unset[k] = "";
  }
  const update: Doc = {};
  if (Object.keys(set).length) update.$set = set;
  if (Object.keys(unset).length) update.$unset = unset;
  if (w.actions.length > 0) update.$push = { log: { $each: [], $slice: first } };
  return { filter, update };
}
