/**
 * One thread of the light load generator (generator.ts): its share of the games (light-games.ts), driven by
 * the generator's commands over the worker port. Each reply carries the command's id.
 */
import { parentPort, workerData } from "node:worker_threads";
import { HttpClient } from "./common";
import { GAME_TABLE, STOCK_TABLE, LightGames } from "./light-games";
import { LoopMonitor } from "./loop-health";

/** The game a thread plays: this server's, or the stock turn game (on the stock server or the durable floor). */
export type TableName = "game" | "stock";

export interface WorkerData {
  url: string;
  seatPeriodMs: number;
  name: string;
  table: TableName;
}
export type WorkerCommand = { id: number } & ({ type: "grow"; n: number; rampMs: number } | { type: "mark" } | { type: "close" });

const data = workerData as WorkerData;
const http = new HttpClient(data.url, 32);
const games = new LightGames(http, data.url.replace(/^http/, "ws"), data.seatPeriodMs, data.name, data.table === "stock" ? STOCK_TABLE : GAME_TABLE);
const loop = new LoopMonitor();

async function answer(m: WorkerCommand): Promise<Record<string, unknown>> {
  switch (m.type) {
    case "grow":
      await games.grow(m.n, m.rampMs);
      return { games: games.size };
    case "mark": {
      // The round trips since the last mark, as a transferable array; the counters are running totals.
      const latencies = Float64Array.from(games.latencies);
      games.latencies = [];
      const out = { ...games.counters, samples: [...games.counters.samples], latencies, loop: loop.read() };
      games.counters.samples.length = 0;
      loop.reset();
      return out;
    }
    case "close":
      await games.close();
      loop.stop();
      http.close();
      return {};
  }
}

parentPort!.on("message", (m: WorkerCommand) => {
  answer(m).then(
    (out) => parentPort!.postMessage({ ...out, id: m.id }),
    (e: unknown) => parentPort!.postMessage({ id: m.id, error: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
  );
});
