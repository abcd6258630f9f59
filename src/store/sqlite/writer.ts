/**
 * The rooms' game writes off the event loop. better-sqlite3 is synchronous: a group commit's SQL (the
 * actions' inserts, the fenced patches, the transaction's WAL write) on the main thread would take a large
 * share of its time under load (13% in a profile of the room benchmark's capacity step). A file database
 * therefore commits the game writes (commitGames) on a writer thread with a connection of its own
 * (writer-thread.ts); reads and the rarer writes (set-ups, profiles, webhooks) stay on the main thread's
 * connection, which WAL lets read beside it.
 *
 * The guarantee is the one of the main thread's commit: a write's promise resolves only once its batch is
 * committed and, with FULL, the WAL fsynced; it rejects when the batch failed (nothing of it is stored);
 * the owner fence is a condition inside the batch's transaction. A thread that stops (an error, an exit
 * nobody asked for) is noticed: the writes it held are refused, every later one too, and `stopped` says why
 * (the store's health then reports it).
 */
import { join } from "node:path";
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";
import type { GameWrite, GameWriteResult } from "../port";
import type { NewGames } from "./record-writes";
import { StoreFailure } from "./condition";

export interface WriterOptions {
  path: string;
  /** FULL: each batch's commit is followed by an fdatasync of the WAL before it is answered. */
  synchronous: "NORMAL" | "FULL";
  /** How long the thread waits for the write lock held elsewhere (the checkpointer's restart, the main thread). */
  busyWaitMs: number;
  /**
   * With FULL, the shortest time between two of the thread's fsyncs (COMMIT_WINDOW_MS; 0: none). A request
   * that arrives sooner after the last one waits for the window's end and shares the next commit with every
   * request that arrived meanwhile (writer-thread.ts).
   */
  syncIntervalMs?: number;
  /** Told the duration of each WAL fsync in seconds. */
  onFsync?: (seconds: number) => void;
}

/** What the thread is started with (its port is the one requests and answers travel on). */
export interface WriterData {
  path: string;
  synchronous: "NORMAL" | "FULL";
  busyWaitMs: number;
  syncIntervalMs: number;
  port: MessagePort;
}
/** An error as it crosses the thread boundary: SQLite's code kept, so a refused constraint stays one. */
export interface WrittenError {
  message: string;
  code?: string;
}
export type WriterRequest = { type: "commit"; id: number; writes: GameWrite[] } | { type: "create"; id: number; create: NewGames } | { type: "stop" };
/**
 * A committed batch answers each request: a commit with its writes' results, new games with nothing once
 * stored, or with the constraint error that refused them alone (a taken id).
 */
export type WriterAnswer = { id: number; results: GameWriteResult[] } | { id: number; refused: WrittenError };
export type WriterReply =
  | { type: "unopened"; error: WrittenError }
  | { type: "committed"; answers: WriterAnswer[]; fsyncSeconds: number | null }
  | { type: "failed"; ids: number[]; error: WrittenError };

interface Waiting {
  resolve(results: GameWriteResult[]): void;
  reject(err: unknown): void;
  /** Its writes, for the stats. */
  writes: number;
}

/** Batches the thread committed or failed, and the writes they carried (writes per batch: how well it groups). */
export interface WriterStats {
  batches: number;
  writes: number;
}

/** Under tsx (tests, `npm run dev`) the thread loads its TypeScript through an entry that registers tsx. */
const THREAD = join(__dirname, __filename.endsWith(".ts") ? "writer-entry.cjs" : "writer-thread.js");

const toError = (e: WrittenError): Error => Object.assign(new Error(e.message), e.code ? { code: e.code } : {});

export class Writer {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 0;
  private closing = false;
  private failure: string | null = null;
  private readonly counts: WriterStats = { batches: 0, writes: 0 };
  private readonly exited: Promise<void>;

