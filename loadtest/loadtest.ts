/**
 * The load test: every client creates or joins a game and plays whole games over WebSocket, for a bounded
 * time, then prints a table and one JSON line and exits. Built to run for hours: round trips go into a
 * streaming HDR histogram (not a list of samples) and nothing is kept per finished game.
 *
 *   npm run loadtest -- [--endpoint http://127.0.0.1:2567] [--clients 10] [--seconds 60] [--delay 0]
 *                       [--move-every-ms 0] [--soak] [--sample-seconds 30] [--metrics-token T]
 *                       [--output report.json] [--json]
 *
 * Without --endpoint the script boots the server itself on a free loopback port (rate limits scaled out of
 * the way): in this process, or with --soak in a child process on a file database, so that the sampled
 * memory and CPU are the server's alone. Against a running server, start it with RATE_LIMIT_SCALE=1000
 * (each pair creates and joins a game every few seconds; the spec's 120 writes a minute per address would
 * refuse them) and a small HOUSE_DELAY_MS if --clients is odd (see below). Only loopback endpoints are
 * accepted.
 *
 * --move-every-ms N paces the play: each seat moves once every N ms (a game every N/2), so the offered load
 * is fixed (pairs x 2000/N moves a second) instead of following the machine; 0 plays as fast as the server
 * answers. The clients' starts are then spread over one period so the games do not move in step.
 *
 * --soak samples the server's RSS, heap and CPU from its /metrics every --sample-seconds (30) and reports
 * the drift between minute 5 and the end (`npm run loadtest -- --soak --seconds 3600`). A soak is paced by
 * default: SOAK_CLIENTS clients (SOAK_CLIENTS/2 concurrent games), each seat moving every SOAK_MOVE_EVERY_MS,
 * since a drift measured under a load that changed says nothing about a leak.
 *
 * Clients come in pairs: client 2k creates a friend game over REST (POST /api/v1/games) and hands the
 * invite code to client 2k+1, which joins it (POST /api/v1/games/join); both then join the room "game" by
 * id with their player tokens (@colyseus/sdk) and play legal moves from their synced hand onto empty
 * squares. When a game ends, both leave and the pair starts the next one. With an odd --clients the last
 * client plays the house. A progress bar runs on a terminal (stderr).
 */
import { WebSocket as WsWebSocket } from "ws";
(globalThis as { WebSocket?: unknown }).WebSocket ??= WsWebSocket;

import { fork } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { Client } from "@colyseus/sdk";
import * as hdr from "hdr-histogram-js";
import { args, assertLoopback, HttpClient, num, round, sleep, table, type Seat } from "./lib/common";
import { newStats, SeatPlayer } from "./lib/player";
import { createProgress } from "../src/cli/progress";
import { SoakSampler, type SoakSample } from "./lib/soak";

/** The soak's default load: many concurrent games moving slowly, not a few fast ones (see BENCHMARKS.md). */
const SOAK_CLIENTS = 240;
const SOAK_MOVE_EVERY_MS = 1500;
/** The most moves a game can take (one per square of the 4x4 board): bounds a paced game's length. */
const MAX_MOVES = 16;

const argv = args();
const SOAK = argv.has("soak");
const CLIENTS = num(argv, "clients", SOAK ? SOAK_CLIENTS : 10, 1, 5000);
const SECONDS = num(argv, "seconds", 60, 1, 7 * 24 * 3600);
const PACE_MS = num(argv, "move-every-ms", SOAK ? SOAK_MOVE_EVERY_MS : 0, 0, 600_000);
const DELAY = num(argv, "delay", PACE_MS / CLIENTS, 0, 60_000);
/** A game that has not finished in this long is stalled: 30 s beyond the longest a paced game can take. */
const STALL_MS = 30_000 + (MAX_MOVES * PACE_MS) / 2;
const SAMPLE_S = num(argv, "sample-seconds", 30, 1, 3600);
const JSON_ONLY = argv.has("json");
const stdout = process.stdout.write.bind(process.stdout);

interface GameInvite {
  gameId: string;
  code: string;
}

