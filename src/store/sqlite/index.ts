/**
 * Store adapter on better-sqlite3: the embedded default. Calls are synchronous underneath; the async
 * methods exist because the port is shared with networked adapters.
 *
 * Durability: the database runs in WAL mode. With synchronous=FULL (the default) a write resolves only once
 * the WAL is fsynced, so a resolved write survives power loss too; the fsync runs on the thread pool, not in
 * the commit (wal-sync.ts). Moves reach the store through a group commit (commitGames), which a file
 * database runs on its writer thread (writer.ts): one transaction and one fsync for every game write that
 * arrived while the previous batch was being committed, with no SQL of a move on the event loop.
 * synchronous=NORMAL resolves at the commit: it survives a process crash only.
 */
import Database from "better-sqlite3";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { setTimeout as delayFor } from "node:timers/promises";
import {
  ActionConflictError,
  type BotRecord, type LeagueRecord, type LeagueDeal, type LeagueResult, type ChallengeExpectation, type ChallengeRecord, type CommunityRecord, type TournamentRecord, type DeliveryRecord, type GameExpectation, type GameRecord, type GameRematch, type ListGamesQuery, type PlayerExpectation, type PlayerRecord, type PlayerUpdate, type ProcessRecord, type RankOptions,
  type GameWrite, type GameWriteResult, type RatingPoint, type Store, type StoreHealth, type StoredAction, type SubscriptionRecord,
  type LogAppend, type LogEntryRecord, type LogNodeRecord, type LogStateRecord, type TreeHeadRecord,
} from "../port";
import { copy, decodeCursor, encodeCursor, matchesArguments, nowIso, pageSize } from "../shared";
import { ADDED_COLUMNS, ADDED_INDEXES, SCHEMA } from "./schema";
import { WalSync } from "./wal-sync";
import { Checkpointer } from "./checkpointer";
import { StoreCondition } from "./condition";
import { prepareStatements, type Statements } from "./statements";
import { SqliteBots } from "./bots";
import { SqliteLog } from "./log";
import { SqliteLeagues } from "./leagues";
import { gameRow, isPrimaryKeyViolation, parse, playerRow, RecordWrites } from "./record-writes";
import { Writer } from "./writer";
import type { SqliteRatings } from "./ratings";

export interface SqliteStoreOptions {
  /** File path, or ":memory:" for a private in-memory database. */
  path: string;
  /** NORMAL survives a process crash; FULL (the default) also survives power loss. */
  synchronous?: "NORMAL" | "FULL";
  /**
   * How often the checkpointer thread folds the WAL into the database file (file databases only; 1000 by
   * default). 0 runs no checkpoints at all: for a tool that checkpoints the database itself.
   */
  checkpointMs?: number;
  /** WAL pages past which a checkpoint also starts the WAL over (4096, 16 MiB, by default). */
  checkpointRestartFrames?: number;
  /** Told when a background checkpoint fails (the next one retries), for the log. */
  onState?: (state: string, err?: unknown) => void;
  /**
   * How long a write may wait, in all, for the write lock while something else holds it (the checkpointer
   * restarting the WAL, another process on the same file) before it fails; 5000 ms by default.
   */
  busyWaitMs?: number;
  /**
   * With FULL, the shortest time between two fsyncs of the WAL (0 by default): a write resolving sooner
   * after the last one waits and shares the next (wal-sync.ts).
   */
  syncIntervalMs?: number;
  /** With FULL, told the duration of each WAL fsync in seconds (wal-sync.ts). */
  onFsync?: (seconds: number) => void;
}

type DocRow = { doc: string };
type CommunityRow = { doc: string; members: string };

const parseAll = <T>(rows: DocRow[]): T[] => rows.map((r) => JSON.parse(r.doc) as T);
const community = (row: CommunityRow): CommunityRecord => ({ ...(JSON.parse(row.doc) as CommunityRecord), members: JSON.parse(row.members) as CommunityRecord["members"] });

const subscriptionRow = (s: SubscriptionRecord) =>
  ({ id: s.id, key: s.key, name: s.name, expiresAt: s.expiresAt, doc: JSON.stringify(s) });
const deliveryRow = (d: DeliveryRecord) =>
  ({ eventId: d.eventId, leaseUntil: d.leaseUntil, createdAt: d.createdAt, doc: JSON.stringify(d) });
