/**
 * Power-loss durability without blocking the event loop. With synchronous=FULL, SQLite fsyncs the WAL inside
 * every commit, on the calling thread: better-sqlite3 is synchronous, so each fsync (milliseconds on many
 * disks) holds up every room and request of the process. Instead the connection runs with synchronous=NORMAL
 * (a commit writes its WAL frames to the OS, which survives a process crash) and a write resolves only after
 * an fdatasync of the WAL file has run on libuv's thread pool: the same guarantee as FULL (the frames of every
 * resolved commit are on stable storage; a checkpoint syncs the database file itself before the WAL is
 * reused), with the event loop free meanwhile and one fsync covering every commit made before it started.
 */
import { open, type FileHandle } from "node:fs/promises";
import { setTimeout as delayFor } from "node:timers/promises";

export interface WalSyncOptions {
  /**
   * The shortest time between the starts of two fsyncs, in milliseconds (0 by default). A sync asked for
   * sooner waits and shares the next fsync with every commit made meanwhile: an fsync costs CPU (several
   * hundred microseconds on the benchmark machine) whatever it covers.
   */
  minIntervalMs?: number;
  /**
   * Told how long each fsync took, in seconds: a write's wait for durability is at most two of them plus
   * the interval, so their tail is where a slow commit's time goes (the metrics and the room benchmark).
   */
  onFsync?: (seconds: number) => void;
}

export class WalSync {
  private handle: Promise<FileHandle | null> | null = null;
  /** The fsync under way, if any. */
  private running: Promise<void> | null = null;
  /** The fsync not started yet that a caller now may share: it starts after every commit made before it. */
  private upcoming: Promise<void> | null = null;
  /** When the last fsync started (performance.now()). */
  private lastStart = -Infinity;
  private closed = false;
  private readonly minIntervalMs: number;
  private readonly onFsync: ((seconds: number) => void) | undefined;
  private started = 0;

  constructor(
    private readonly walPath: string,
    options: WalSyncOptions = {},
  ) {
    this.minIntervalMs = options.minIntervalMs ?? 0;
    this.onFsync = options.onFsync;
  }

  /** Resolves once every commit made before the call is on stable storage. */
  sync(): Promise<void> {
    if (this.closed) return Promise.resolve();
    // An fsync under way may have started before the caller's commit: the caller shares the next one.
    this.upcoming ??= this.startNext();
    return this.upcoming;
  }

  /** How many fsyncs have been started. */
  get fsyncs(): number {
    return this.started;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.upcoming?.catch(() => undefined);
    await this.running?.catch(() => undefined);
    const h = await this.handle?.catch(() => null);
    await h?.close();
  }

  private async startNext(): Promise<void> {
    await this.running?.catch(() => undefined);
    const wait = this.lastStart + this.minIntervalMs - performance.now();
    if (wait > 0) await delayFor(wait);
    // From here on a caller's commit may come after this fsync has begun: it waits for the one after.
    this.upcoming = null;
    this.lastStart = performance.now();
    this.started++;
    const run = this.flush();
    this.running = run;
    try {
      await run;
    } finally {
      if (this.running === run) this.running = null;
    }
  }

  private async flush(): Promise<void> {
    // The WAL file exists from the first write on (and while the connection is open).
    this.handle ??= open(this.walPath, "r").catch(() => null);
    const h = await this.handle;
    if (!h) {
      this.handle = null;
      return;
    }
    const started = performance.now();
    await h.datasync();
    this.onFsync?.((performance.now() - started) / 1000);
  }
}
