/**
 * The public game log's collections in the MongoDB adapter (LogPort). Without a multi-document transaction an
 * append writes its entries and nodes first, each stamped with the writer's epoch, and the state's
 * compare-and-set (epoch and size) last: until it holds, what it wrote lies beyond the stored size, where
 * readers never look, and the next batch removes it. A fenced-out writer cannot overwrite what a later epoch
 * wrote (its writes are conditional on the stored epoch being no newer) nor move the state; heads are archived
 * only after the state moved.
 */
import type { Connection, Model } from "mongoose";
import { Schema } from "mongoose";
import type { LogAppend, LogEntryRecord, LogNodeRecord, LogPort, LogPublicKeyRecord, LogStateRecord, TreeHeadRecord } from "../port";
import { isDuplicateKey } from "../duplicate";
import { entersPublicLog } from "../shared";
import { DURABLY, INSERT_DURABLY } from "./writes";

type Doc = Record<string, unknown>;
const NO_ID = { _id: 0 } as const;
const STATE_ID = "log";

function model(
  conn: Connection,
  name: string,
  collection: string,
  bufferTimeoutMS: number,
  indexes: Array<[Record<string, 1 | -1>, { unique?: boolean }]>,
): Model<Doc> {
  // Like the other models (./models.ts): no declared paths, the record stored as the port defines it.
  const s = new Schema<Doc>({}, { bufferTimeoutMS, strict: false, strictQuery: false, minimize: false, versionKey: false, id: false, autoIndex: false });
  for (const [fields, options] of indexes) s.index(fields, options);
  return conn.model<Doc>(name, s, collection);
}

export interface LogModels {
  state: Model<Doc>;
  entries: Model<Doc>;
  nodes: Model<Doc>;
  heads: Model<Doc>;
  pending: Model<Doc>;
  /** The public keys heads are signed with; the private key is never stored (src/services/log/keys.ts). */
  keys: Model<Doc>;
}

export function logModels(conn: Connection, timeoutMs: number): LogModels {
  return {
    state: model(conn, "LogState", "log_state", timeoutMs, [[{ key: 1 }, { unique: true }]]),
    entries: model(conn, "LogEntry", "log_entries", timeoutMs, [
      [{ index: 1 }, { unique: true }],
      [{ gameId: 1 }, { unique: true }],
      [{ finishedAt: 1, index: 1 }, {}],
    ]),
    nodes: model(conn, "LogNode", "log_nodes", timeoutMs, [[{ level: 1, index: 1 }, { unique: true }]]),
    heads: model(conn, "LogHead", "log_heads", timeoutMs, [[{ size: 1 }, { unique: true }]]),
    pending: model(conn, "LogPending", "log_pending", timeoutMs, [
      [{ gameId: 1 }, { unique: true }],
      [{ seq: 1 }, {}],
    ]),
    keys: model(conn, "LogKey", "log_keys", timeoutMs, [[{ keyId: 1 }, { unique: true }]]),
  };
}

const entryOf = (d: Doc): LogEntryRecord => ({
  index: d.index as number,
  gameId: d.gameId as string,
  finishedAt: d.finishedAt as string,
  leaf: d.leaf as string,
  ...(d.privateSalt ? { privateSalt: d.privateSalt as string } : {}),
});

export class MongoLog implements LogPort {
  constructor(
    private readonly m: LogModels,
    private readonly games: Model<Doc>,
  ) {}

  async init(): Promise<void> {
    await Promise.all(Object.values(this.m).map((x: Model<Doc>) => x.createIndexes()));
    await this.m.state
      .updateOne({ key: STATE_ID }, { $setOnInsert: { size: 0, epoch: 0, holder: null, leaseUntil: null, head: null } }, { upsert: true, ...DURABLY })
      .exec();
  }

  async logState(): Promise<LogStateRecord> {
    const d = await this.m.state.findOne({ key: STATE_ID }).lean<Doc>().exec();
    return {
      size: (d?.size as number) ?? 0,
      epoch: (d?.epoch as number) ?? 0,
      holder: (d?.holder as string) ?? null,
      leaseUntil: (d?.leaseUntil as string) ?? null,
      head: (d?.head as TreeHeadRecord) ?? null,
    };
  }