const challengeRow = (c: ChallengeRecord) =>
  ({ token: c.token, agentName: c.agent.name, createdAt: c.createdAt, doc: JSON.stringify(c) });

/** SQLITE_BUSY and its extended codes: the lock is held elsewhere, nothing was written. */
const isBusy = (e: unknown): boolean => (e as { code?: string } | null)?.code?.startsWith("SQLITE_BUSY") === true;

export class SqliteStore implements Store {
  private readonly db: Database.Database;
  private s: Statements | null = null;
  private bots: SqliteBots | null = null;
  private logTables: SqliteLog | null = null;
  private leagues: SqliteLeagues | null = null;
  private ratings: SqliteRatings | null = null;
  private readonly walSync: WalSync | null;
  private checkpointer: Checkpointer | null = null;
  private readonly options: SqliteStoreOptions;
  /** This connection's record writes (record-writes.ts); made by init with the statements. */
  private w: RecordWrites | null = null;
  /** A file database's writer thread, which commits the game writes (commitGames); null in memory. */
  private writer: Writer | null = null;
  /** Its files and its writes' failures: a write into deleted files is refused, /healthz reports them. */
  private readonly condition = new StoreCondition();

  constructor(options: SqliteStoreOptions) {
    if (options.path !== ":memory:") mkdirSync(dirname(options.path), { recursive: true });
    this.db = new Database(options.path);
    this.db.pragma("journal_mode = WAL");
    // FULL is kept off the event loop: NORMAL commits plus an fdatasync of the WAL on the thread pool (WalSync).
    this.db.pragma("synchronous = NORMAL");
    const file = options.path !== ":memory:" && options.path !== "";
    this.walSync = file && (options.synchronous ?? "FULL") === "FULL" ? new WalSync(`${options.path}-wal`, { minIntervalMs: options.syncIntervalMs, onFsync: options.onFsync }) : null;
    // Opening may meet another process recovering the WAL: wait for it here. Once open (init), a held write
    // lock is waited for asynchronously instead (writeUnbusy), so that the wait never holds the event loop.
    this.db.pragma("busy_timeout = 5000");
    // Checkpoints run on the checkpointer thread (started by init), not inside a commit on the event loop.
    if (file) this.db.pragma("wal_autocheckpoint = 0");
    this.options = options;
  }

  /**
   * A webhook dispatcher's bookkeeping (delivery records, cursors, failure counts, the expiry sweep) resolves
   * at its commit, which survives a process crash, without waiting for the WAL fsync: the dispatcher awaits
   * these one event at a time, and a power loss costs at most a repeated or a forgotten last delivery (the
   * next fsync, of any write, covers them too).
   */
  private async bookkeeping<T>(write: () => T): Promise<T> {
    return this.writeUnbusy(write);
  }

  /** Runs a write (synchronous underneath) and resolves once it is as durable as `synchronous` promises. */
  private async durable<T>(write: () => T): Promise<T> {
    const result = await this.writeUnbusy(write);
    try {
      await this.walSync?.sync();
    } catch (e) {
      throw this.condition.failed(e);
    }
    return result;
  }

  /**
   * Runs a write (one statement or one transaction, so a refused attempt wrote nothing), retrying it after
   * a short asynchronous wait while the write lock is held elsewhere. SQLite's own busy handler would wait
   * inside the call, on the event loop: the checkpointer's WAL restart holds writers off while it syncs the
   * database file, and on a slow disk that held every room and request of the process for up to 75 ms
   * (measured in the room benchmark's capacity phase). Fails with the SQLITE_BUSY error after busyWaitMs.
   */
  private async writeUnbusy<T>(write: () => T): Promise<T> {
    this.condition.refuseIfLost();
    const started = Date.now();
    for (let delay = 1; ; delay = Math.min(delay * 2, 16)) {
      let result: T;
      try {
        result = write();
      } catch (e) {
        if (!isBusy(e) || Date.now() - started >= (this.options.busyWaitMs ?? 5000)) throw this.condition.failed(e);
        await delayFor(delay);
        continue;
      }
      // Stored, unless the files went away meanwhile: then into a file no restart opens, so not acknowledged.
      this.condition.refuseIfLost();
      this.condition.succeeded();
      return result;
    }
  }

  private get st(): Statements {
    if (!this.s) throw new Error("store not initialised: call init() first");
    return this.s;
  }
  private get writes(): RecordWrites {
    if (!this.w) throw new Error("store not initialised: call init() first");
    return this.w;
  }

