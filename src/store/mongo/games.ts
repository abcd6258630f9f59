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
import type { GameRecord, GameWrite, GameWriteResult, StoredAction } from "../port";
import { copy, entersPublicLog, nowIso } from "../shared";
import { DURABLY, INSERT_DURABLY, isDuplicateKey, patchUpdate } from "./writes";
import type { Doc } from "./models";

/** Records are exactly the port's shapes: neither Mongo's _id nor the log. */
export const GAME_FIELDS = { _id: 0, log: 0 } as const;

/** What undoes one applied write of a batch that is rejected as a whole. */
interface Applied {
  filter: Doc;
  update: Doc;
}

export class MongoGames {
  /**
   * `markFinished` marks a game for the public log; a game's finish write calls it before the write is
   * answered (commitOne).
   */
  constructor(
    private readonly games: Model<Doc>,
    private readonly legacyActions: Model<Doc>,
    private readonly markFinished: (gameId: string) => Promise<void>,
  ) {}

  async create(game: GameRecord): Promise<void> {
    await this.games.insertMany([{ ...copy(game), log: [] }], INSERT_DURABLY);
  }

  /**
   * Several games in one ordered insert (one round trip, journaled once). MongoDB has no transaction here (a
   * standalone server has none), so a duplicate id leaves the documents inserted before it: they are removed
   * again, and the call rejects, as SQLite's rolled-back transaction does.
   */
  async createMany(games: GameRecord[]): Promise<void> {
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

  /**
   * Each write is one conditional update. The writes of different games are sent at once; those of one game
   * one after the other, in batch order, as SQLite's transaction applies them (a write after one that failed
   * is not sent). A write refused by its fence stores nothing. If any write fails, the call rejects, and the
   * writes of the batch that did apply are undone first, latest first (each undo is conditional on the state
   * its write left, so a game's earlier write is undone only after its later one), so a rejected batch
   * stores nothing; only an undo that cannot reach the server either leaves its write, as a crash right
   * after the commit would.
   */
  async commit(writes: GameWrite[]): Promise<GameWriteResult[]> {
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
