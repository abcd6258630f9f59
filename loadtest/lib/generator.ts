/**
 * The light load generator: worker threads (generator-worker.ts), each driving its share of N paced games
 * over raw Colyseus sockets (light-games.ts, wire.ts). It runs in the load-generator process, never in the
 * server's: process.cpuUsage() there counts every thread, so it reads as the generator's own CPU.
 */
import { Worker } from "node:worker_threads";
import { addStalls, type LoopHealth } from "./loop-health";
import type { LightCounters } from "./light-games";
import type { TableName, WorkerCommand, WorkerData } from "./generator-worker";

type Reply = Record<string, unknown> & { id: number; error?: string };
type Command = WorkerCommand extends infer C ? (C extends { id: number } ? Omit<C, "id"> : never) : never;

/** What one mark reads: running totals of every thread, and the round trips and loop health since the last mark. */
export interface GeneratorMark extends LightCounters {
  latencies: number[];
  loop: LoopHealth;
}

/** The worst loop of several threads (their GC pauses summed): a round trip waits for whichever is late. */
export function worstLoop(loops: LoopHealth[]): LoopHealth {
  return loops.reduce((a, b) => ({
    delayP50Ms: Math.max(a.delayP50Ms, b.delayP50Ms),
    delayP99Ms: Math.max(a.delayP99Ms, b.delayP99Ms),
    delayMaxMs: Math.max(a.delayMaxMs, b.delayMaxMs),
    gcMs: Math.round((a.gcMs + b.gcMs) * 100) / 100,
    gcMaxMs: Math.max(a.gcMaxMs, b.gcMaxMs),
    majorGcs: a.majorGcs + b.majorGcs,
    stalls: addStalls(a.stalls, b.stalls),
  }));
}

class GeneratorThread {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve: (r: Reply) => void; reject: (e: Error) => void }>();
  private ids = 0;

  constructor(data: WorkerData) {
    // execArgv is inherited: the thread loads TypeScript through the same loader (tsx) as this process.
    this.worker = new Worker(require.resolve("./generator-worker"), { workerData: data });
    this.worker.on("message", (r: Reply) => {
      const w = this.waiting.get(r.id);
      this.waiting.delete(r.id);
      if (r.error) w?.reject(new Error(`generator thread: ${r.error}`));
      else w?.resolve(r);
    });
    this.worker.on("error", (e) => this.failAll(e));
    this.worker.on("exit", (code) => this.failAll(new Error(`generator thread exited (${code})`)));
  }

  ask<T>(command: Command): Promise<T & Reply> {
    const id = ++this.ids;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (r: Reply) => void, reject });
      this.worker.postMessage({ ...command, id });
    });
  }

  private failAll(e: Error) {
    for (const w of this.waiting.values()) w.reject(e);
    this.waiting.clear();
  }

  terminate(): Promise<number> {
    return this.worker.terminate();
  }
}

export class Generator {
  private readonly threads: GeneratorThread[];

  /**
   * `threads` worker threads against the server at `url` (http://), each seat moving every `seatPeriodMs`,
   * playing this server's game or the stock turn game (`table`, light-games.ts).
   */
  constructor(url: string, threads: number, seatPeriodMs = 5000, table: TableName = "game") {
    this.threads = Array.from({ length: threads }, (_, i) => new GeneratorThread({ url, seatPeriodMs, name: `light${i}`, table }));
  }

  /** Grows to `n` games in all, each thread opening its share over `rampMs`. */
  async grow(n: number, rampMs: number): Promise<void> {
    const k = this.threads.length;
    await Promise.all(this.threads.map((t, i) => t.ask({ type: "grow", n: Math.floor((n + k - 1 - i) / k), rampMs })));
  }

  async mark(): Promise<GeneratorMark> {
    const marks = await Promise.all(this.threads.map((t) => t.ask<LightCounters & { latencies: Float64Array; loop: LoopHealth }>({ type: "mark" })));
    const sum = (f: (m: LightCounters) => number) => marks.reduce((a, m) => a + f(m), 0);
    return {
      moves: sum((m) => m.moves),
      refused: sum((m) => m.refused),
      replaced: sum((m) => m.replaced),
      errors: sum((m) => m.errors),
      dropped: sum((m) => m.dropped),
      samples: marks.flatMap((m) => m.samples),
      latencies: marks.flatMap((m) => Array.from(m.latencies)),
      loop: worstLoop(marks.map((m) => m.loop)),
    };
  }

  /** Resigns and leaves every game, then ends the threads. */
  async close(): Promise<void> {
    await Promise.all(this.threads.map((t) => t.ask({ type: "close" }).catch(() => undefined)));
    await Promise.all(this.threads.map((t) => t.terminate()));
  }
}
