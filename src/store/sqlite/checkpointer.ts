/**
 * WAL checkpoints off the event loop. SQLite's automatic checkpoint runs inside whichever commit crosses
 * 1,000 WAL pages, on the calling thread: it copies pages into the database file and fsyncs it, and
 * better-sqlite3 is synchronous, so every few thousand writes one commit held the event loop for several to
 * tens of milliseconds (an insert's p99 was 1 ms and its p99.9 13 ms with it, 0.13 ms and 6.7 ms without, in
 * a side-by-side run on the development machine). The store's connection therefore runs with
 * `wal_autocheckpoint = 0` and this thread checkpoints on its own connection instead: PASSIVE, which never
 * blocks the writer, and RESTART once the WAL passes `restartFrames` pages, which keeps its size bounded
 * under steady writes (see checkpoint-thread.cjs).
 */
import { join } from "node:path";
import { Worker } from "node:worker_threads";

export interface CheckpointerOptions {
  intervalMs?: number;
  /** WAL pages (4 KiB each by default) past which a checkpoint also restarts the WAL. */
  restartFrames?: number;
  /** Called when a checkpoint fails (the next one retries; the WAL keeps every commit meanwhile). */
  onError?: (message: string) => void;
}

export class Checkpointer {
  private readonly worker: Worker;
  private readonly waiting = new Set<() => void>();
  /**
   * The thread's exit, watched from the start: a thread that ended early (its database file deleted before it
   * opened it, on a slow start) would otherwise leave close() waiting for an exit that already happened.
   */
  private readonly exited: Promise<unknown>;

  constructor(path: string, options: CheckpointerOptions = {}) {
    this.worker = new Worker(join(__dirname, "checkpoint-thread.cjs"), {
      workerData: { path, intervalMs: options.intervalMs ?? 1000, restartFrames: options.restartFrames ?? 4096 },
    });
    // The exit itself, not `once(worker, "exit")`, which rejects when the thread reports an error first.
    this.exited = new Promise((resolve) => this.worker.once("exit", resolve));
    // It must not keep a process alive that has nothing else to do.
    this.worker.unref();
    this.worker.on("message", (m: { type: "checkpointed" | "failed"; message?: string }) => {
      if (m.type === "failed") options.onError?.(m.message ?? "checkpoint failed");
      for (const wake of this.waiting) wake();
      this.waiting.clear();
    });
    this.worker.on("error", (err) => options.onError?.(err.message));
  }

  /** Resolves after the next checkpoint attempt (for tests and for a caller that wants the WAL folded in). */
  next(): Promise<void> {
    return new Promise((resolve) => this.waiting.add(resolve));
  }

  /** Runs a last checkpoint and stops the thread. */
  async close(): Promise<void> {
    // Held while it stops: an unreferenced thread would let the process end before close() resolves.
    this.worker.ref();
    this.worker.postMessage("stop");
    await this.exited;
  }
}