  async claimLogLease(holder: string, now: string, until: string): Promise<LogStateRecord | null> {
    const renewed = await this.m.state.updateOne({ key: STATE_ID, holder }, { $set: { leaseUntil: until } }, DURABLY).exec();
    if (renewed.matchedCount === 0) {
      const taken = await this.m.state
        .updateOne(
          { key: STATE_ID, holder: { $ne: holder }, $or: [{ leaseUntil: null }, { leaseUntil: { $lte: now } }] },
          { $set: { holder, leaseUntil: until }, $inc: { epoch: 1 } },
          DURABLY,
        )
        .exec();
      if (taken.matchedCount === 0) return null;
    }
    return this.logState();
  }

  async appendLog(a: LogAppend): Promise<boolean> {
    const s = await this.logState();
    if (s.epoch !== a.epoch || s.size !== a.fromSize) return false;
    try {
      // What an earlier batch left beyond the size (cut off, or refused) goes first.
      await this.m.entries.deleteMany({ index: { $gte: a.fromSize }, epoch: { $lte: a.epoch } }, DURABLY).exec();
      if (a.entries.length)
        await this.m.entries.insertMany(
          a.entries.map((e) => ({ ...e, epoch: a.epoch })),
          { ...INSERT_DURABLY, ordered: true },
        );
      if (a.nodes.length) {
        await this.m.nodes.bulkWrite(
          a.nodes.map((n) => ({
            updateOne: {
              filter: { level: n.level, index: n.index, epoch: { $lte: a.epoch } },
              update: { $set: { hash: n.hash, epoch: a.epoch } },
              upsert: true,
            },
          })),
          { ordered: true, ...DURABLY },
        );
      }
    } catch (e) {
      // A later epoch's entry or node is in the way: this writer is fenced out.
      if (isDuplicateKey(e)) return false;
      throw e;
    }
    const moved = await this.m.state
      .updateOne({ key: STATE_ID, epoch: a.epoch, size: a.fromSize }, { $set: { size: a.fromSize + a.entries.length, head: a.head } }, DURABLY)
      .exec();
    if (moved.matchedCount === 0) return false;
    await this.m.heads.updateOne({ size: a.head.size }, { $set: a.head }, { upsert: true, ...DURABLY }).exec();
    if (a.entries.length) await this.m.pending.deleteMany({ gameId: { $in: a.entries.map((e) => e.gameId) } }, DURABLY).exec();
    return true;
  }

  async logNodes(refs: readonly { level: number; index: number }[]): Promise<LogNodeRecord[]> {
    if (refs.length === 0) return [];
    const { size } = await this.logState();
    const inside = refs.filter((r) => (r.index + 1) * 2 ** r.level <= size);
    if (inside.length === 0) return [];
    const docs = await this.m.nodes
      .find({ $or: inside.map((r) => ({ level: r.level, index: r.index })) }, NO_ID)
      .lean<Doc[]>()
      .exec();
    return docs.map((d) => ({ level: d.level as number, index: d.index as number, hash: d.hash as string }));
  }

  async logEntries(from: number, to: number): Promise<LogEntryRecord[]> {
    const { size } = await this.logState();
    const docs = await this.m.entries
      .find({ index: { $gte: from, $lt: Math.min(to, size) } }, NO_ID)
      .sort({ index: 1 })
      .lean<Doc[]>()
      .exec();
    return docs.map(entryOf);
  }

  async logEntriesFinished(start: string, end: string, after: { finishedAt: string; index: number } | null, limit: number): Promise<LogEntryRecord[]> {
    const { size } = await this.logState();
    const from = after
      ? { $or: [{ finishedAt: { $gt: after.finishedAt, $lt: end } }, { finishedAt: after.finishedAt, index: { $gt: after.index, $lt: size } }] }
      : {};
    const docs = await this.m.entries
      .find({ finishedAt: { $gte: start, $lt: end }, index: { $lt: size }, ...from }, NO_ID)
      .sort({ finishedAt: 1, index: 1 })
      .limit(limit)
      .hint({ finishedAt: 1, index: 1 })
      .lean<Doc[]>()
      .exec();
    return docs.map(entryOf);
  }

