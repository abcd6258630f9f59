/**
 * Store adapter on MongoDB through mongoose. It owns its connection (mongoose.createConnection), so it
 * never touches, nor depends on, mongoose's global default connection.
 */
import mongoose, { type Connection, type InsertManyOptions, type Model, type mongo } from "mongoose";
import {
  ActionConflictError,
  type BotRecord, type ChallengeExpectation, type ChallengeRecord, type CommunityRecord, type DeliveryRecord, type GameExpectation, type GameRecord, type ListGamesQuery, type PlayerExpectation, type PlayerRecord, type PlayerUpdate, type ProcessRecord,
  type GameWrite, type GameWriteResult, type Store, type StoreHealth, type StoredAction, type SubscriptionRecord,
} from "../port";
import { copy, decodeCursor, encodeCursor, matchesArguments, nowIso, pageSize } from "../shared";
import { botsModel, MongoBots } from "./bots";
import { createModels, type Doc, type Models } from "./models";

export interface MongoStoreOptions {
  url: string;
  /**
   * Bound on server selection, connecting and waiting for a connection (default 5000 ms); a socket read
   * waits four times as long. Without bounds every call hangs 10-30 s during an outage.
   */
  timeoutMs?: number;
  /** Told every change of the connection's state (connected, disconnected, reconnected, error). */
  onState?: (state: string, err?: unknown) => void;
}

/** Never return Mongo's own _id: records are exactly the port's shapes. */
const NO_ID = { _id: 0 } as const;
/** Actions are acknowledged only once journaled on a majority: appendAction is durable when it resolves. */
const DURABLE = { w: "majority", j: true } as const;

/** E11000, as a plain server error or inside a bulk write error (insertMany). */
function isDuplicateKey(e: unknown): boolean {
  const err = e as { code?: number; writeErrors?: { code?: number }[] } | null;
  return err?.code === 11000 || (err?.writeErrors ?? []).some((w) => w.code === 11000);
}

/** A filter member per expectation: equal, or absent when the expectation is undefined. */
function expectationFilter(keyField: string, key: string, expected: object): Doc {
  const filter: Doc = { [keyField]: key };
  for (const [k, v] of Object.entries(expected)) filter[k] = v === undefined ? { $exists: false } : v;
  return filter;
}

/** $set for the patch's members, $unset for the ones it sets to undefined; the key member never changes. */
function patchUpdate(patch: object, keyField: string, stamp: boolean): Doc {
  const set: Doc = {};
  const unset: Doc = {};
  for (const [k, v] of Object.entries(patch)) {
    if (k === keyField || k === "_id") continue;
    if (v === undefined) unset[k] = "";
    else set[k] = copy(v);
  }
  if (stamp) set.updatedAt = nowIso();
  return Object.keys(unset).length ? { $set: set, $unset: unset } : { $set: set };
}

export class MongoStore implements Store {
  private readonly conn: Connection;
  private readonly m: Models;
  private readonly bots: MongoBots;
  private state = "connecting";

  constructor(options: MongoStoreOptions) {
    const timeoutMs = options.timeoutMs ?? 5000;
    this.conn = mongoose.createConnection(options.url, {
      autoIndex: false,
      serverSelectionTimeoutMS: timeoutMs,
      connectTimeoutMS: timeoutMs,
      socketTimeoutMS: timeoutMs * 4,
      waitQueueTimeoutMS: timeoutMs,
    });
    for (const state of ["connected", "disconnected", "reconnected", "close"] as const) {
      this.conn.on(state, () => {
        this.state = state;
        options.onState?.(state);
      });
    }
    this.conn.on("error", (err: unknown) => {
      this.state = "error";
      options.onState?.("error", err);
    });
    this.m = createModels(this.conn, timeoutMs);
    this.bots = new MongoBots(botsModel(this.conn, timeoutMs));
  }

  async health(): Promise<StoreHealth> {
    try {
      // A ping through the driver: bounded by server selection, so an outage answers within the timeout.
      await this.conn.db!.admin().ping();
      return { ok: true, adapter: "mongodb", state: this.state };
    } catch {
      return { ok: false, adapter: "mongodb", state: this.state };
    }
  }