/** Hands each game of a pair from its creator to its joiner, in order. */
class PairChannel {
  private queue: GameInvite[] = [];
  private waiters: Array<(g: GameInvite | null) => void> = [];
  publish(g: GameInvite) {
    const w = this.waiters.shift();
    if (w) w(g);
    else this.queue.push(g);
  }
  next(): Promise<GameInvite | null> {
    const g = this.queue.shift();
    if (g) return Promise.resolve(g);
    return new Promise((r) => this.waiters.push(r));
  }
  close() {
    for (const w of this.waiters.splice(0)) w(null);
  }
}

interface ForcedGc {
  t: number;
  rssMb: number;
  heapUsedMb: number;
}

/** The server to load: the given endpoint, or one this script starts (in a child process for a soak). */
async function serverUnderTest(): Promise<{ endpoint: string; stop?: () => Promise<void>; forceGc?: () => Promise<Omit<ForcedGc, "t">> }> {
  const given = argv.get("endpoint");
  if (given) return { endpoint: given };
  if (!SOAK) {
    const { startBenchServer } = await import("./lib/server");
    const server = await startBenchServer();
    return { endpoint: server.url, stop: () => server.close() };
  }
  const child = fork(path.join(__dirname, "lib", "server-child.ts"), [], { execArgv: ["--import", "tsx"], stdio: ["ignore", "ignore", "inherit", "ipc"] });
  const url = await new Promise<string>((resolve, reject) => {
    // Only the server's own message: a loader in the child (tsx) may use the same IPC channel first.
    const onMessage = (m: unknown) => {
      const url = (m as { url?: unknown } | null)?.url;
      if (typeof url !== "string") return;
      child.off("message", onMessage);
      resolve(url);
    };
    child.on("message", onMessage);
    child.once("exit", (code) => reject(new Error(`the server process exited with ${code}`)));
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
      child.once("exit", () => (clearTimeout(timer), resolve()));
      child.send("stop");
    });
  const forceGc = () =>
    new Promise<Omit<ForcedGc, "t">>((resolve, reject) => {
      const timer = setTimeout(() => (child.off("message", onMessage), reject(new Error("the server did not answer gc within 30 s"))), 30_000);
      const onMessage = (m: unknown) => {
        const mem = (m as { gc?: { rss: number; heapUsed: number } } | null)?.gc;
        if (!mem) return;
        clearTimeout(timer);
        child.off("message", onMessage);
        resolve({ rssMb: round(mem.rss / 2 ** 20, 1), heapUsedMb: round(mem.heapUsed / 2 ** 20, 1) });
      };
      child.on("message", onMessage);
      child.send("gc");
    });
  return { endpoint: url, stop, forceGc };
}

