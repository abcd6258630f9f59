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
 *
 * This class holds the connection, its durability and its threads, and composes the tables: each table (or a
 * table with those that belong to it, such as a game's actions) has a class of its own in its own file, which
 * creates its schema and prepares its statements, and is handed the store's ways of writing (durable,
 * bookkeeping, writeUnbusy). The games, actions and players tables, which the writer thread writes too, share
 * their schema (schema.ts) and writing statements (statements.ts, record-writes.ts) with it.
 */
import Database from "better-sqlite3";
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";
import { setTimeout as delayFor } from "node:timers/promises";
import type {
  BotRecord,
  LeagueRecord,
  LeagueDeal,
  LeagueResult,
  ChallengeExpectation,
  ChallengeRecord,
  CommunityRecord,
  TournamentRecord,
  DeliveryRecord,
  GameExpectation,
  GameRecord,
  GameRematch,
  ListGamesQuery,
  PlayerExpectation,
  PlayerRecord,
  PlayerUpdate,
  ProcessRecord,
  RankOptions,
  GameWrite,
  GameWriteResult,
  RatingPoint,
  Store,
  StoreHealth,
  StoredAction,
  SubscriptionRecord,
  LogAppend,
  LogEntryRecord,
  LogNodeRecord,
  LogPublicKeyRecord,
  LogStateRecord,
} from "../port";
import { nowIso } from "../shared";
import { ADDED_COLUMNS, ADDED_INDEXES, SCHEMA } from "./schema";
import { WalSync } from "./wal-sync";
import { Checkpointer } from "./checkpointer";
import { StoreCondition } from "./condition";
import { prepareStatements, type Statements } from "./statements";
import { SqliteBots } from "./bots";
import { SqliteChallenges } from "./challenges";
import { SqliteCommunities } from "./communities";
import { SqliteDeliveries } from "./deliveries";
import { SqliteGames } from "./games";
import { SqlitePlayers } from "./players";
import { SqliteProcesses } from "./processes";
import { SqliteSubscriptions } from "./subscriptions";
import { SqliteTournaments } from "./tournaments";
import { SqliteVerifiedUrls } from "./verified-urls";
import { SqliteLog } from "./log";
import { SqliteLeagues } from "./leagues";
import { RecordWrites } from "./record-writes";
import { Writer, type WriterStats } from "./writer";
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

/** SQLITE_BUSY and its extended codes: the lock is held elsewhere, nothing was written. */
const isBusy = (e: unknown): boolean => (e as { code?: string } | null)?.code?.startsWith("SQLITE_BUSY") === true;

/**
 * The store's tables, each behind its class, and what the game and player writes share: their statements and
 * this connection's record writes (record-writes.ts).
 */
interface Tables {
  st: Statements;
  writes: RecordWrites;
  games: SqliteGames;
  players: SqlitePlayers;
  ratings: SqliteRatings;
  subscriptions: SqliteSubscriptions;
  deliveries: SqliteDeliveries;
  verifiedUrls: SqliteVerifiedUrls;
  processes: SqliteProcesses;
  challenges: SqliteChallenges;
  communities: SqliteCommunities;
  bots: SqliteBots;
  tournaments: SqliteTournaments;
  leagues: SqliteLeagues;
  log: SqliteLog;
}

export class SqliteStore implements Store {
  private readonly db: Database.Database;
  /** The tables' classes, one per table (or per table and the tables beside it); made by init. */
  private t: Tables | null = null;
  private readonly walSync: WalSync | null;
  private checkpointer: Checkpointer | null = null;
  private readonly options: SqliteStoreOptions;
  /** A file database's writer thread, which commits the game writes (commitGames); null in memory. */
  private writer: Writer | null = null;
  /** Its files and its writes' failures: a write into deleted files is refused, /healthz reports them. */
  private readonly condition = new StoreCondition();