  async init(): Promise<void> {
    await this.conn.asPromise();
    await Promise.all([...Object.values(this.m).map((model) => model.createIndexes()), this.bots.init()]);
  }

  async close(): Promise<void> {
    await this.conn.close();
  }

  /** Drops the whole database this store points at; for tests that give every store its own database. */
  async dropDatabase(): Promise<void> {
    await this.conn.asPromise();
    await this.conn.dropDatabase();
  }

  private async one<T>(model: Model<Doc>, filter: Doc): Promise<T | null> {
    return (await model.findOne(filter, NO_ID).lean<T>().exec()) ?? null;
  }
  private async insert(model: Model<Doc>, record: object, options: InsertManyOptions & mongo.BulkWriteOptions = {}): Promise<void> {
    // insertMany with lean skips document hydration: the record is written exactly as given. Its options
    // go to the driver as they are, which is how the write concern reaches the server.
    await model.insertMany([copy(record) as Doc], { lean: true, ...options });
  }
  private async patch(model: Model<Doc>, keyField: string, key: string, patch: object, stamp = true): Promise<void> {
    await model.updateOne({ [keyField]: key }, patchUpdate(patch, keyField, stamp)).exec();
  }

  async createGame(game: GameRecord): Promise<void> {
    await this.insert(this.m.games, game);
  }
  async getGame(id: string): Promise<GameRecord | null> {
    return this.one<GameRecord>(this.m.games, { id });
  }
  async updateGame(id: string, patch: Partial<GameRecord>): Promise<void> {
    await this.patch(this.m.games, "id", id, patch);
  }
  async updateGameIf(id: string, expected: GameExpectation, patch: Partial<GameRecord>): Promise<boolean> {
    return (await this.m.games.updateOne(expectationFilter("id", id, expected), patchUpdate(patch, "id", true)).exec()).matchedCount > 0;
  }
  async findGameByCode(code: string): Promise<GameRecord | null> {
    const [game] = await this.m.games.find({ $or: [{ "seats.A.code": code }, { "seats.B.code": code }] }, NO_ID)
      .sort({ createdAt: -1, id: -1 }).limit(1).lean<GameRecord[]>().exec();
    return game ?? null;
  }
  async listGames(q: ListGamesQuery): Promise<{ games: GameRecord[]; nextCursor: string | null }> {
    const limit = pageSize(q.limit);
    const filter: Doc = {};
    if (q.status) filter.status = q.status;
    if (q.publicOnly) filter.public = true;
    if (q.cursor) {
      const c = decodeCursor(q.cursor);
      filter.$or = [{ createdAt: { $lt: c.createdAt } }, { createdAt: c.createdAt, id: { $lt: c.id } }];
    }
    const games = await this.m.games.find(filter, NO_ID).sort({ createdAt: -1, id: -1 }).limit(limit + 1)
      .lean<GameRecord[]>().exec();
    const more = games.length > limit;
    if (more) games.length = limit;
    const last = games[games.length - 1];
    return { games, nextCursor: more && last ? encodeCursor(last) : null };
  }
  async listUnfinishedGames(): Promise<GameRecord[]> {
    return this.m.games.find({ status: { $in: ["waiting", "active"] } }, NO_ID).sort({ createdAt: 1, id: 1 })
      .lean<GameRecord[]>().exec();
  }

