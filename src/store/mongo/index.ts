/**
 * Store adapter on MongoDB through mongoose. It owns its connection (mongoose.createConnection), so it
 * never touches, nor depends on, mongoose's global default connection.
 */
import mongoose, { type Connection, type Model, type ProjectionType } from "mongoose";
import {
  type BotRecord,
  type LeagueRecord,
  type LeagueDeal,
  type LeagueResult,
  type ChallengeExpectation,
  type ChallengeRecord,
  type CommunityRecord,
  type TournamentRecord,
  type DeliveryRecord,
  type GameExpectation,
  type GameRecord,
  type GameRematch,
  type ListGamesQuery,
  type PlayerExpectation,
  type PlayerRecord,
  type PlayerUpdate,
  type ProcessRecord,
  type RankOptions,
  type GameWrite,
  type GameWriteResult,
  type RatingPoint,
  type Store,
  type StoreHealth,
  type StoredAction,
  type SubscriptionRecord,
  type LogAppend,
  type LogEntryRecord,
  type LogNodeRecord,
  type LogPublicKeyRecord,
  type LogStateRecord,
} from "../port";
import { copy, decodeCursor, encodeCursor, matchesArguments, nowIso, pageSize } from "../shared";
import { botsModel, MongoBots } from "./bots";
import { leagueModels, MongoLeagues } from "./leagues";
import { MongoRatings, ratingsModel } from "./ratings";
import { logModels, MongoLog } from "./log";
import { MongoCommunities } from "./communities";
import { claimDeliveries } from "./deliveries";
import { GAME_FIELDS, MongoGames } from "./games";
import { createModels, type Doc, type Models } from "./models";
import { DURABLY, expectationFilter, INSERT_DURABLY, isDuplicateKey, patchUpdate, retryingUpsert } from "./writes";

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