  constructor(options: SqliteStoreOptions) {
    if (options.path !== ":memory:" && options.path !== "") ownerOnly(options.path);
    this.db = new Database(options.path);
    this.db.pragma("journal_mode = WAL");
    // FULL is kept off the event loop: NORMAL commits plus an fdatasync of the WAL on the thread pool (WalSync).
    this.db.pragma("synchronous = NORMAL");
    const file = options.path !== ":memory:" && options.path !== "";
    this.walSync =
      file && (options.synchronous ?? "FULL") === "FULL"
        ? new WalSync(`${options.path}-wal`, { minIntervalMs: options.syncIntervalMs, onFsync: options.onFsync })
        : null;
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

  private get tables(): Tables {
    if (!this.t) throw new Error("store not initialised: call init() first");
    return this.t;
  }

  async init(): Promise<void> {
    if (this.t) return;
    this.db.exec(SCHEMA);
    this.addColumns();
    const st = prepareStatements(this.db);
    const durable = <T>(fn: () => T) => this.durable(fn);
    // The log's tables before the record writes: a game's finish write marks it pending in the log's table.
    const log = new SqliteLog(this.db, durable);
    const writes = new RecordWrites(this.db, st);
    const committed = <T>(fn: () => T) => this.writeUnbusy(fn);
    this.t = {
      st,
      writes,
      games: new SqliteGames(this.db, st, writes, durable, (batch) => this.commitBatch(batch)),
      players: new SqlitePlayers(this.db, st, writes, durable),
      ratings: writes.ratings,
      subscriptions: new SqliteSubscriptions(this.db, writes, durable, (fn) => this.bookkeeping(fn)),
      deliveries: new SqliteDeliveries(this.db, writes, (fn) => this.bookkeeping(fn)),
      verifiedUrls: new SqliteVerifiedUrls(this.db, durable),
      processes: new SqliteProcesses(this.db, committed),
      challenges: new SqliteChallenges(this.db, writes, durable),
      communities: new SqliteCommunities(this.db, writes, durable),
      bots: new SqliteBots(this.db, durable),
      tournaments: new SqliteTournaments(this.db, durable),
      leagues: new SqliteLeagues(this.db, durable),
      log,
    };
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
      this.checkpointer = new Checkpointer(path, {
        intervalMs: checkpointMs,
        restartFrames: checkpointRestartFrames,
        onError: (message) => onState?.("checkpoint_failed", new Error(message)),
      });
    }
  }

  /** The writer thread's batches and the game writes they carried, since start (null in memory: no thread). */
  writerStats(): WriterStats | null {
    return this.writer?.stats() ?? null;
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
    this.t = null;
  }