  async appendAction(a: StoredAction): Promise<void> {
    try {
      await this.insert(this.m.actions, a, { writeConcern: DURABLE });
    } catch (e) {
      if (isDuplicateKey(e)) throw new ActionConflictError(a.gameId, a.index);
      throw e;
    }
  }
  /**
   * Group commit without a multi-document transaction (those need a replica set): the batch's actions go in
   * one unordered journaled insert, then the records of the writes whose actions all went in get their
   * patches in one bulk write. A write with a duplicate index is reported "conflict" and its record is left
   * alone (its other actions may be stored; a resumed room replays them). A rejection stores nothing of the
   * records; actions already inserted replay on resume, as after a crash between the two steps.
   */
  async commitGames(writes: GameWrite[]): Promise<GameWriteResult[]> {
    const conflicted = new Set<string>();
    // The owner fence. MongoDB cannot make an insert conditional on another collection outside a
    // transaction, so it is a check just before the insert; the unique (gameId, index) key is the backstop:
    // a room that lost its game and still slips a write in makes the new owner's write of that index
    // conflict, and the new owner then rebuilds from the log (which keeps the acknowledged move).
    const fenced = writes.filter((w) => w.ownerEpoch !== undefined);
    if (fenced.length > 0) {
      const held = await this.m.games.find({ id: { $in: fenced.map((w) => w.gameId) } }, { id: 1, ownerEpoch: 1 }).lean<{ id: string; ownerEpoch?: number }[]>().exec();
      const epochs = new Map(held.map((g) => [g.id, g.ownerEpoch]));
      for (const w of fenced) if (epochs.get(w.gameId) !== w.ownerEpoch) conflicted.add(w.gameId);
    }
    const actions = writes.filter((w) => !conflicted.has(w.gameId)).flatMap((w) => w.actions);
    if (actions.length > 0) {
      try {
        const options: InsertManyOptions & mongo.BulkWriteOptions = { lean: true, ordered: false, writeConcern: DURABLE };
        await this.m.actions.insertMany(actions.map((a) => copy<object>(a) as Doc), options);
      } catch (e) {
        if (!isDuplicateKey(e)) throw e;
        const failed = (e as { writeErrors?: { index?: number; err?: { index?: number } }[] }).writeErrors ?? [];
        for (const w of failed) {
          const i = w.index ?? w.err?.index;
          if (i !== undefined && actions[i]) conflicted.add(actions[i].gameId);
        }
      }
    }
    const updates = writes
      .filter((w) => !conflicted.has(w.gameId) && Object.keys(w.patch).length > 0)
      .map((w) => ({ updateOne: { filter: { id: w.gameId }, update: patchUpdate(w.patch, "id", true) } }));
    if (updates.length > 0) await this.m.games.bulkWrite(updates, { ordered: false, writeConcern: DURABLE });
    return writes.map((w) => (conflicted.has(w.gameId) ? "conflict" : "committed"));
  }
  async listActions(gameId: string): Promise<StoredAction[]> {
    return this.m.actions.find({ gameId }, NO_ID).sort({ index: 1 }).lean<StoredAction[]>().exec();
  }

  // ---- bots (./bots.ts) ----
  createBot(b: BotRecord): Promise<void> { return this.bots.create(b); }
  getBot(id: string): Promise<BotRecord | null> { return this.bots.get(id); }
  findBotByKey(keyHash: string): Promise<BotRecord | null> { return this.bots.findByKey(keyHash); }
  updateBot(id: string, patch: Partial<Omit<BotRecord, "id">>): Promise<void> { return this.bots.patch(id, patch); }

  async createPlayer(p: PlayerRecord): Promise<void> {
    await this.insert(this.m.players, p);
  }
  async getPlayer(id: string): Promise<PlayerRecord | null> {
    return this.one<PlayerRecord>(this.m.players, { id });
  }
  async updatePlayer(id: string, patch: Partial<PlayerRecord>): Promise<void> {
    await this.patch(this.m.players, "id", id, patch);
  }
  async updatePlayerIf(id: string, expected: PlayerExpectation, patch: Partial<PlayerRecord>): Promise<boolean> {
    // The filter carries the expectation, so the server checks and writes in one atomic operation.
    return (await this.m.players.updateOne(expectationFilter("id", id, expected), patchUpdate(patch, "id", true)).exec()).matchedCount > 0;
  }
  async updatePlayersIf(updates: readonly PlayerUpdate[]): Promise<boolean[]> {
    // In order, each atomic on its own, as the port asks: no multi-document transaction (that needs a replica set).
    const wrote: boolean[] = [];
    for (const u of updates) wrote.push(await this.updatePlayerIf(u.id, u.expected, u.patch));
    return wrote;
  }
  async rankPlayers(ids: string[] | undefined, limit: number, offset: number): Promise<PlayerRecord[]> {
    const n = pageSize(limit);
    if (n === 0) return []; // Mongo reads limit(0) as "no limit"
    return this.m.players.find(ids === undefined ? {} : { id: { $in: ids } }, NO_ID)
      .sort({ rating: -1, id: 1 }).skip(pageSize(offset)).limit(n).lean<PlayerRecord[]>().exec();
  }

