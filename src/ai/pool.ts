/**
 * Runs the house opponent's decisions and post-game reviews on worker threads (piscina). A hard decision
 * or a review searches for a few hundred milliseconds; on the event loop that would stall every room and
 * request of the process meanwhile. With 0 threads the same tasks run inline, on the caller's thread.
 */
import { join } from "node:path";
import Piscina from "piscina";
import type { Level, Replay, SeatView } from "../game/types";
import type { Review } from "./review";
import type { Placement } from "./search";
import { decideTask, reviewTask, type DecideTask } from "./worker";

export interface AiPool {
  /** Worker threads at most; 0 when tasks run inline. */
  readonly threads: number;
  decide(view: SeatView, level: Level): Promise<Placement>;
  review(replay: Replay): Promise<Review>;
  /** Ends the threads; tasks still running are abandoned. */
  close(): Promise<void>;
}

/** The worker module next to this one: through a tsx-registering entry when running from TypeScript sources. */
const WORKER = join(__dirname, __filename.endsWith(".ts") ? "worker-entry.cjs" : "worker.js");

export interface AiPoolHooks {
  /** A task failed on a thread and was run inline instead. */
  onError?: (err: unknown, task: string) => void;
  /** A task finished (on a thread or inline), after `seconds` including its wait for a thread. */
  onDone?: (task: "decide" | "review", seconds: number) => void;
}

/**
 * A pool of `threads` worker threads (0: inline). A task that fails on a thread (a thread that could not
 * start, or died) is reported to `onError` and run inline instead, so a game never waits on a broken pool.
 */
export function createAiPool(threads: number, hooks: AiPoolHooks = {}): AiPool {
  const timed = <T>(task: "decide" | "review", work: () => Promise<T>): Promise<T> => {
    const started = process.hrtime.bigint();
    return work().finally(() => hooks.onDone?.(task, Number(process.hrtime.bigint() - started) / 1e9));
  };
  if (threads <= 0) {
    return {
      threads: 0,
      decide: (view, level) => timed("decide", async () => decideTask({ view, level })),
      review: (replay) => timed("review", async () => reviewTask(replay)),
      close: async () => undefined,
    };
  }
  // Threads start on first use and stop after a minute idle, so an idle server holds none.
  const pool = new Piscina({ filename: WORKER, minThreads: 0, maxThreads: threads, idleTimeout: 60_000 });
  let closed = false;
  const run = <T>(name: string, task: unknown, inline: () => T): Promise<T> =>
    (pool.run(task, { name }) as Promise<T>).catch((err: unknown) => {
      if (closed) throw err;
      hooks.onError?.(err, name);
      return inline();
    });
  return {
    threads,
    decide: (view, level) => timed("decide", () => run("decideTask", { view, level } satisfies DecideTask, () => decideTask({ view, level }))),
    review: (replay) => timed("review", () => run("reviewTask", replay, () => reviewTask(replay))),
    close: async () => {
      closed = true;
      await pool.destroy();
    },
  };
}