  /** Healthy when the store can keep a write now (condition.ts): its files are in place and a write succeeds. */
  async health(): Promise<StoreHealth> {
    const stopped = this.writer?.stopped;
    if (stopped) return { ok: false, adapter: "sqlite", state: stopped };
    return this.condition.health(() => this.durable(() => this.tables.st.probe.run(nowIso())));
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

  /** A group commit's batch: on the writer thread for a file database, on this connection in memory. */
  private async commitBatch(writes: GameWrite[]): Promise<GameWriteResult[]> {
    if (!this.writer) return this.durable(() => this.tables.writes.commitBatch(writes));
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

  // ---- games and actions (./games.ts) ----
  async createGame(game: GameRecord, players?: readonly PlayerRecord[]): Promise<void> {
    return this.tables.games.create(game, players);
  }
  async createGames(games: GameRecord[]): Promise<void> {
    return this.tables.games.createAll(games);
  }
  async getGame(id: string): Promise<GameRecord | null> {
    return this.tables.games.get(id);
  }
  async updateGameIf(id: string, expected: GameExpectation, patch: Partial<GameRecord>): Promise<boolean> {
    return this.tables.games.patchIf(id, expected, patch);
  }
  async updateRematchIf(id: string, version: number | undefined, rematch: GameRematch): Promise<boolean> {
    return this.tables.games.rematchIfAt(id, version, rematch);
  }
  async findGameByCode(code: string): Promise<GameRecord | null> {
    return this.tables.games.findByCode(code);
  }
  async listGames(q: ListGamesQuery): Promise<{ games: GameRecord[]; nextCursor: string | null }> {
    return this.tables.games.list(q);
  }
  async listUnfinishedGames(): Promise<GameRecord[]> {
    return this.tables.games.listUnfinished();
  }
  async listGamesWithStatus(status: "waiting" | "active", q?: { createdBefore?: string; limit?: number }): Promise<GameRecord[]> {
    return this.tables.games.listWithStatus(status, q);
  }
  async commitGames(writes: GameWrite[]): Promise<GameWriteResult[]> {
    return this.tables.games.commitAll(writes);
  }
  async listActions(gameId: string): Promise<StoredAction[]> {
    return this.tables.games.listActions(gameId);
  }

  // ---- players (./players.ts) and their rating history (./ratings.ts) ----
  async createPlayer(p: PlayerRecord): Promise<void> {
    return this.tables.players.create(p);
  }
  async getPlayer(id: string): Promise<PlayerRecord | null> {
    return this.tables.players.get(id);
  }
  async updatePlayer(id: string, patch: Partial<PlayerRecord>): Promise<void> {
    await this.tables.players.patch(id, patch);
  }
  async updatePlayerIf(id: string, expected: PlayerExpectation, patch: Partial<PlayerRecord>): Promise<boolean> {
    return this.tables.players.patch(id, patch, expected);
  }
  async updatePlayersIf(updates: readonly PlayerUpdate[]): Promise<boolean[]> {
    return this.tables.players.patchAll(updates);
  }
  async rankPlayers(ids: string[] | undefined, limit: number, offset: number, options?: RankOptions): Promise<PlayerRecord[]> {
    return this.tables.players.rank(ids, limit, offset, options);
  }
  async ratingHistory(playerId: string, after: number, limit: number): Promise<RatingPoint[]> {
    return this.tables.ratings.history(playerId, after, limit);
  }
  async ratingChanges(gameId: string, playerIds: readonly string[]): Promise<{ after: RatingPoint; before: RatingPoint | null }[]> {
    return this.tables.ratings.changes(gameId, playerIds);
  }

  // ---- webhooks: subscriptions (./subscriptions.ts), deliveries (./deliveries.ts), verified urls (./verified-urls.ts) ----
  async upsertSubscription(s: SubscriptionRecord): Promise<SubscriptionRecord> {
    return this.tables.subscriptions.upsert(s);
  }
  async getSubscriptionByKey(key: string): Promise<SubscriptionRecord | null> {
    return this.tables.subscriptions.getByKey(key);
  }
  async deleteSubscriptionByKey(key: string): Promise<boolean> {
    return this.tables.subscriptions.removeByKey(key);
  }
  async deleteSubscription(id: string): Promise<void> {
    return this.tables.subscriptions.remove(id);
  }
  async updateSubscription(id: string, patch: Partial<SubscriptionRecord>): Promise<void> {
    return this.tables.subscriptions.patch(id, patch);
  }
  async findSubscriptions(name: string, match: Record<string, unknown>, now: string): Promise<SubscriptionRecord[]> {
    return this.tables.subscriptions.find(name, match, now);
  }
  async findGameSubscriptions(gameId: string): Promise<SubscriptionRecord[]> {
    return this.tables.subscriptions.ofGameId(gameId);
  }
  async deleteExpiredSubscriptions(now: string): Promise<number> {
    return this.tables.subscriptions.removeExpired(now);
  }
  async saveDeliveries(d: DeliveryRecord[]): Promise<void> {
    return this.tables.deliveries.saveAll(d);
  }
  async deleteDeliveries(eventIds: string[]): Promise<void> {
    return this.tables.deliveries.removeAll(eventIds);
  }
  async claimDeliveries(expiredBy: string, leaseUntil: string, limit: number, holder?: string): Promise<DeliveryRecord[]> {
    return this.tables.deliveries.claim(expiredBy, leaseUntil, limit, holder);
  }
  async expireDeliveriesOf(holder: string, now: string): Promise<number> {
    return this.tables.deliveries.expireOfHolder(holder, now);
  }
  async markUrlVerified(url: string, at: string): Promise<void> {
    return this.tables.verifiedUrls.markVerified(url, at);
  }
  async urlVerifiedAt(url: string): Promise<string | null> {
    return this.tables.verifiedUrls.verifiedAt(url);
  }

  // ---- processes (./processes.ts) ----
  async registerProcess(p: ProcessRecord): Promise<void> {
    return this.tables.processes.register(p);
  }
  async touchProcess(id: string, heartbeatAt: string): Promise<boolean> {
    return this.tables.processes.renew(id, heartbeatAt);
  }
  async listProcesses(): Promise<ProcessRecord[]> {
    return this.tables.processes.list();
  }
  async removeProcessIf(id: string, heartbeatAt: string): Promise<boolean> {
    return this.tables.processes.remove(id, heartbeatAt);
  }

  // ---- challenges (./challenges.ts) ----
  async createChallenge(c: ChallengeRecord): Promise<void> {
    return this.tables.challenges.create(c);
  }
  async getChallenge(token: string): Promise<ChallengeRecord | null> {
    return this.tables.challenges.get(token);
  }
  async updateChallenge(token: string, patch: Partial<ChallengeRecord>): Promise<void> {
    await this.tables.challenges.patch(token, patch);
  }
  async updateChallengeIf(token: string, expected: ChallengeExpectation, patch: Partial<ChallengeRecord>): Promise<boolean> {
    return this.tables.challenges.patch(token, patch, expected);
  }
  async listChallenges(agentName: string, limit: number): Promise<ChallengeRecord[]> {
    return this.tables.challenges.list(agentName, limit);
  }

  // ---- communities (./communities.ts) ----
  async createCommunity(c: CommunityRecord): Promise<void> {
    return this.tables.communities.create(c);
  }
  async getCommunity(id: string): Promise<CommunityRecord | null> {
    return this.tables.communities.get(id);
  }
  async listCommunities(kind?: CommunityRecord["kind"]): Promise<CommunityRecord[]> {
    return this.tables.communities.list(kind);
  }
  async addMember(id: string, playerId: string): Promise<void> {
    return this.tables.communities.add(id, playerId);
  }
  async removeMember(id: string, playerId: string): Promise<void> {
    return this.tables.communities.remove(id, playerId);
  }
  async communitiesOf(playerId: string): Promise<CommunityRecord[]> {
    return this.tables.communities.of(playerId);
  }

  // ---- bots (./bots.ts) ----
  async createBot(b: BotRecord): Promise<void> {
    return this.tables.bots.create(b);
  }
  async getBot(id: string): Promise<BotRecord | null> {
    return this.tables.bots.get(id);
  }
  async findBotByKey(keyHash: string): Promise<BotRecord | null> {
    return this.tables.bots.findByKey(keyHash);
  }
  async updateBot(id: string, patch: Partial<Omit<BotRecord, "id">>): Promise<void> {
    return this.tables.bots.patch(id, patch);
  }
  async listBots(limit: number, offset: number): Promise<BotRecord[]> {
    return this.tables.bots.list(limit, offset);
  }

  // ---- tournaments (./tournaments.ts) ----
  async createTournament(t: TournamentRecord): Promise<void> {
    return this.tables.tournaments.create(t);
  }
  async getTournament(id: string): Promise<TournamentRecord | null> {
    return this.tables.tournaments.get(id);
  }
  async listTournaments(limit: number): Promise<TournamentRecord[]> {
    return this.tables.tournaments.list(limit);
  }
  async replaceTournamentIf(t: TournamentRecord): Promise<boolean> {
    return this.tables.tournaments.replaceIf(t);
  }

  // ---- leagues (./leagues.ts) ----
  async createLeague(l: LeagueRecord): Promise<void> {
    return this.tables.leagues.create(l);
  }
  async getLeague(id: string): Promise<LeagueRecord | null> {
    return this.tables.leagues.get(id);
  }
  async listLeagues(limit: number): Promise<LeagueRecord[]> {
    return this.tables.leagues.list(limit);
  }
  async replaceLeagueIf(l: LeagueRecord): Promise<boolean> {
    return this.tables.leagues.replaceIf(l);
  }
  async putLeagueSchedule(leagueId: string, schedule: LeagueDeal[]): Promise<LeagueDeal[]> {
    return this.tables.leagues.putSchedule(leagueId, schedule);
  }
  async getLeagueSchedule(leagueId: string): Promise<LeagueDeal[] | null> {
    return this.tables.leagues.getSchedule(leagueId);
  }
  async addLeagueResult(r: LeagueResult): Promise<boolean> {
    return this.tables.leagues.addResult(r);
  }
  async listLeagueResults(leagueId: string, deals?: readonly number[]): Promise<LeagueResult[]> {
    return this.tables.leagues.resultsOf(leagueId, deals);
  }

  // ---- the public game log (./log.ts) ----
  async logState(): Promise<LogStateRecord> {
    return this.tables.log.state();
  }
  async claimLogLease(holder: string, now: string, until: string): Promise<LogStateRecord | null> {
    return this.tables.log.claim(holder, now, until);
  }
  async appendLog(batch: LogAppend): Promise<boolean> {
    return this.tables.log.appendBatch(batch);
  }
  async logNodes(refs: readonly { level: number; index: number }[]): Promise<LogNodeRecord[]> {
    return this.tables.log.nodes(refs);
  }
  async logEntries(from: number, to: number): Promise<LogEntryRecord[]> {
    return this.tables.log.entries(from, to);
  }
  async logEntriesFinished(start: string, end: string, after: { finishedAt: string; index: number } | null, limit: number): Promise<LogEntryRecord[]> {
    return this.tables.log.entriesFinished(start, end, after, limit);
  }
  async logEntryOfGame(gameId: string): Promise<LogEntryRecord | null> {
    return this.tables.log.entryOfGame(gameId);
  }
  async logIndexOfGame(gameId: string): Promise<number | null> {
    return this.tables.log.indexOfGame(gameId);
  }
  async addLogPending(gameIds: readonly string[]): Promise<void> {
    return this.tables.log.addPending(gameIds);
  }
  async logPending(limit: number): Promise<string[]> {
    return this.tables.log.pending(limit);
  }
  async dropLogPending(gameIds: readonly string[]): Promise<void> {
    return this.tables.log.dropPending(gameIds);
  }
  async unloggedGames(cursor: string | null, limit: number): Promise<{ gameIds: string[]; next: string | null }> {
    return this.tables.log.unlogged(cursor, limit);
  }
  async logKeys(): Promise<LogPublicKeyRecord[]> {
    return this.tables.log.keys();
  }
  async addLogKey(key: LogPublicKeyRecord): Promise<void> {
    return this.tables.log.addKey(key);
  }
  async legacyLogKey(): Promise<string | null> {
    return this.tables.log.legacyKey();
  }
  async dropLegacyLogKey(): Promise<void> {
    return this.tables.log.dropLegacyKey();
  }
}

/**
 * The database's folder (made 0700) and files (0600) readable by the service's user only: they hold players'
 * tokens and records. The file is created here, before SQLite opens it, because SQLite makes its WAL and shared
 * memory files with the database file's mode; files an older version made readable to all are narrowed.
 */
function ownerOnly(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  closeSync(openSync(path, "a", 0o600));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, 0o600);
}