  /** Adds the columns a store made by an earlier version lacks, filled from its documents, then their indexes. */
  private addColumns(): void {
    this.db.transaction(() => {
      for (const { table, column, fill } of ADDED_COLUMNS) {
        const columns = this.db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>;
        if (columns.some((c) => c.name === column)) continue;
        this.db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} TEXT; UPDATE ${table} SET ${column} = ${fill};`);
      }
      this.db.exec(ADDED_INDEXES);
    })();
  }

  async init(): Promise<void> {
    if (this.s) return;
    this.db.exec(SCHEMA);
    this.addColumns();
    this.s = prepareStatements(this.db);
    this.w = new RecordWrites(this.db, this.s);
    this.bots = new SqliteBots(this.db, (fn) => this.durable(fn));
    this.logTables = new SqliteLog(this.db, (fn) => this.durable(fn));
    this.leagues = new SqliteLeagues(this.db, (fn) => this.durable(fn));
    this.ratings = this.w.ratings;
    const { path, checkpointMs, checkpointRestartFrames, onState } = this.options;
    // The WAL exists from the first transaction on (the schema's) for as long as a connection is open.
    if (path !== ":memory:" && path !== "") this.condition.watch([path, `${path}-wal`]);
    // From here on a write meets a held lock at once (SQLITE_BUSY) and writeUnbusy waits for it.
    this.db.pragma("busy_timeout = 0");
    if (path !== ":memory:" && path !== "") {
      // A private in-memory database has no second connection: its game writes stay on this one.
      const { synchronous = "FULL", busyWaitMs = 5000, onFsync } = this.options;
      this.writer = new Writer({ path, synchronous, busyWaitMs, onFsync });
    }
    if (path !== ":memory:" && path !== "" && checkpointMs !== 0) {
      this.checkpointer = new Checkpointer(path, { intervalMs: checkpointMs, restartFrames: checkpointRestartFrames, onError: (message) => onState?.("checkpoint_failed", new Error(message)) });
    }
  }

  /** Resolves after the checkpointer's next checkpoint (file databases; at once in memory). */
  async checkpointed(): Promise<void> {
    await this.checkpointer?.next();
  }

  async close(): Promise<void> {
    // First: the game writes it was given are committed before the other connections close.
    await this.writer?.close();
    this.writer = null;
    await this.checkpointer?.close();
    this.checkpointer = null;
    await this.walSync?.close();
    if (this.db.open) this.db.close();
    this.s = null;
  }

  /** Healthy when the store can keep a write now (condition.ts): its files are in place and a write succeeds. */
  async health(): Promise<StoreHealth> {
    const stopped = this.writer?.stopped;
    if (stopped) return { ok: false, adapter: "sqlite", state: stopped };
    return this.condition.health(() => this.durable(() => this.st.probe.run(nowIso())));
  }

  async createGame(game: GameRecord, players: readonly PlayerRecord[] = []): Promise<void> {
    const insert = () => {
      for (const p of players) this.st.insertPlayer.run(playerRow(p));
      this.st.insertGame.run(gameRow(game));
    };
    return this.durable(players.length === 0 ? insert : () => this.writes.atomically(insert));
  }
  async createGames(games: GameRecord[]): Promise<void> {
    if (games.length === 0) return;
    // One transaction, so one commit and one fsync for the lot; a taken id rolls back every insert.
    const insertAll = this.db.transaction((rows: GameRecord[]) => {
      for (const g of rows) this.st.insertGame.run(gameRow(g));
    });
    return this.durable(() => insertAll(games));
  }
  async getGame(id: string): Promise<GameRecord | null> {
    return parse<GameRecord>(this.st.getGame.get(id) as DocRow | undefined);
  }
  async updateGame(id: string, patch: Partial<GameRecord>): Promise<void> {
    return this.durable(() => {
      this.writes.update<GameRecord>(this.st.getGame, id, patch, "id", this.writes.writeGame);
    });
  }
  async updateGameIf(id: string, expected: GameExpectation, patch: Partial<GameRecord>): Promise<boolean> {
    return this.durable(() => this.writes.patchGameIf(id, expected, patch));
  }
  async updateRematchIf(id: string, version: number | undefined, rematch: GameRematch): Promise<boolean> {
    return this.durable(() => this.st.updateRematchIf.run({ id, version: version ?? null, rematch: JSON.stringify(rematch), updatedAt: nowIso() }).changes > 0);
  }
  async findGameByCode(code: string): Promise<GameRecord | null> {
    return parse<GameRecord>(this.st.gameByCode.get({ code }) as DocRow | undefined);
  }
  async listGames(q: ListGamesQuery): Promise<{ games: GameRecord[]; nextCursor: string | null }> {
    const limit = pageSize(q.limit);
    // No cursor: start above every ISO timestamp, so one statement serves the first page and the rest.
    const after = q.cursor ? decodeCursor(q.cursor) : { createdAt: "\uffff", id: "" };
    const l = this.st.listGames;
    // A player's games are only listed publicly (public = 1): the one caller is the public profile.
    const stmt = q.playerId ? l.playerPublic : q.status ? (q.publicOnly ? l.statusPublic : l.status) : q.publicOnly ? l.public : l.all;
    const params: Record<string, unknown> = { ...after, status: q.status, limit: limit + 1, ...(q.playerId ? { playerId: q.playerId } : {}) };
    if (!q.status || q.playerId) delete params.status;
    const games = parseAll<GameRecord>(stmt.all(params) as DocRow[]);
    const more = games.length > limit;
    if (more) games.length = limit;
    const last = games[games.length - 1];
    return { games, nextCursor: more && last ? encodeCursor(last) : null };
  }
  async listUnfinishedGames(): Promise<GameRecord[]> {
    return parseAll<GameRecord>(this.st.unfinishedGames.all() as DocRow[]);
  }
  async listGamesWithStatus(status: "waiting" | "active", q: { createdBefore?: string; limit?: number } = {}): Promise<GameRecord[]> {
    const params = { status, before: q.createdBefore ?? "\uffff", limit: q.limit === undefined ? -1 : pageSize(q.limit) };
    return parseAll<GameRecord>(this.st.gamesWithStatus.all(params) as DocRow[]);
  }

  async appendAction(a: StoredAction): Promise<void> {
    return this.durable(() => {
      // A single autocommit INSERT: the commit happens before run() returns; durable() then waits for the fsync.
      try {
        this.st.insertAction.run({ gameId: a.gameId, index: a.index, at: a.at, action: JSON.stringify(a.action) });
      } catch (e) {
        if (isPrimaryKeyViolation(e)) throw new ActionConflictError(a.gameId, a.index);
        throw e;
      }
    });
  }
  async commitGames(writes: GameWrite[]): Promise<GameWriteResult[]> {
    if (!this.writer) return this.durable(() => this.writes.commitBatch(writes));
    // As writeUnbusy and durable do for this connection's writes, with the commit and its fsync on the thread.
    this.condition.refuseIfLost();
    let results: GameWriteResult[];
    try {
      results = await this.writer.commit(writes);
    } catch (e) {
      throw this.condition.failed(e);
    }
    this.condition.refuseIfLost();
    this.condition.succeeded();
    return results;
  }
  async listActions(gameId: string): Promise<StoredAction[]> {
    const rows = this.st.listActions.all(gameId) as { game_id: string; idx: number; at: string; action: string }[];
    return rows.map((r) => ({ gameId: r.game_id, index: r.idx, action: JSON.parse(r.action) as StoredAction["action"], at: r.at }));
  }

  // ---- the public game log (./log.ts) ----
  private get log(): SqliteLog {
    if (!this.logTables) throw new Error("store not initialised");
    return this.logTables;
  }
  logState(): Promise<LogStateRecord> { return this.log.state(); }
  claimLogLease(holder: string, now: string, until: string): Promise<LogStateRecord | null> { return this.log.claim(holder, now, until); }
  appendLog(batch: LogAppend): Promise<boolean> { return this.log.appendBatch(batch); }
  logNodes(refs: readonly { level: number; index: number }[]): Promise<LogNodeRecord[]> { return this.log.nodes(refs); }
  logEntries(from: number, to: number): Promise<LogEntryRecord[]> { return this.log.entries(from, to); }
  logEntriesFinished(start: string, end: string, after: { finishedAt: string; index: number } | null, limit: number): Promise<LogEntryRecord[]> { return this.log.entriesFinished(start, end, after, limit); }
  logEntryOfGame(gameId: string): Promise<LogEntryRecord | null> { return this.log.entryOfGame(gameId); }
  logIndexOfGame(gameId: string): Promise<number | null> { return this.log.indexOfGame(gameId); }
  logHead(size: number): Promise<TreeHeadRecord | null> { return this.log.head(size); }
  addLogPending(gameIds: readonly string[]): Promise<void> { return this.log.addPending(gameIds); }
  logPending(limit: number): Promise<string[]> { return this.log.pending(limit); }
  dropLogPending(gameIds: readonly string[]): Promise<void> { return this.log.dropPending(gameIds); }
  unloggedGames(cursor: string | null, limit: number): Promise<{ gameIds: string[]; next: string | null }> { return this.log.unlogged(cursor, limit); }
  ensureLogKey(pem: string): Promise<string> { return this.log.ensureKey(pem); }

  // ---- bots (./bots.ts) ----
  private get bot(): SqliteBots {
    if (!this.bots) throw new Error("store not initialised");
    return this.bots;
  }
  createBot(b: BotRecord): Promise<void> { return this.bot.create(b); }
  getBot(id: string): Promise<BotRecord | null> { return this.bot.get(id); }
  findBotByKey(keyHash: string): Promise<BotRecord | null> { return this.bot.findByKey(keyHash); }
  updateBot(id: string, patch: Partial<Omit<BotRecord, "id">>): Promise<void> { return this.bot.patch(id, patch); }
  listBots(limit: number, offset: number): Promise<BotRecord[]> { return this.bot.list(limit, offset); }

  // ---- rating history (./ratings.ts) ----
  private get rating(): SqliteRatings {
    if (!this.ratings) throw new Error("store not initialised");
    return this.ratings;
  }
  ratingHistory(playerId: string, after: number, limit: number): Promise<RatingPoint[]> { return this.rating.history(playerId, after, limit); }
  ratingChanges(gameId: string, playerIds: readonly string[]): Promise<{ after: RatingPoint; before: RatingPoint | null }[]> { return this.rating.changes(gameId, playerIds); }

  // ---- leagues (./leagues.ts) ----
  private get league(): SqliteLeagues {
    if (!this.leagues) throw new Error("store not initialised");
    return this.leagues;
  }
  createLeague(l: LeagueRecord): Promise<void> { return this.league.create(l); }
  getLeague(id: string): Promise<LeagueRecord | null> { return this.league.get(id); }
  listLeagues(limit: number): Promise<LeagueRecord[]> { return this.league.list(limit); }
  replaceLeagueIf(l: LeagueRecord): Promise<boolean> { return this.league.replaceIf(l); }
  putLeagueSchedule(leagueId: string, schedule: LeagueDeal[]): Promise<LeagueDeal[]> { return this.league.putSchedule(leagueId, schedule); }
  getLeagueSchedule(leagueId: string): Promise<LeagueDeal[] | null> { return this.league.getSchedule(leagueId); }
  addLeagueResult(r: LeagueResult): Promise<boolean> { return this.league.addResult(r); }
  listLeagueResults(leagueId: string, deals?: readonly number[]): Promise<LeagueResult[]> { return this.league.resultsOf(leagueId, deals); }

  async createPlayer(p: PlayerRecord): Promise<void> {
    return this.durable(() => {
      this.st.insertPlayer.run(playerRow(p));
    });
  }
  async getPlayer(id: string): Promise<PlayerRecord | null> {
    return parse<PlayerRecord>(this.st.getPlayer.get(id) as DocRow | undefined);
  }
  async updatePlayer(id: string, patch: Partial<PlayerRecord>): Promise<void> {
    return this.durable(() => {
      this.writes.update<PlayerRecord>(this.st.getPlayer, id, patch, "id", this.writes.writePlayer);
    });
  }
  async updatePlayerIf(id: string, expected: PlayerExpectation, patch: Partial<PlayerRecord>): Promise<boolean> {
    return this.durable(() => this.writes.update<PlayerRecord>(this.st.getPlayer, id, patch, "id", this.writes.writePlayer, expected));
  }
  async updatePlayersIf(updates: readonly PlayerUpdate[]): Promise<boolean[]> {
    return this.durable(() => this.writes.atomically(() =>
      updates.map((u) => this.writes.updateInTransaction<PlayerRecord>(this.st.getPlayer, u.id, u.patch, "id", this.writes.writePlayer, u.expected))));
  }
  async rankPlayers(ids: string[] | undefined, limit: number, offset: number, options: RankOptions = {}): Promise<PlayerRecord[]> {
    const page = { limit: pageSize(limit), offset: pageSize(offset) };
    const [all, among] = options.listed ? [this.st.rankListed, this.st.rankListedAmong] : [this.st.rankAll, this.st.rankAmong];
    const rows = ids === undefined ? all.all(page) : among.all({ ...page, ids: JSON.stringify(ids) });
    return parseAll<PlayerRecord>(rows as DocRow[]);
  }

  async upsertSubscription(s: SubscriptionRecord): Promise<SubscriptionRecord> {
    return this.durable(() => {
      return this.writes.atomically((): SubscriptionRecord => {
        const existing = parse<SubscriptionRecord>(this.st.subscriptionByKey.get(s.key) as DocRow | undefined);
        if (!existing) {
          const created = copy(s);
          this.st.insertSubscription.run(subscriptionRow(created));
          return created;
        }
        // Same key = same subscription: it keeps its id and creation time, everything else is replaced.
        const replaced = copy({ ...s, id: existing.id, createdAt: existing.createdAt });
        this.st.updateSubscription.run(subscriptionRow(replaced));
        return replaced;
      });
    });
  }
  async getSubscriptionByKey(key: string): Promise<SubscriptionRecord | null> {
    return parse<SubscriptionRecord>(this.st.subscriptionByKey.get(key) as DocRow | undefined);
  }
  async deleteSubscriptionByKey(key: string): Promise<boolean> {
    return this.durable(() => {
      return this.st.deleteSubscriptionByKey.run(key).changes > 0;
    });
  }
  async deleteSubscription(id: string): Promise<void> {
    return this.durable(() => {
      this.st.deleteSubscription.run(id);
    });
  }
  async updateSubscription(id: string, patch: Partial<SubscriptionRecord>): Promise<void> {
    return this.bookkeeping(() => {
      this.writes.update<SubscriptionRecord>(this.st.subscriptionById, id, patch, "id", (s) =>
        this.st.updateSubscription.run(subscriptionRow(s)));
    });
  }
  async findSubscriptions(name: string, match: Record<string, unknown>, now: string): Promise<SubscriptionRecord[]> {
    const live = parseAll<SubscriptionRecord>(this.st.liveSubscriptions.all(name, now) as DocRow[]);
    return live.filter((s) => matchesArguments(s.arguments, match));
  }
  async findGameSubscriptions(gameId: string): Promise<SubscriptionRecord[]> {
    return parseAll<SubscriptionRecord>(this.st.gameSubscriptions.all(gameId) as DocRow[]);
  }
  async deleteExpiredSubscriptions(now: string): Promise<number> {
    return this.bookkeeping(() => {
      return this.st.deleteExpired.run(now).changes;
    });
  }

  async saveDeliveries(d: DeliveryRecord[]): Promise<void> {
    return this.bookkeeping(() => {
      this.writes.atomically(() => {
        for (const row of d) this.st.saveDelivery.run(deliveryRow(row));
      });
    });
  }
  async deleteDeliveries(eventIds: string[]): Promise<void> {
    return this.bookkeeping(() => {
      this.writes.atomically(() => {
        for (const id of eventIds) this.st.deleteDelivery.run(id);
      });
    });
  }
  async claimDeliveries(expiredBy: string, leaseUntil: string, limit: number, holder?: string): Promise<DeliveryRecord[]> {
    return this.bookkeeping(() => {
      // One immediate transaction: another process sharing the file cannot read the same rows before the lease is set.
      return this.writes.atomically((): DeliveryRecord[] => {
        const claimed = parseAll<DeliveryRecord>(this.st.expiredDeliveries.all(expiredBy, pageSize(limit)) as DocRow[])
          .map((d) => ({ ...d, leaseUntil, ...(holder ? { holder } : {}) }));
        for (const d of claimed) this.st.saveDelivery.run(deliveryRow(d));
        return claimed;
      });
    });
  }

  async registerProcess(p: ProcessRecord): Promise<void> {
    await this.writeUnbusy(() => this.st.saveProcess.run({ id: p.id, heartbeatAt: p.heartbeatAt, doc: JSON.stringify(p) }));
  }
  async touchProcess(id: string, heartbeatAt: string): Promise<boolean> {
    return this.writeUnbusy(() => this.st.touchProcess.run({ id, heartbeatAt }).changes > 0);
  }
  async listProcesses(): Promise<ProcessRecord[]> {
    return parseAll<ProcessRecord>(this.st.listProcesses.all() as DocRow[]);
  }
  async removeProcessIf(id: string, heartbeatAt: string): Promise<boolean> {
    return this.writeUnbusy(() => this.st.removeProcessIf.run(id, heartbeatAt).changes > 0);
  }

  async expireDeliveriesOf(holder: string, now: string): Promise<number> {
    return this.writeUnbusy(() => this.st.expireDeliveriesOf.run({ holder, now }).changes);
  }

  async markUrlVerified(url: string, at: string): Promise<void> {
    return this.durable(() => {
      this.st.markUrl.run(url, at);
    });
  }
  async urlVerifiedAt(url: string): Promise<string | null> {
    return (this.st.urlAt.get(url) as { at: string } | undefined)?.at ?? null;
  }

  async createChallenge(c: ChallengeRecord): Promise<void> {
    return this.durable(() => {
      this.st.insertChallenge.run(challengeRow(c));
    });
  }
  async getChallenge(token: string): Promise<ChallengeRecord | null> {
    return parse<ChallengeRecord>(this.st.getChallenge.get(token) as DocRow | undefined);
  }
  async updateChallenge(token: string, patch: Partial<ChallengeRecord>): Promise<void> {
    return this.durable(() => {
      this.writes.update<ChallengeRecord>(this.st.getChallenge, token, patch, "token", (c) => this.st.updateChallenge.run(challengeRow(c)));
    });
  }
  async updateChallengeIf(token: string, expected: ChallengeExpectation, patch: Partial<ChallengeRecord>): Promise<boolean> {
    return this.durable(() => {
      return this.writes.update<ChallengeRecord>(this.st.getChallenge, token, patch, "token", (c) => this.st.updateChallenge.run(challengeRow(c)), expected);
    });
  }
  async listChallenges(agentName: string, limit: number): Promise<ChallengeRecord[]> {
    return parseAll<ChallengeRecord>(this.st.listChallenges.all(agentName, pageSize(limit)) as DocRow[]);
  }

  async createTournament(t: TournamentRecord): Promise<void> {
    return this.durable(() => {
      this.st.insertTournament.run({ id: t.id, createdAt: t.createdAt, version: t.version, doc: JSON.stringify(t) });
    });
  }
  async getTournament(id: string): Promise<TournamentRecord | null> {
    const row = this.st.getTournament.get(id) as DocRow | undefined;
    return row ? (JSON.parse(row.doc) as TournamentRecord) : null;
  }
  async listTournaments(limit: number): Promise<TournamentRecord[]> {
    return parseAll<TournamentRecord>(this.st.listTournaments.all(pageSize(limit)) as DocRow[]);
  }
  async replaceTournamentIf(t: TournamentRecord): Promise<boolean> {
    return this.durable(() => this.st.replaceTournament.run({ id: t.id, version: t.version, doc: JSON.stringify(t) }).changes === 1);
  }

  async createCommunity(c: CommunityRecord): Promise<void> {
    return this.durable(() => {
      this.writes.atomically(() => {
        const { members, ...rest } = c;
        this.st.insertCommunity.run({ id: c.id, kind: c.kind, createdAt: c.createdAt, doc: JSON.stringify(rest) });
        for (const playerId of members) this.st.addMember.run({ id: c.id, playerId });
      });
    });
  }
  async getCommunity(id: string): Promise<CommunityRecord | null> {
    const row = this.st.getCommunity.get(id) as CommunityRow | undefined;
    return row ? community(row) : null;
  }
  async listCommunities(kind?: CommunityRecord["kind"]): Promise<CommunityRecord[]> {
    const rows = kind ? this.st.listCommunitiesOfKind.all(kind) : this.st.listCommunities.all();
    return (rows as CommunityRow[]).map(community);
  }
  async addMember(id: string, playerId: string): Promise<void> {
    return this.durable(() => {
      this.st.addMember.run({ id, playerId });
    });
  }
  async removeMember(id: string, playerId: string): Promise<void> {
    return this.durable(() => {
      this.st.removeMember.run(id, playerId);
    });
  }
  async communitiesOf(playerId: string): Promise<CommunityRecord[]> {
    return (this.st.communitiesOf.all(playerId) as CommunityRow[]).map(community);
  }
}
