/**
 * How much the house opponent's search costs everyone else on its process, with the search on the event
 * loop (AI_THREADS=0) beside the search on worker threads (the default), measured in one run.
 *
 *   npm run bench:house [-- --games 6 --seconds 10 --level hard --threads 1]
 *
 * Each mode runs in a child process of its own (Colyseus' matchmaker is process-wide): a real server on a
 * loopback port, `--games` REST agents each playing house games at `--level` back to back (their own moves are
 * instant, so the house's searches are the load), and a prober asking GET /healthz every 20 ms. Reported per
 * mode: house moves per second, the prober's round trip (what any other request or room sees) and the
 * server's event-loop delay (perf_hooks.monitorEventLoopDelay). Prints a table, then one JSON line.
 */
import { spawn } from "node:child_process";
import { monitorEventLoopDelay } from "node:perf_hooks";
import path from "node:path";
import { args, HttpClient, median, nowMs, num, percentile, pickMove, round, sleep, table } from "./lib/common";
import { createProgress } from "../src/cli/progress";
import { startBenchServer } from "./lib/server";

const argv = args();
const GAMES = num(argv, "games", 6, 1, 200);
const SECONDS = num(argv, "seconds", 10, 1, 600);
const THREADS = num(argv, "threads", 1, 1, 64);
const LEVEL = argv.get("level") ?? "hard";
if (!["easy", "normal", "hard"].includes(LEVEL)) throw new Error("--level is easy, normal or hard");

interface ModeResult {
  aiThreads: number;
  houseMoves: number;
  houseMovesPerSec: number;
  games: number;
  healthzP50Ms: number;
  healthzP99Ms: number;
  healthzMaxMs: number;
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
  errors: number;
}

async function agent(http: HttpClient, until: number, counts: { houseMoves: number; games: number; errors: number }) {
  while (nowMs() < until) {
    try {
      const g = await http.json("POST", "/api/v1/games", { body: { opponent: "house", level: LEVEL, name: "bench" } });
      let since = 0;
      while (nowMs() < until) {
        const s = await http.json("GET", `/api/v1/games/${g.game.id}/sync?since=${since}&timeout=5`, { token: g.playerToken });
        // Every move this agent did not play is the house's.
        for (const m of s.moves ?? []) if (m.seat !== g.seat) counts.houseMoves++;
        since = s.moveCount;
        if (s.status === "finished") {
          counts.games++;
          break;
        }
        if (!s.yourTurn) continue;
        const move = pickMove(
          s.state.hand.map((c: { id: string }) => c.id),
          s.state.board.map((c: { square: string }) => c.square),
        );
        await http.json("POST", `/api/v1/games/${g.game.id}/moves`, { body: move, token: g.playerToken });
      }
    } catch {
      counts.errors++;
      await sleep(200);
    }
  }
}

async function runMode(aiThreads: number): Promise<ModeResult> {
  const server = await startBenchServer({ aiThreads });
  const http = new HttpClient(server.url, GAMES + 4);
  const counts = { houseMoves: 0, games: 0, errors: 0 };
  const loop = monitorEventLoopDelay({ resolution: 10 });
  const rtts: number[] = [];
  const started = nowMs();
  const until = started + SECONDS * 1000;
  loop.enable();
  const prober = (async () => {
    while (nowMs() < until) {
      const t = nowMs();
      await http.request("GET", "/healthz");
      rtts.push(nowMs() - t);
      await sleep(20);
    }
  })();
  await Promise.all([prober, ...Array.from({ length: GAMES }, () => agent(http, until, counts))]);
  loop.disable();
  const elapsed = (nowMs() - started) / 1000;
  http.close();
  await server.close();
  return {
    aiThreads,
    houseMoves: counts.houseMoves,
    houseMovesPerSec: round(counts.houseMoves / elapsed, 1),
    games: counts.games,
    healthzP50Ms: round(median(rtts), 2),
    healthzP99Ms: round(percentile(rtts, 99), 1),
    healthzMaxMs: round(Math.max(...rtts), 1),
    loopDelayP99Ms: round(loop.percentile(99) / 1e6, 1),
    loopDelayMaxMs: round(loop.max / 1e6, 1),
    errors: counts.errors,
  };
}

function child(aiThreads: number): Promise<ModeResult> {
  const script = path.join(__dirname, "house-bench.ts");
  const flags = ["--games", GAMES, "--seconds", SECONDS, "--level", LEVEL].map(String);
  const proc = spawn(process.execPath, ["--import", "tsx", script, "--mode", String(aiThreads), ...flags], { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  proc.stdout.on("data", (d) => (out += d));
  return new Promise((resolve, reject) =>
    proc.on("exit", (code) => {
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (code !== 0 || !line) reject(new Error(`mode ${aiThreads} failed (exit ${code}):\n${out}`));
      else resolve(JSON.parse(line) as ModeResult);
    }),
  );
}

async function main() {
  if (argv.has("mode")) {
    console.log(JSON.stringify(await runMode(Number(argv.get("mode")))));
    process.exit(0);
  }
  // Each mode plays for SECONDS; the bar follows the clock, as the children report only at their end.
  const progress = createProgress("house-bench", 2 * SECONDS, { json: argv.has("json") });
  const started = Date.now();
  const ticker = setInterval(() => progress.update(Math.min(2 * SECONDS, Math.floor((Date.now() - started) / 1000))), 500);
  const inline = await child(0);
  const pooled = await child(THREADS);
  clearInterval(ticker);
  progress.stop();
  const row = (r: ModeResult) => [
    r.aiThreads === 0 ? "on the event loop" : `${r.aiThreads} worker thread(s)`,
    r.houseMovesPerSec,
    `${r.healthzP50Ms} / ${r.healthzP99Ms} / ${r.healthzMaxMs}`,
    `${r.loopDelayP99Ms} / ${r.loopDelayMaxMs}`,
    r.errors,
  ];
  console.log(
    table(
      `House opponent at ${LEVEL}: ${GAMES} REST agents playing it for ${SECONDS} s, GET /healthz probed every 20 ms`,
      ["search runs", "house moves/s", "healthz p50 / p99 / max ms", "event-loop delay p99 / max ms", "errors"],
      [row(inline), row(pooled)],
    ),
  );
  const out = {
    bench: "house",
    params: { games: GAMES, seconds: SECONDS, level: LEVEL, threads: THREADS },
    inline,
    pooled,
    healthzP99Ratio: round(pooled.healthzP99Ms / Math.max(0.01, inline.healthzP99Ms), 3),
    houseMovesRatio: round(pooled.houseMovesPerSec / Math.max(0.01, inline.houseMovesPerSec), 2),
  };
  console.log(JSON.stringify(out));
  process.exit(inline.houseMoves > 0 && pooled.houseMoves > 0 ? 0 : 1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
