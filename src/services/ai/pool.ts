/**
 * Runs the house opponent's decisions, post-game reviews and duplicate leagues' standings tables on worker
 * threads (piscina). A hard decision or a review searches for a few hundred milliseconds, and a 16-bot
 * league's table refits its ratings a thousand times in as long; on the event loop that would stall every room and
 * request of the process meanwhile. With 0 threads the same tasks run inline, on the caller's thread.
 */
import { join } from "node:path";
import Piscina from "piscina";
import type { Level, Replay, SeatView } from "../../engine/types";
import type { Review } from "./review";
import type { Placement } from "./search";
import type { LeagueTableTask, TableRow } from "../../shared/standings/league-table";
import { decideTask, leagueTableTask, reviewTask, type DecideTask } from "./worker";

export interface AiPool {
  /** Worker threads at most; 0 when tasks run inline. */
  readonly threads: number;
  decide(view: SeatView, level: Level): Promise<Placement>;
  review(replay: Replay): Promise<Review>;
  leagueTable(task: LeagueTableTask): Promise<TableRow[]>;
  /** Ends the threads; tasks still running are abandoned. */
  close(): Promise<void>;
}

/** The worker module next to this one: through a tsx-registering entry when running from TypeScript sources. */
const WORKER = join(__dirname, __filename.endsWith(".ts") ? "worker-entry.cjs" : "worker.js");

export type AiTask = "decide" | "review" | "league_table";

export interface AiPoolHooks {
  /** A task failed on a thread and was run inline instead. */
  onError?: (err: unknown, task: string) => void;
  /** A task finished (on a thread or inline), after `seconds` including its wait for a thread. */
  onDone?: (task: AiTask, seconds: number) => void;
}

/**
 * A pool of `threads` worker threads (0: inline). A task that fails on a thread (a thread that could not
 * start, or died) is reported to `onError` and run inline instead, so a game never waits on a broken pool.
 */
export function createAiPool(threads: number, hooks: AiPoolHooks = {}): AiPool {
  const timed = <T>(task: AiTask, work: () => Promise<T>): Promise<T> => {
    const started = process.hrtime.bigint();
    return work().finally(() => hooks.onDone?.(task, Number(process.hrtime.bigint() - started) / 1e9));
  };
  if (threads <= 0) {
    return {
      threads: 0,
      decide: (view, level) => timed("decide", async () => decideTask({ view, level })),
      review: (replay) => timed("review", async () => reviewTask(replay)),
      leagueTable: (task) => timed("league_table", async () => leagueTableTask(task)),
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
    leagueTable: (task) => timed("league_table", () => run("leagueTableTask", task, () => leagueTableTask(task))),
    close: async () => {
      closed = true;
      await pool.destroy();
    },
  };
}