  async logIndexOfGame(gameId: string): Promise<number | null> {
    const [d, { size }] = await Promise.all([this.m.entries.findOne({ gameId }, { _id: 0, index: 1 }).lean<Doc>().exec(), this.logState()]);
    return d && (d.index as number) < size ? (d.index as number) : null;
  }

  async logEntryOfGame(gameId: string): Promise<LogEntryRecord | null> {
    const [d, { size }] = await Promise.all([this.m.entries.findOne({ gameId }, NO_ID).lean<Doc>().exec(), this.logState()]);
    return d && (d.index as number) < size ? entryOf(d) : null;
  }

  async addLogPending(gameIds: readonly string[]): Promise<void> {
    if (gameIds.length === 0) return;
    const seq = Date.now();
    await this.m.pending.bulkWrite(
      gameIds.map((gameId, i) => ({ updateOne: { filter: { gameId }, update: { $setOnInsert: { gameId, seq: seq + i / 1000 } }, upsert: true } })),
      { ordered: false, ...DURABLY },
    );
  }

  async logPending(limit: number): Promise<string[]> {
    const docs = await this.m.pending.find({}, NO_ID).sort({ seq: 1 }).limit(limit).lean<Doc[]>().exec();
    return docs.map((d) => d.gameId as string);
  }

  async dropLogPending(gameIds: readonly string[]): Promise<void> {
    if (gameIds.length) await this.m.pending.deleteMany({ gameId: { $in: [...gameIds] } }, DURABLY).exec();
  }

  async unloggedGames(cursor: string | null, limit: number): Promise<{ gameIds: string[]; next: string | null }> {
    const at = cursor ? cursor.indexOf("|") : -1;
    const after = cursor ? { $or: [{ createdAt: { $gt: cursor.slice(0, at) } }, { createdAt: cursor.slice(0, at), id: { $gt: cursor.slice(at + 1) } }] } : {};
    const rows = await this.games
      .find({ status: "finished", ...after }, { _id: 0, id: 1, createdAt: 1, sealed: 1, public: 1 })
      .sort({ createdAt: 1, id: 1 })
      .limit(limit)
      .lean<Doc[]>()
      .exec();
    // Every finished game is looked at (the cursor runs over them all); only those entering the log are answered.
    const ids = rows.filter((r) => entersPublicLog(r as { sealed?: boolean; public?: boolean })).map((r) => r.id as string);
    const { size } = await this.logState();
    const logged = new Set(
      (
        await this.m.entries
          .find({ gameId: { $in: ids }, index: { $lt: size } }, { _id: 0, gameId: 1 })
          .lean<Doc[]>()
          .exec()
      ).map((d) => d.gameId as string),
    );
    const last = rows.at(-1);
    return { gameIds: ids.filter((id) => !logged.has(id)), next: rows.length === limit && last ? `${last.createdAt as string}|${last.id as string}` : null };
  }

  async logKeys(): Promise<LogPublicKeyRecord[]> {
    const docs = await this.m.keys.find({}, NO_ID).sort({ fromSize: 1, addedAt: 1 }).lean<Doc[]>().exec();
    return docs.map((d) => ({ keyId: d.keyId as string, publicKey: d.publicKey as string, fromSize: d.fromSize as number, addedAt: d.addedAt as string }));
  }

  async addLogKey(key: LogPublicKeyRecord): Promise<void> {
    await this.m.keys.updateOne({ keyId: key.keyId }, { $setOnInsert: { ...key } }, { upsert: true, ...DURABLY }).exec();
  }

  /** The private key an older version kept in the state document (signingKey), read once to move it out. */
  async legacyLogKey(): Promise<string | null> {
    const d = await this.m.state.findOne({ key: STATE_ID }, { _id: 0, signingKey: 1 }).lean<Doc>().exec();
    return (d?.signingKey as string | undefined) ?? null;
  }

  async dropLegacyLogKey(): Promise<void> {
    await this.m.state.updateOne({ key: STATE_ID }, { $unset: { signingKey: "" } }, DURABLY).exec();
  }
}