  /**
   * Starts the thread on a database file whose schema exists. Not waited for: requests queue on the port
   * until the thread listens (under tsx its start takes a few hundred milliseconds, compiled a few), and one
   * that cannot open the file refuses them and every later one.
   */
  constructor(private readonly options: WriterOptions) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    const data: WriterData = {
      path: options.path,
      synchronous: options.synchronous,
      busyWaitMs: options.busyWaitMs,
      syncIntervalMs: options.syncIntervalMs ?? 0,
      port: port2,
    };
    this.worker = new Worker(THREAD, { workerData: data, transferList: [port2] });
    // Idle, it must not keep a process alive that has nothing else to do; it is held while a write is in flight.
    this.worker.unref();
    this.port.unref();
    this.port.on("message", (m: WriterReply) => this.answer(m));
    this.worker.on("error", (err) => this.lost(`the writer thread failed: ${err.message}`));
    this.exited = new Promise((resolve) =>
      this.worker.once("exit", (code) => {
        // The thread's last answers may still be queued on the port: the exit event does not wait for the
        // port's message events. They are taken first, so a batch committed just before a stop is answered as
        // committed, not refused as lost.
        for (let m = receiveMessageOnPort(this.port); m; m = receiveMessageOnPort(this.port)) this.answer(m.message as WriterReply);
        this.lost(this.closing ? "the store is closed" : `the writer thread stopped (exit code ${code})`);
        resolve();
      }),
    );
  }

  /** One reply of the thread: its requests settled. */
  private answer(m: WriterReply): void {
    if (m.type === "unopened") this.lost(`the writer thread could not open the database: ${m.error.message}`);
    else if (m.type === "committed") {
      if (m.fsyncSeconds !== null) this.options.onFsync?.(m.fsyncSeconds);
      this.counts.batches++;
      for (const a of m.answers) {
        const w = this.settle(a.id);
        if ("refused" in a) w?.reject(toError(a.refused));
        else w?.resolve(a.results);
      }
    } else {
      const err = toError(m.error);
      this.counts.batches++;
      for (const id of m.ids) this.settle(id)?.reject(err);
    }
  }

  /** Why the thread no longer writes, once it stopped without being asked to; null while it runs. */
  get stopped(): string | null {
    return this.failure;
  }

  /** Commits `writes` in the thread's next batch; resolves once durable, rejects when the batch failed. */
  commit(writes: GameWrite[]): Promise<GameWriteResult[]> {
    return this.request(writes.length, (id) => ({ type: "commit", id, writes }));
  }

  /**
   * Stores new games (with their seats' new profiles) in the thread's next batch; resolves once durable,
   * rejects with SQLite's error when one of their ids is taken (nothing of them stored) or the batch failed.
   */
  async create(create: NewGames): Promise<void> {
    await this.request(0, (id) => ({ type: "create", id, create }));
  }

  private request(writes: number, make: (id: number) => WriterRequest): Promise<GameWriteResult[]> {
    if (this.failure) return Promise.reject(new StoreFailure(this.failure));
    if (this.closing) return Promise.reject(new StoreFailure("the store is closed"));
    const id = this.nextId++;
    const done = new Promise<GameWriteResult[]>((resolve, reject) => this.waiting.set(id, { resolve, reject, writes }));
    if (this.waiting.size === 1) this.worker.ref();
    this.port.postMessage(make(id));
    return done;
  }

  /** Lets the thread finish the writes it was given, then stops it. */
  async close(): Promise<void> {
    if (!this.closing) {
      this.closing = true;
      // Never given a write: nothing to finish, and no need to wait for a thread still starting to hear "stop".
      if (this.nextId === 0) void this.worker.terminate();
      else {
        this.worker.ref();
        this.port.postMessage({ type: "stop" } satisfies WriterRequest);
      }
    }
    await this.exited;
    this.port.close();
  }

  /** Since start, the batches the thread answered and the writes they carried. */
  stats(): WriterStats {
    return { ...this.counts };
  }

  private settle(id: number): Waiting | undefined {
    const w = this.waiting.get(id);
    if (w) this.counts.writes += w.writes;
    this.waiting.delete(id);
    if (this.waiting.size === 0 && !this.closing) this.worker.unref();
    return w;
  }

  /** The thread is gone: what it held is refused (it may or may not be stored: it was never acknowledged). */
  private lost(reason: string): void {
    if (!this.closing) this.failure ??= reason;
    const err = new StoreFailure(this.failure ?? reason);
    for (const w of this.waiting.values()) w.reject(err);
    this.waiting.clear();
    if (!this.closing) this.worker.unref();
  }
}