export class MongoStore implements Store {
  private readonly conn: Connection;
  private readonly m: Models;
  private readonly games: MongoGames;
  private readonly communities: MongoCommunities;
  private readonly bots: MongoBots;
  private readonly leagues: MongoLeagues;
  private readonly ratings: MongoRatings;
  private readonly log: MongoLog;
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
    this.games = new MongoGames(this.m.games, this.m.actions, (gameId) => this.log.addPending([gameId]));
    this.communities = new MongoCommunities(this.m.communities, this.m.members);
    this.bots = new MongoBots(botsModel(this.conn, timeoutMs));
    this.leagues = new MongoLeagues(leagueModels(this.conn, timeoutMs));
    this.ratings = new MongoRatings(ratingsModel(this.conn, timeoutMs));
    this.log = new MongoLog(logModels(this.conn, timeoutMs), this.m.games);
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
    await Promise.all([
      ...Object.values(this.m).map((model) => model.createIndexes()),
      this.bots.init(),
      this.leagues.init(),
      this.ratings.init(),
      this.log.init(),
    ]);
  }

  async close(): Promise<void> {
    await this.conn.close();
  }

  /** Drops the whole database this store points at; for tests that give every store its own database. */
  async dropDatabase(): Promise<void> {
    await this.conn.asPromise();
    await this.conn.dropDatabase();
  }

  private async one<T>(model: Model<Doc>, filter: Doc, fields: ProjectionType<Doc> = NO_ID): Promise<T | null> {
    return (await model.findOne(filter, fields).lean<T>().exec()) ?? null;
  }
  private async insert(model: Model<Doc>, record: object): Promise<void> {
    await model.insertMany([copy(record) as Doc], INSERT_DURABLY);
  }
  private async patch(model: Model<Doc>, keyField: string, key: string, patch: object, stamp = true): Promise<void> {
    await model.updateOne({ [keyField]: key }, patchUpdate(patch, keyField, stamp), DURABLY).exec();
  }
  private async patchIf(model: Model<Doc>, keyField: string, key: string, expected: object, patch: object): Promise<boolean> {
    // The filter carries the expectation, so the server checks and writes in one atomic operation.
    return (await model.updateOne(expectationFilter(keyField, key, expected), patchUpdate(patch, keyField, true), DURABLY).exec()).matchedCount > 0;
  }

  /** A new profile for a game's write (GameWrite.guests): false when its id is taken. */
  private async insertGuest(p: PlayerRecord): Promise<boolean> {
    try {
      await this.insert(this.m.players, p);
      return true;
    } catch (e) {
      if (isDuplicateKey(e)) return false;
      throw e;
    }
  }

  async createGame(game: GameRecord, players: readonly PlayerRecord[] = []): Promise<void> {
    // No multi-document transaction (that needs a replica set): the profiles first, so a game never refers to
    // a profile that is not stored.
    for (const p of players) await this.insert(this.m.players, p);
    await this.games.create(game);
  }
  async createGames(games: GameRecord[]): Promise<void> {
    await this.games.createMany(games);
  }
  async getGame(id: string): Promise<GameRecord | null> {
    return this.one<GameRecord>(this.m.games, { id }, GAME_FIELDS);
  }
  async updateGameIf(id: string, expected: GameExpectation, patch: Partial<GameRecord>): Promise<boolean> {
    return this.patchIf(this.m.games, "id", id, expected, patch);
  }
  async updateRematchIf(id: string, version: number | undefined, rematch: GameRematch): Promise<boolean> {
    // A null filter value also matches a missing member: a game without a rematch yet.
    const filter = { id, status: "finished", "rematch.version": version ?? null };
    return (await this.m.games.updateOne(filter, { $set: { rematch: copy(rematch), updatedAt: nowIso() } }, DURABLY).exec()).matchedCount > 0;
  }
  async findGameByCode(code: string): Promise<GameRecord | null> {
    const [game] = await this.m.games
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
    const games = await this.m.games
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
    return this.m.games
      .find({ status: { $in: ["waiting", "active"] } }, GAME_FIELDS)
      .sort({ createdAt: 1, id: 1 })
      .lean<GameRecord[]>()
      .exec();
  }

  async listGamesWithStatus(status: "waiting" | "active", q: { createdBefore?: string; limit?: number } = {}): Promise<GameRecord[]> {
    const filter = q.createdBefore === undefined ? { status } : { status, createdAt: { $lt: q.createdBefore } };
    // limit(0) is no limit.
    return this.m.games
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
      for (const p of w.guests ?? []) if (held) held = await this.insertGuest(p);
      for (const u of w.players ?? []) if (held) held = await this.updatePlayerIf(u.id, u.expected, u.patch);
      stale.push(!held);
    }
    if (!stale.includes(true)) return this.games.commit(writes);
    const kept = writes.filter((_, i) => !stale[i]);
    const results = kept.length > 0 ? await this.games.commit(kept) : [];
    let next = 0;
    return stale.map((s): GameWriteResult => (s ? "stale" : results[next++]));
  }
  async listActions(gameId: string): Promise<StoredAction[]> {
    return this.games.listActions(gameId);
  }

  // ---- the public game log (./log.ts) ----
  logState(): Promise<LogStateRecord> {
    return this.log.state();
  }
  claimLogLease(holder: string, now: string, until: string): Promise<LogStateRecord | null> {
    return this.log.claim(holder, now, until);
  }
  appendLog(batch: LogAppend): Promise<boolean> {
    return this.log.append(batch);
  }
  logNodes(refs: readonly { level: number; index: number }[]): Promise<LogNodeRecord[]> {
    return this.log.nodes(refs);
  }
  logEntries(from: number, to: number): Promise<LogEntryRecord[]> {
    return this.log.entries(from, to);
  }
  logEntriesFinished(start: string, end: string, after: { finishedAt: string; index: number } | null, limit: number): Promise<LogEntryRecord[]> {
    return this.log.entriesFinished(start, end, after, limit);
  }
  logEntryOfGame(gameId: string): Promise<LogEntryRecord | null> {
    return this.log.entryOfGame(gameId);
  }
  logIndexOfGame(gameId: string): Promise<number | null> {
    return this.log.indexOfGame(gameId);
  }
  addLogPending(gameIds: readonly string[]): Promise<void> {
    return this.log.addPending(gameIds);
  }
  logPending(limit: number): Promise<string[]> {
    return this.log.pending(limit);
  }
  dropLogPending(gameIds: readonly string[]): Promise<void> {
    return this.log.dropPending(gameIds);
  }
  unloggedGames(cursor: string | null, limit: number): Promise<{ gameIds: string[]; next: string | null }> {
    return this.log.unlogged(cursor, limit);
  }
  logKeys(): Promise<LogPublicKeyRecord[]> {
    return this.log.keys();
  }
  addLogKey(key: LogPublicKeyRecord): Promise<void> {
    return this.log.addKey(key);
  }
  legacyLogKey(): Promise<string | null> {
    return this.log.legacyKey();
  }
  dropLegacyLogKey(): Promise<void> {
    return this.log.dropLegacyKey();
  }

  // ---- bots (./bots.ts) ----
  createBot(b: BotRecord): Promise<void> {
    return this.bots.create(b);
  }
  getBot(id: string): Promise<BotRecord | null> {
    return this.bots.get(id);
  }
  findBotByKey(keyHash: string): Promise<BotRecord | null> {
    return this.bots.findByKey(keyHash);
  }
  updateBot(id: string, patch: Partial<Omit<BotRecord, "id">>): Promise<void> {
    return this.bots.patch(id, patch);
  }
  listBots(limit: number, offset: number): Promise<BotRecord[]> {
    return this.bots.list(limit, offset);
  }

  // ---- rating history (./ratings.ts) ----
  ratingHistory(playerId: string, after: number, limit: number): Promise<RatingPoint[]> {
    return this.ratings.history(playerId, after, limit);
  }
  ratingChanges(gameId: string, playerIds: readonly string[]): Promise<{ after: RatingPoint; before: RatingPoint | null }[]> {
    return this.ratings.changes(gameId, playerIds);
  }

  // ---- leagues (./leagues.ts) ----
  createLeague(l: LeagueRecord): Promise<void> {
    return this.leagues.create(l);
  }
  getLeague(id: string): Promise<LeagueRecord | null> {
    return this.leagues.get(id);
  }
  listLeagues(limit: number): Promise<LeagueRecord[]> {
    return this.leagues.list(limit);
  }
  replaceLeagueIf(l: LeagueRecord): Promise<boolean> {
    return this.leagues.replaceIf(l);
  }
  putLeagueSchedule(leagueId: string, schedule: LeagueDeal[]): Promise<LeagueDeal[]> {
    return this.leagues.putSchedule(leagueId, schedule);
  }
  getLeagueSchedule(leagueId: string): Promise<LeagueDeal[] | null> {
    return this.leagues.getSchedule(leagueId);
  }
  addLeagueResult(r: LeagueResult): Promise<boolean> {
    return this.leagues.addResult(r);
  }
  listLeagueResults(leagueId: string, deals?: readonly number[]): Promise<LeagueResult[]> {
    return this.leagues.resultsOf(leagueId, deals);
  }

  async createPlayer(p: PlayerRecord): Promise<void> {
    await this.insert(this.m.players, p);
  }
  async getPlayer(id: string): Promise<PlayerRecord | null> {
    return this.one<PlayerRecord>(this.m.players, { id });
  }
  async updatePlayer(id: string, patch: Partial<PlayerRecord>): Promise<void> {
    await this.patch(this.m.players, "id", id, patch);
    await this.ratings.addFrom({ id, lastRated: patch.lastRated });
  }
  /** Every conditional profile write, alone or for a game's write (commitGames): the point it carries joins the history. */
  async updatePlayerIf(id: string, expected: PlayerExpectation, patch: Partial<PlayerRecord>): Promise<boolean> {
    const wrote = await this.patchIf(this.m.players, "id", id, expected, patch);
    if (wrote) await this.ratings.addFrom({ id, lastRated: patch.lastRated });
    return wrote;
  }
  async updatePlayersIf(updates: readonly PlayerUpdate[]): Promise<boolean[]> {
    // In order, each atomic on its own, as the port asks: no multi-document transaction (that needs a replica set).
    const wrote: boolean[] = [];
    for (const u of updates) wrote.push(await this.updatePlayerIf(u.id, u.expected, u.patch));
    return wrote;
  }
  async rankPlayers(ids: string[] | undefined, limit: number, offset: number, options: RankOptions = {}): Promise<PlayerRecord[]> {
    const n = pageSize(limit);
    if (n === 0) return []; // Mongo reads limit(0) as "no limit"
    // listed: in the filter, so skip and limit count listed profiles only; movedTo null also matches an absent one.
    const filter = { ...(ids === undefined ? {} : { id: { $in: ids } }), ...(options.listed ? { games: { $gt: 0 }, movedTo: null } : {}) };
    return this.m.players.find(filter, NO_ID).sort({ rating: -1, id: 1 }).skip(pageSize(offset)).limit(n).lean<PlayerRecord[]>().exec();
  }

  async upsertSubscription(s: SubscriptionRecord): Promise<SubscriptionRecord> {
    // Same key = same subscription: it keeps its id and creation time, everything else is replaced.
    const { id, createdAt, key, ...rest } = copy(s);
    // Two upserts of a new key may race; the loser's second run finds the winner's document and updates it.
    return (await retryingUpsert(() =>
      this.m.subscriptions
        .findOneAndUpdate({ key }, { $set: rest, $setOnInsert: { id, createdAt } }, { upsert: true, returnDocument: "after", projection: NO_ID, ...DURABLY })
        .lean<SubscriptionRecord>()
        .exec(),
    ))!;
  }
  async getSubscriptionByKey(key: string): Promise<SubscriptionRecord | null> {
    return this.one<SubscriptionRecord>(this.m.subscriptions, { key });
  }
  async deleteSubscriptionByKey(key: string): Promise<boolean> {
    return (await this.m.subscriptions.deleteOne({ key }, DURABLY).exec()).deletedCount > 0;
  }
  async deleteSubscription(id: string): Promise<void> {
    await this.m.subscriptions.deleteOne({ id }, DURABLY).exec();
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
    return (await this.m.subscriptions.deleteMany({ expiresAt: { $lte: now } }, DURABLY).exec()).deletedCount;
  }

  async saveDeliveries(d: DeliveryRecord[]): Promise<void> {
    if (d.length === 0) return;
    const replace = () =>
      this.m.deliveries.bulkWrite(
        d.map((row) => ({
          replaceOne: { filter: { eventId: row.eventId }, replacement: copy(row) as unknown as Doc, upsert: true },
        })),
        { ordered: false, ...DURABLY },
      );
    await retryingUpsert(replace);
  }
  async deleteDeliveries(eventIds: string[]): Promise<void> {
    if (eventIds.length === 0) return;
    await this.m.deliveries.deleteMany({ eventId: { $in: eventIds } }, DURABLY).exec();
  }
  async claimDeliveries(expiredBy: string, leaseUntil: string, limit: number, holder?: string): Promise<DeliveryRecord[]> {
    return claimDeliveries(this.m.deliveries, expiredBy, leaseUntil, pageSize(limit), holder);
  }

  async registerProcess(p: ProcessRecord): Promise<void> {
    await retryingUpsert(() => this.m.processes.replaceOne({ id: p.id }, copy(p), { upsert: true, ...DURABLY }).exec());
  }
  async touchProcess(id: string, heartbeatAt: string): Promise<boolean> {
    return (await this.m.processes.updateOne({ id }, { $set: { heartbeatAt } }, DURABLY).exec()).matchedCount > 0;
  }
  async listProcesses(): Promise<ProcessRecord[]> {
    return this.m.processes.find({}, NO_ID).sort({ id: 1 }).lean<ProcessRecord[]>().exec();
  }
  async removeProcessIf(id: string, heartbeatAt: string): Promise<boolean> {
    return (await this.m.processes.deleteOne({ id, heartbeatAt }, DURABLY).exec()).deletedCount > 0;
  }

  async expireDeliveriesOf(holder: string, now: string): Promise<number> {
    return (await this.m.deliveries.updateMany({ holder, leaseUntil: { $gt: now } }, { $set: { leaseUntil: now } }, DURABLY).exec()).modifiedCount;
  }

  async markUrlVerified(url: string, at: string): Promise<void> {
    await retryingUpsert(() => this.m.verifiedUrls.updateOne({ url }, { $set: { at } }, { upsert: true, ...DURABLY }).exec());
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
    return this.patchIf(this.m.challenges, "token", token, expected, patch);
  }
  async listChallenges(agentName: string, limit: number): Promise<ChallengeRecord[]> {
    const n = pageSize(limit);
    if (n === 0) return [];
    return this.m.challenges.find({ "agent.name": agentName }, NO_ID).sort({ createdAt: -1, token: -1 }).limit(n).lean<ChallengeRecord[]>().exec();
  }

  async createTournament(t: TournamentRecord): Promise<void> {
    await this.m.tournaments.insertMany([copy(t)], INSERT_DURABLY);
  }
  async getTournament(id: string): Promise<TournamentRecord | null> {
    return this.m.tournaments.findOne({ id }, NO_ID).lean<TournamentRecord>().exec();
  }
  async listTournaments(limit: number): Promise<TournamentRecord[]> {
    const n = pageSize(limit);
    if (n === 0) return [];
    return this.m.tournaments.find({}, NO_ID).sort({ createdAt: -1, id: -1 }).limit(n).lean<TournamentRecord[]>().exec();
  }
  async replaceTournamentIf(t: TournamentRecord): Promise<boolean> {
    const out = await this.m.tournaments.replaceOne({ id: t.id, version: t.version - 1 }, copy(t), DURABLY).exec();
    return out.matchedCount === 1;
  }

  async createCommunity(c: CommunityRecord): Promise<void> {
    await this.communities.create(c);
  }
  async getCommunity(id: string): Promise<CommunityRecord | null> {
    return this.communities.get(id);
  }
  async listCommunities(kind?: CommunityRecord["kind"]): Promise<CommunityRecord[]> {
    return this.communities.list(kind ? { kind } : {});
  }
  async addMember(id: string, playerId: string): Promise<void> {
    await this.communities.addMember(id, playerId);
  }
  async removeMember(id: string, playerId: string): Promise<void> {
    await this.communities.removeMember(id, playerId);
  }
  async communitiesOf(playerId: string): Promise<CommunityRecord[]> {
    return this.communities.of(playerId);
  }
}