  async upsertSubscription(s: SubscriptionRecord): Promise<SubscriptionRecord> {
    // Same key = same subscription: it keeps its id and creation time, everything else is replaced.
    const { id, createdAt, key, ...rest } = copy(s);
    const run = () => this.m.subscriptions.findOneAndUpdate(
      { key },
      { $set: rest, $setOnInsert: { id, createdAt } },
      { upsert: true, returnDocument: "after", projection: NO_ID },
    ).lean<SubscriptionRecord>().exec();
    try {
      return (await run())!;
    } catch (e) {
      // Two upserts of a new key raced; the loser now finds the winner's document and updates it.
      if (isDuplicateKey(e)) return (await run())!;
      throw e;
    }
  }
  async getSubscriptionByKey(key: string): Promise<SubscriptionRecord | null> {
    return this.one<SubscriptionRecord>(this.m.subscriptions, { key });
  }
  async deleteSubscriptionByKey(key: string): Promise<boolean> {
    return (await this.m.subscriptions.deleteOne({ key }).exec()).deletedCount > 0;
  }
  async deleteSubscription(id: string): Promise<void> {
    await this.m.subscriptions.deleteOne({ id }).exec();
  }
  async updateSubscription(id: string, patch: Partial<SubscriptionRecord>): Promise<void> {
    await this.patch(this.m.subscriptions, "id", id, patch);
  }
  async findSubscriptions(name: string, match: Record<string, unknown>, now: string): Promise<SubscriptionRecord[]> {
    const filter: Doc = { name, expiresAt: { $gt: now } };
    // Scalars on plain keys are pushed down to the index; the exact match below decides in every case.
    for (const [k, v] of Object.entries(match)) {
      if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(k) && (typeof v === "string" || typeof v === "number")) filter[`arguments.${k}`] = v;
    }
    const live = await this.m.subscriptions.find(filter, NO_ID).sort({ _id: 1 }).lean<SubscriptionRecord[]>().exec();
    return live.filter((s) => matchesArguments(s.arguments, match));
  }
  async findGameSubscriptions(gameId: string): Promise<SubscriptionRecord[]> {
    return this.m.subscriptions.find({ "arguments.game_id": gameId }, NO_ID).sort({ _id: 1 }).lean<SubscriptionRecord[]>().exec();
  }
  async deleteExpiredSubscriptions(now: string): Promise<number> {
    return (await this.m.subscriptions.deleteMany({ expiresAt: { $lte: now } }).exec()).deletedCount;
  }

  async saveDeliveries(d: DeliveryRecord[]): Promise<void> {
    if (d.length === 0) return;
    await this.m.deliveries.bulkWrite(d.map((row) => ({
      replaceOne: { filter: { eventId: row.eventId }, replacement: copy(row) as unknown as Doc, upsert: true },
    })));
  }
  async deleteDeliveries(eventIds: string[]): Promise<void> {
    if (eventIds.length === 0) return;
    await this.m.deliveries.deleteMany({ eventId: { $in: eventIds } }).exec();
  }
  async claimDeliveries(expiredBy: string, leaseUntil: string, limit: number, holder?: string): Promise<DeliveryRecord[]> {
    const taken = holder ? { leaseUntil, holder } : { leaseUntil };
    // Read a page of candidates (the sort is covered by the createdAt/eventId/leaseUntil index), then
    // compare-and-set each on the lease it was read with, so each is leased to one caller. What this call
    // already saw is excluded from the next page: its new lease may still end before `expiredBy`.
    const n = pageSize(limit);
    const claimed: DeliveryRecord[] = [];
    const seen: string[] = []; // won here, or lost to another caller who now holds it
    while (claimed.length < n) {
      const candidates = await this.m.deliveries.find({ leaseUntil: { $lte: expiredBy }, eventId: { $nin: seen } }, NO_ID)
        .sort({ createdAt: 1, eventId: 1 }).limit(n - claimed.length).lean<DeliveryRecord[]>().exec();
      if (candidates.length === 0) break;
      seen.push(...candidates.map((d) => d.eventId));
      const won = await Promise.all(candidates.map(async (d) =>
        (await this.m.deliveries.updateOne({ eventId: d.eventId, leaseUntil: d.leaseUntil }, { $set: taken }).exec()).matchedCount > 0));
      claimed.push(...candidates.filter((_, i) => won[i]).map((d) => ({ ...d, ...taken })));
    }
    // Oldest first across pages, as the port promises.
    return claimed.sort((a, b) => (a.createdAt === b.createdAt ? (a.eventId < b.eventId ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1));
  }

  async registerProcess(p: ProcessRecord): Promise<void> {
    await this.m.processes.replaceOne({ id: p.id }, copy(p), { upsert: true }).exec();
  }
  async touchProcess(id: string, heartbeatAt: string): Promise<boolean> {
    return (await this.m.processes.updateOne({ id }, { $set: { heartbeatAt } }).exec()).matchedCount > 0;
  }
  async listProcesses(): Promise<ProcessRecord[]> {
    return this.m.processes.find({}, NO_ID).sort({ id: 1 }).lean<ProcessRecord[]>().exec();
  }
  async removeProcessIf(id: string, heartbeatAt: string): Promise<boolean> {
    return (await this.m.processes.deleteOne({ id, heartbeatAt }).exec()).deletedCount > 0;
  }

  async expireDeliveriesOf(holder: string, now: string): Promise<number> {
    return (await this.m.deliveries.updateMany({ holder, leaseUntil: { $gt: now } }, { $set: { leaseUntil: now } }).exec()).modifiedCount;
  }

  async markUrlVerified(url: string, at: string): Promise<void> {
    await this.m.verifiedUrls.updateOne({ url }, { $set: { at } }, { upsert: true }).exec();
  }
  async urlVerifiedAt(url: string): Promise<string | null> {
    return (await this.one<{ at: string }>(this.m.verifiedUrls, { url }))?.at ?? null;
  }

  async createChallenge(c: ChallengeRecord): Promise<void> {
    await this.insert(this.m.challenges, c);
  }
  async getChallenge(token: string): Promise<ChallengeRecord | null> {
    return this.one<ChallengeRecord>(this.m.challenges, { token });
  }
  async updateChallenge(token: string, patch: Partial<ChallengeRecord>): Promise<void> {
    await this.patch(this.m.challenges, "token", token, patch);
  }
  async updateChallengeIf(token: string, expected: ChallengeExpectation, patch: Partial<ChallengeRecord>): Promise<boolean> {
    // The filter carries the expectation, so the server checks and writes in one atomic operation.
    return (await this.m.challenges.updateOne(expectationFilter("token", token, expected), patchUpdate(patch, "token", true)).exec()).matchedCount > 0;
  }
  async listChallenges(agentName: string, limit: number): Promise<ChallengeRecord[]> {
    const n = pageSize(limit);
    if (n === 0) return [];
    return this.m.challenges.find({ "agent.name": agentName }, NO_ID).sort({ createdAt: -1, token: -1 }).limit(n)
      .lean<ChallengeRecord[]>().exec();
  }

  async createCommunity(c: CommunityRecord): Promise<void> {
    await this.insert(this.m.communities, { ...c, members: [...new Set(c.members)] });
  }
  async getCommunity(id: string): Promise<CommunityRecord | null> {
    return this.one<CommunityRecord>(this.m.communities, { id });
  }
  async listCommunities(kind?: CommunityRecord["kind"]): Promise<CommunityRecord[]> {
    return this.m.communities.find(kind ? { kind } : {}, NO_ID).sort({ createdAt: 1, id: 1 }).lean<CommunityRecord[]>().exec();
  }
  async addMember(id: string, playerId: string): Promise<void> {
    await this.m.communities.updateOne({ id }, { $addToSet: { members: playerId } }).exec();
  }
  async removeMember(id: string, playerId: string): Promise<void> {
    await this.m.communities.updateOne({ id }, { $pull: { members: playerId } }).exec();
  }
  async communitiesOf(playerId: string): Promise<CommunityRecord[]> {
    return this.m.communities.find({ members: playerId }, NO_ID).sort({ createdAt: 1, id: 1 }).lean<CommunityRecord[]>().exec();
  }
}