async function main() {
  const { endpoint, stop: stopServer, forceGc } = await serverUnderTest();
  assertLoopback(endpoint);
  const httpBase = endpoint.replace(/^ws(s?):/, "http$1:");
  const http = new HttpClient(httpBase, 256);
  const sdk = new Client(endpoint);
  // Round trips in microseconds, 1 µs to 10 minutes at 3 significant digits: a fixed few tens of KB.
  const rtt = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 600_000_000, numberOfSignificantValueDigits: 3 });
  const stats = newStats(false);
  stats.roundTrip = (ms) => rtt.recordValue(Math.max(1, Math.min(600_000_000, Math.round(ms * 1000))));
  const counts = { gamesFinished: 0, gamesStarted: 0, errors: 0, rateLimited: 0, stalls: 0 };
  const firstErrors: string[] = [];
  const pairs = new Map<number, PairChannel>();
  const players = new Set<SeatPlayer>();
  let running = true;
  const started = Date.now();
  const sampler = SOAK ? new SoakSampler(http, started, argv.get("metrics-token") ?? process.env.METRICS_TOKEN) : null;

  const noteError = (e: unknown) => {
    const msg = e instanceof Error ? e.message : String(e);
    if (/-> 429/.test(msg)) counts.rateLimited++;
    else counts.errors++;
    if (firstErrors.length < 5) firstErrors.push(msg.slice(0, 300));
  };

  /** Plays one game as one seat; resolves when it ends (or stalls, or the run stops). Keeps nothing after. */
  async function play(gameId: string, token: string, seat: Seat) {
    const p = await SeatPlayer.join(sdk, gameId, token, seat, stats, PACE_MS);
    if (!running) return p.leave();
    players.add(p);
    let timer: NodeJS.Timeout | undefined;
    const stall = new Promise<"stall">((r) => (timer = setTimeout(() => r("stall"), STALL_MS)));
    const outcome = await Promise.race([p.finished, stall]);
    clearTimeout(timer);
    if (outcome === "stall" && running) counts.stalls++;
    if (outcome === "finished" && seat === "A") counts.gamesFinished++;
    players.delete(p);
    await p.leave();
  }

  async function clientLoop(id: number) {
    const pairNo = Math.floor(id / 2);
    const creator = id % 2 === 0;
    const alone = creator && id === CLIENTS - 1;
    if (!pairs.has(pairNo)) pairs.set(pairNo, new PairChannel());
    const pair = pairs.get(pairNo)!;
    while (running) {
      try {
        if (alone) {
          const g = await http.json("POST", "/api/v1/games", { body: { opponent: "house", level: "easy", name: `lt${id}` } });
          counts.gamesStarted++;
          await play(g.game.id, g.playerToken, g.seat);
        } else if (creator) {
          const g = await http.json("POST", "/api/v1/games", { body: { opponent: "friend", name: `lt${id}` } });
          counts.gamesStarted++;
          pair.publish({ gameId: g.game.id, code: g.code });
          await play(g.game.id, g.playerToken, g.seat);
        } else {
          const invite = await pair.next();
          if (!invite || !running) break;
          const j = await http.json("POST", "/api/v1/games/join", { body: { code: invite.code, name: `lt${id}` } });
          await play(invite.gameId, j.playerToken, j.seat);
        }
      } catch (e) {
        if (!running) break;
        noteError(e);
        await sleep(1000);
      }
    }
  }

  const progress = createProgress("loadtest (s)", Math.round(SECONDS), { json: JSON_ONLY });
  const ticker = setInterval(() => progress.update(Math.min(SECONDS, Math.round((Date.now() - started) / 1000))), 1000);
  const sampling = sampler
    ? setInterval(() => {
        sampler.sample().then(
          (s) => s && !process.stderr.isTTY && !JSON_ONLY && process.stderr.write(`soak ${JSON.stringify(s)}\n`),
          (e) => noteError(e),
        );
      }, SAMPLE_S * 1000)
    : undefined;
  if (sampler) await sampler.sample().catch(noteError);
  // One forced collection of the server's heap, under load, after the last sample: what survives it is
  // what the server holds; the sampled heap also carries garbage waiting for its collection. Only at the
  // end: a forced collection mid-run resets V8's heap sizing (a run here fell from 560 to 350 MB of RSS
  // and spent a third more CPU per move after one), so every later sample would be of another server.
  const forcedGcs: ForcedGc[] = [];
  const collect = () => forceGc?.().then((m) => forcedGcs.push({ t: round((Date.now() - started) / 1000, 0), ...m }), noteError);

  const loops: Promise<void>[] = [];
  for (let i = 0; i < CLIENTS; i++) {
    loops.push(clientLoop(i));
    if (DELAY > 0) await sleep(DELAY);
  }

  await sleep(Math.max(0, SECONDS * 1000 - (Date.now() - started)));
  running = false;
  const elapsed = (Date.now() - started) / 1000;
  clearInterval(ticker);
  clearInterval(sampling);
  if (sampler) await sampler.sample().catch(noteError);
  await collect();
  progress.stop();
  for (const pair of pairs.values()) pair.close();
  await Promise.race([Promise.all([...players].map((p) => p.leave())), sleep(5000)]);
  await Promise.race([Promise.all(loops), sleep(5000)]);
  const ms = (p: number) => round(rtt.getValueAtPercentile(p) / 1000, 2);
  const drift = sampler?.drift(elapsed) ?? null;
  const out = {
    bench: "loadtest",
    endpoint,
    clients: CLIENTS,
    moveEveryMs: PACE_MS,
    /** The offered load when paced: every pair's game moves every half period. */
    pacedMovesPerSec: PACE_MS > 0 ? round((Math.floor(CLIENTS / 2) * 2000) / PACE_MS, 1) : null,
    seconds: round(elapsed, 1),
    gamesStarted: counts.gamesStarted,
    gamesFinished: counts.gamesFinished,
    movesAcked: stats.acked,
    movesPerSec: round(stats.acked / elapsed, 1),
    moveRttP50Ms: ms(50),
    moveRttP99Ms: ms(99),
    moveRttMaxMs: round(rtt.maxValue / 1000, 2),
    refused: stats.refused,
    stalls: counts.stalls,
    errors: counts.errors,
    rateLimited: counts.rateLimited,
    httpResent: http.resent,
    firstErrors,
    generatorHeapMb: round(process.memoryUsage().heapUsed / 1024 / 1024, 1),
    ...(sampler ? { soak: { sampleSeconds: SAMPLE_S, drift, forcedGcs, samples: sampler.samples } } : {}),
  };
  if (!JSON_ONLY) {
    const rows: (string | number)[][] = [
      ["games started / finished", `${out.gamesStarted} / ${out.gamesFinished}`],
      ["moves acked", out.movesAcked],
      ["moves/s" + (out.pacedMovesPerSec === null ? " (unpaced)" : ` (paced: ${out.pacedMovesPerSec} offered)`), out.movesPerSec],
      ["move round trip p50 / p99 / max ms", `${out.moveRttP50Ms} / ${out.moveRttP99Ms} / ${out.moveRttMaxMs}`],
      [
        "refused",
        Object.entries(out.refused)
          .map(([k, v]) => `${k}:${v}`)
          .join(" ") || "0",
      ],
      ["stalled games", out.stalls],
      ["errors / rate-limited", `${out.errors} / ${out.rateLimited}`],
      ["idempotent requests resent after a closed keep-alive socket", out.httpResent],
      ["load generator heap MB", out.generatorHeapMb],
    ];
    if (drift) {
      const span = `medians of ${drift.windowS} s from ${drift.baselineT} s and to ${drift.endT} s`;
      rows.push([`server RSS MB (${span})`, `${drift.rssMb[0]} -> ${drift.rssMb[1]} (${drift.rssPct}%)`]);
      rows.push([`server heap MB (${span})`, `${drift.heapMb[0]} -> ${drift.heapMb[1]} (${drift.heapPct}%)`]);
      rows.push(["server CPU % at baseline / end", `${drift.cpuPctStart} / ${drift.cpuPctEnd}`]);
      rows.push(["server moves/s at baseline / end", `${drift.movesPerSecStart} / ${drift.movesPerSecEnd}`]);
      rows.push(["server CPU ms per move at baseline / end", `${drift.cpuMsPerMoveStart} / ${drift.cpuMsPerMoveEnd}`]);
    }
    if (forcedGcs.length > 0) {
      rows.push(["server heap / RSS MB after a forced GC at the end", forcedGcs.map((g) => `${g.heapUsedMb} / ${g.rssMb}`).join(", ")]);
    }
    stdout(
      "\n" +
        table(
          `load test: ${CLIENTS} clients${PACE_MS > 0 ? `, each seat moving every ${PACE_MS} ms,` : ""} for ${out.seconds} s against ${endpoint}`,
          ["", "value"],
          rows,
        ) +
        "\n",
    );
    if (sampler)
      stdout(
        table(
          "server samples",
          ["t s", "RSS MB", "heap MB", "CPU %", "moves/s", "CPU ms/move", "generator heap MB"],
          sampler.samples.map((s: SoakSample) => [s.t, s.rssMb, s.heapUsedMb, s.cpuPct, s.movesPerSec, s.cpuMsPerMove, s.generatorHeapMb]),
        ) + "\n",
      );
    for (const e of firstErrors) stdout(`error: ${e}\n`);
  }
  stdout(JSON.stringify(out) + "\n");
  if (argv.get("output")) writeFileSync(argv.get("output")!, JSON.stringify(out, null, 2) + "\n");
  http.close();
  await stopServer?.().catch(() => undefined);
  process.exit(stats.acked > 0 ? 0 : 1);
}

main().catch((e) => {
  stdout(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
