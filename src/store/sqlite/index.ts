/**
 * Store adapter on better-sqlite3: the embedded default. Calls are synchronous underneath; the async
 * methods exist because the port is shared with networked adapters.
 *
 * Durability: the database runs in WAL mode. With synchronous=FULL (the default) a write resolves only once
 * the WAL is fsynced, so a resolved write survives power loss too; the fsync runs on the thread pool, not in
 * the commit (wal-sync.ts). Moves reach the store through a group commit (games.commitGames), which a file
 * database runs on its writer thread (writer.ts): one transaction and one fsync for every game write that
 * arrived while the previous batch was being committed, with no SQL of a move on the event loop.
 * synchronous=NORMAL resolves at the commit: it survives a process crash only.
 *
 * This class holds the connection, its durability and its threads, and composes the tables: each table (or a
 * table with those that belong to it, such as a game's actions) has a class of its own in its own file, which
 * implements that table's port, holds its schema and prepares its statements, and is handed the store's ways
 * of writing (durable, bookkeeping, writeUnbusy; the games' class also the writer thread). The schema is made
 * and brought forward by numbered migrations (migrations.ts), recorded in the file's user_version. The store
 * exposes each class as its port's member (store.games, store.players, ...), made by init. The games,
 * actions and players tables, which the writer thread writes too, share their schema (schema.ts) and writing
 * statements (statements.ts, record-writes.ts) with it.
 */
import Database from "better-sqlite3";
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";
import { setTimeout as delayFor } from "node:timers/promises";
import type { Store, StoreHealth } from "../port";
import { nowIso } from "../shared";
import { migrate } from "./migrations";
import { WalSync } from "./wal-sync";
import { Checkpointer } from "./checkpointer";
import { StoreCondition } from "./condition";
import { prepareStatements, type Statements } from "./statements";
import { SqliteBots } from "./bots";
import { SqliteChallenges } from "./challenges";
import { SqliteCommunities } from "./communities";
import { SqliteGames } from "./games";
import { SqlitePlayers } from "./players";
import { SqliteProcesses } from "./processes";
import { SqliteSubscriptions } from "./subscriptions";
import { SqliteTournaments } from "./tournaments";
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
   * With FULL, the shortest time between two fsyncs of the WAL (0 by default), on the main thread's connection
   * and on the writer thread's each: a write resolving sooner after the last one waits and shares the next
   * (wal-sync.ts, writer-thread.ts).
   */
  syncIntervalMs?: number;
  /** With FULL, told the duration of each WAL fsync in seconds (wal-sync.ts). */
  onFsync?: (seconds: number) => void;
}

/** SQLITE_BUSY and its extended codes: the lock is held elsewhere, nothing was written. */
const isBusy = (e: unknown): boolean => (e as { code?: string } | null)?.code?.startsWith("SQLITE_BUSY") === true;

/**
 * The store's tables, each behind the class that implements its port, and what the game and player writes
 * share: their statements and this connection's record writes (record-writes.ts).
 */
interface Tables {
  st: Statements;
  writes: RecordWrites;
  games: SqliteGames;
  players: SqlitePlayers;
  ratings: SqliteRatings;
  subscriptions: SqliteSubscriptions;
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
  /** A file database's writer thread, which commits the game writes (games.commitGames); null in memory. */
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
    // The schema first, brought to its last numbered step (migrations.ts): every table exists before a class
    // prepares its statements on it, and before the writer thread opens the file.
    migrate(this.db);
    const { path, checkpointMs, checkpointRestartFrames, onState } = this.options;
    const file = path !== ":memory:" && path !== "";
    if (file) {
      // A private in-memory database has no second connection: its game writes stay on this one.
      const { synchronous = "FULL", busyWaitMs = 5000, syncIntervalMs, onFsync } = this.options;
      this.writer = new Writer({ path, synchronous, busyWaitMs, syncIntervalMs, onFsync });
    }
    const st = prepareStatements(this.db);
    const durable = <T>(fn: () => T) => this.durable(fn);
    const committed = <T>(fn: () => T) => this.writeUnbusy(fn);
    const writes = new RecordWrites(this.db, st);
    this.t = {
      st,
      writes,
      games: new SqliteGames(this.db, st, writes, durable, this.writer, this.condition),
      players: new SqlitePlayers(this.db, st, writes, durable),
      ratings: writes.ratings,
      subscriptions: new SqliteSubscriptions(this.db, writes, durable, (fn) => this.bookkeeping(fn)),
      processes: new SqliteProcesses(this.db, committed),
      challenges: new SqliteChallenges(this.db, durable),
      communities: new SqliteCommunities(this.db, writes, durable),
      bots: new SqliteBots(this.db, durable),
      tournaments: new SqliteTournaments(this.db, durable),
      leagues: new SqliteLeagues(this.db, durable),
      log: new SqliteLog(this.db, durable),
    };
    // The WAL exists from the first transaction on (the schema's) for as long as a connection is open.
    if (file) this.condition.watch([path, `${path}-wal`]);
    // From here on a write meets a held lock at once (SQLITE_BUSY) and writeUnbusy waits for it.
    this.db.pragma("busy_timeout = 0");
    if (file && checkpointMs !== 0) {
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

  // ---- the ports: each a table's class (or a table's with those that belong to it), made by init ----
  get games(): SqliteGames {
    return this.tables.games;
  }
  get players(): SqlitePlayers {
    return this.tables.players;
  }
  get ratings(): SqliteRatings {
    return this.tables.ratings;
  }
  get subscriptions(): SqliteSubscriptions {
    return this.tables.subscriptions;
  }
  get processes(): SqliteProcesses {
    return this.tables.processes;
  }
  get challenges(): SqliteChallenges {
    return this.tables.challenges;
  }
  get communities(): SqliteCommunities {
    return this.tables.communities;
  }
  get bots(): SqliteBots {
    return this.tables.bots;
  }
  get tournaments(): SqliteTournaments {
    return this.tables.tournaments;
  }
  get leagues(): SqliteLeagues {
    return this.tables.leagues;
  }
  get log(): SqliteLog {
    return this.tables.log;
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
