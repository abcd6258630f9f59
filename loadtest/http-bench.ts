/**
 * REST sync throughput beside a bare Express route on the same process, and long-poll wake latency.
 *
 *   npm run bench:http [-- --concurrency 16 --seconds 8 --rounds 2 --games 20 --samples 200]
 *
 * This process hosts the server (the real composition root) and, on a second loopback port, a bare
 * Express 5 app with one JSON route (`GET /bare` -> {"ok":true}): no middleware, the floor for "an Express
 * JSON route". The load generator is this file forked as a second process on the same cores; every phase
 * uses the same client (node:http, keep-alive agent, --concurrency closed-loop workers):
 *   - bare:    GET /bare on the bare Express app;
 *   - healthz: GET /healthz on the real server (Colyseus' HTTP handling and the app-wide middleware, no
 *              rate limiter, no room call);
 *   - sync:    GET /api/v1/games/{id}/sync?since=<last>&timeout=0 with a seat's Bearer token, spread over
 *              --games active games (4 moves played in each, so the body carries the full seat view).
 * Phases alternate for --rounds rounds; ratios are taken per round, then the median.
 * Wake latency: a seat waits on sync?since=n&timeout=20; after a 20 ms settle the other seat posts its
 * move; the latency is from sending the move to the waiter's answer (the move's own round trip is shown
 * beside it). Samples are taken one at a time on an otherwise idle server, playing whole games.
 * Prints a table, then one JSON line. Every loop is bounded by --seconds / --samples and a watchdog.
 */
import { createProgress } from "../src/cli/progress";
import express from "express";
import type { AddressInfo } from "node:net";
import type { Server as HttpServer } from "node:http";
import {
  args,
  Child,
  cpuSince,
  HttpClient,
  measureWindow,
  median,
  num,
  nowMs,
  openFriendGame,
  percentile,
  pickMove,
  round,
  serveParent,
  sleep,
  table,
  watchdog,
  type FriendGame,
  type Message,
  type Seat,
} from "./lib/common";
import { startBenchServer } from "./lib/server";

const argv = args();
const ROLE = argv.get("role") ?? "server";
type Kind = "bare" | "healthz" | "sync";

// ---- the server process -------------------------------------------------------------------------

interface PhaseResult {
  kind: Kind;
  round: number;
  seconds: number;
  requests: number;
  perSecond: number;
  errors: number;
  cpuUsPerReq: number;
  serverCpuPct: number;
  clientCpuPct: number;
  p50Ms: number;
  p99Ms: number;
}

async function runServer() {
  const CONC = num(argv, "concurrency", 16, 1, 512);
  const SECONDS = num(argv, "seconds", 8, 1, 600);
  const ROUNDS = num(argv, "rounds", 2, 1, 20);
  const GAMES = num(argv, "games", 20, 1, 1000);
  const SAMPLES = num(argv, "samples", 200, 0, 10_000);
  const WARMUP = num(argv, "warmup", 2, 0, 30);
  watchdog(((ROUNDS + 1) * 3 * (SECONDS + WARMUP + 10) + SAMPLES * 0.5 + 90) * 1000, "http-bench");

  const server = await startBenchServer();
  const bareApp = express();
  bareApp.get("/bare", (_req, res) => {
    res.json({ ok: true });
  });
  const bare: HttpServer = await new Promise((resolve) => {
    const s = bareApp.listen(0, "127.0.0.1", () => resolve(s));
  });
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
  const child = new Child(__filename, ["--url", server.url, "--bare", bareUrl, "--concurrency", String(CONC)]);
  try {
    await child.ask({ type: "setup", games: GAMES }, "setup:done", 60_000 + GAMES * 1000);
    const phases: PhaseResult[] = [];
    const kinds: Kind[] = ["bare", "healthz", "sync"];
    // One step per phase (the warm-up pass, every round's phases) and one for the wake samples.
    const progress = createProgress("http-bench", kinds.length * (ROUNDS + 1) + (SAMPLES > 0 ? 1 : 0), { json: argv.has("json") });
    // An unreported pass of every kind first: the first seconds of any path run before the JIT is warm.
    for (const kind of kinds) {
      await runPhase(child, kind, -1, WARMUP, 0);
      progress.increment();
    }
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 === 0 ? kinds : [...kinds].reverse();
      for (const kind of order) {
        phases.push(await runPhase(child, kind, r, SECONDS, WARMUP));
        progress.increment();
      }
    }
    const wake = SAMPLES > 0 ? await child.ask<Message & WakeResult>({ type: "wake", samples: SAMPLES }, "wake:done", SAMPLES * 25_000 + 60_000) : null;
    progress.stop();
    report(phases, wake, { concurrency: CONC, seconds: SECONDS, rounds: ROUNDS, games: GAMES, samples: SAMPLES });
  } finally {
    await child.close().catch(() => undefined);
    bare.closeAllConnections?.();
    await new Promise((r) => bare.close(r));
    await server.close().catch(() => undefined);
  }
  process.exit(0);
}

async function runPhase(child: Child, kind: Kind, roundNo: number, seconds: number, warmup: number): Promise<PhaseResult> {
  const { cpu, elapsed, m0, m1 } = await measureWindow<Counters>(child, { type: "start", kind }, 30_000, seconds, warmup);
  const requests = m1.ok - m0.ok;
  return {
    kind,
    round: roundNo,
    seconds: round(elapsed, 2),
    requests,
    perSecond: round(requests / elapsed, 0),
    errors: m1.errors - m0.errors,
    cpuUsPerReq: round(requests ? cpu / requests : 0, 1),
    serverCpuPct: round((cpu / 1e6 / elapsed) * 100, 0),
    clientCpuPct: round(((m1.cpuUs - m0.cpuUs) / 1e6 / elapsed) * 100, 0),
    p50Ms: round(m1.p50Ms, 2),
    p99Ms: round(m1.p99Ms, 2),
  };
}

interface WakeResult {
  samples: number;
  wakeP50Ms: number;
  wakeP99Ms: number;
  wakeMaxMs: number;
  moveP50Ms: number;
  moveP99Ms: number;
  missed: number;
  early: number;
  games: number;
}

function report(phases: PhaseResult[], wake: WakeResult | null, params: Record<string, number>) {
  const agg = (kind: Kind) => {
    const ps = phases.filter((p) => p.kind === kind);
    const n = ps.reduce((a, p) => a + p.requests, 0);
    const s = ps.reduce((a, p) => a + p.seconds, 0);
    return {
      reqPerSec: round(n / s, 0),
      cpuUsPerReq: round(ps.reduce((a, p) => a + p.cpuUsPerReq * p.requests, 0) / Math.max(1, n), 1),
      errors: ps.reduce((a, p) => a + p.errors, 0),
    };
  };
  const ratio = (num: Kind, den: Kind) =>
    round(
      median(
        [...new Set(phases.map((p) => p.round))].map((r) => {
          const a = phases.find((p) => p.round === r && p.kind === num)!;
          const b = phases.find((p) => p.round === r && p.kind === den)!;
          return b.perSecond ? a.perSecond / b.perSecond : 0;
        }),
      ),
      3,
    );
  const out = {
    bench: "http",
    params,
    bare: agg("bare"),
    healthz: agg("healthz"),
    sync: agg("sync"),
    ratioSyncToBare: ratio("sync", "bare"),
    ratioHealthzToBare: ratio("healthz", "bare"),
    ratioSyncToHealthz: ratio("sync", "healthz"),
    wake,
    phases,
  };
  console.log(
    table(
      `HTTP throughput: ${params.concurrency} keep-alive workers, ${params.seconds} s per phase, load generator in a second process`,
      ["phase", "req/s", "server us/req", "server cpu", "client cpu", "p50 ms", "p99 ms", "errors"],
      phases.map((p) => [
        `${p.kind} (round ${p.round + 1})`,
        p.perSecond,
        p.cpuUsPerReq,
        `${p.serverCpuPct}%`,
        `${p.clientCpuPct}%`,
        p.p50Ms,
        p.p99Ms,
        p.errors,
      ]),
    ),
  );
  console.log();
  console.log(
    table(
      "Summary",
      ["", "value"],
      [
        ["bare Express JSON route, req/s", out.bare.reqPerSec],
        ["GET /healthz (real server), req/s", out.healthz.reqPerSec],
        ["GET sync (token, timeout=0), req/s", out.sync.reqPerSec],
        ["ratio sync/bare (median of rounds)", out.ratioSyncToBare],
        ["ratio healthz/bare", out.ratioHealthzToBare],
        ["server CPU us per bare / healthz / sync request", `${out.bare.cpuUsPerReq} / ${out.healthz.cpuUsPerReq} / ${out.sync.cpuUsPerReq}`],
      ],
    ),
  );
  if (wake) {
    console.log();
    console.log(
      table(
        `Long-poll wake (sync?timeout=20 woken by the other seat's move), ${wake.samples} samples`,
        ["", "p50 ms", "p99 ms", "max ms"],
        [
          ["move sent -> waiter answered", wake.wakeP50Ms, wake.wakeP99Ms, wake.wakeMaxMs],
          ["move round trip (POST /moves)", wake.moveP50Ms, wake.moveP99Ms, "-"],
        ],
      ),
    );
    console.log(`missed wakes (waiter timed out): ${wake.missed}; answered before the move was sent: ${wake.early}; games played: ${wake.games}`);
  }
  console.log(JSON.stringify(out));
}

// ---- the load generator (child process) ---------------------------------------------------------

interface Counters {
  ok: number;
  errors: number;
  cpuUs: number;
  p50Ms: number;
  p99Ms: number;
}

async function runClient() {
  const url = argv.get("url")!;
  const bareUrl = argv.get("bare")!;
  const conc = Number(argv.get("concurrency"));
  const api = new HttpClient(url, conc + 8);
  const bareHttp = new HttpClient(bareUrl, conc + 8);
  const games: Array<FriendGame & { since: number }> = [];
  let running = false;
  let workers: Promise<void>[] = [];
  let ok = 0;
  let errors = 0;
  let latencies: number[] = [];
  let firstError = "";

  async function worker(i: number, kind: Kind) {
    let n = i;
    while (running) {
      const t = nowMs();
      let status = 0;
      try {
        if (kind === "bare") status = (await bareHttp.request("GET", "/bare", { parse: false })).status;
        else if (kind === "healthz") status = (await api.request("GET", "/healthz", { parse: false })).status;
        else {
          const g = games[n++ % games.length];
          const seat: Seat = n % 2 ? "A" : "B";
          status = (await api.request("GET", `/api/v1/games/${g.gameId}/sync?since=${g.since}&timeout=0`, { token: g.tokens[seat], parse: false })).status;
        }
      } catch (e) {
        firstError ||= e instanceof Error ? e.message : String(e);
      }
      if (status === 200) {
        ok++;
        latencies.push(nowMs() - t);
      } else {
        errors++;
        firstError ||= `status ${status}`;
        await sleep(5);
      }
    }
  }

  /** Plays `count` moves of a game over REST (each seat from its own synced view). */
  async function playMoves(g: FriendGame, count: number): Promise<number> {
    let played = 0;
    for (let i = 0; i < count; i++) {
      const a = await api.json("GET", `/api/v1/games/${g.gameId}/sync?since=0&timeout=0`, { token: g.tokens.A });
      if (a.status !== "active") break;
      const seat: Seat = a.yourTurn ? "A" : "B";
      const view = seat === "A" ? a : await api.json("GET", `/api/v1/games/${g.gameId}/sync?since=0&timeout=0`, { token: g.tokens.B });
      const move = pickMove(
        view.state.hand.map((c: { id: string }) => c.id),
        view.state.board.map((c: { square: string }) => c.square),
      );
      await api.json("POST", `/api/v1/games/${g.gameId}/moves`, { token: g.tokens[seat], body: move });
      played++;
    }
    return played;
  }

  serveParent(async (m) => {
    switch (m.type) {
      case "setup": {
        for (let i = 0; i < Number(m.games); i++) {
          const g = await openFriendGame(api, `h${i}`);
          games.push({ ...g, since: await playMoves(g, 4) });
        }
        return {};
      }
      case "start": {
        ok = 0;
        errors = 0;
        latencies = [];
        running = true;
        workers = Array.from({ length: conc }, (_, i) => worker(i, m.kind as Kind));
        await sleep(50);
        return {};
      }
      case "mark": {
        const c: Counters = { ok, errors, cpuUs: cpuSince({ user: 0, system: 0 }), p50Ms: 0, p99Ms: 0 };
        if (m.latencies) {
          c.p50Ms = median(latencies);
          c.p99Ms = percentile(latencies, 99);
        }
        latencies = [];
        if (firstError) {
          process.stderr.write(`http-bench client: first error: ${firstError}\n`);
          firstError = "";
        }
        return { ...c };
      }
      case "stop": {
        running = false;
        await Promise.race([Promise.all(workers), sleep(30_000)]);
        return {};
      }
      case "wake":
        return { ...(await wakeSamples(Number(m.samples))) };
      default:
        throw new Error(`unknown command ${m.type}`);
    }
  });

  async function wakeSamples(samples: number): Promise<WakeResult> {
    const wakes: number[] = [];
    const moves: number[] = [];
    let missed = 0;
    let early = 0;
    let played = 0;
    const deadline = Date.now() + samples * 1000 + 30_000;
    while (wakes.length + missed < samples && Date.now() < deadline) {
      const g = await openFriendGame(api, `w${played++}`);
      // The seat to move, with its view (hand and board) from its own sync.
      let first = await api.json("GET", `/api/v1/games/${g.gameId}/sync?since=0&timeout=0`, { token: g.tokens.A });
      let mover: Seat = first.yourTurn ? "A" : "B";
      if (mover === "B") first = await api.json("GET", `/api/v1/games/${g.gameId}/sync?since=0&timeout=0`, { token: g.tokens.B });
      let view = first;
      while (view.status === "active" && wakes.length + missed < samples && Date.now() < deadline) {
        const waiter: Seat = mover === "A" ? "B" : "A";
        const since = view.moveCount;
        const waited = api
          .request("GET", `/api/v1/games/${g.gameId}/sync?since=${since}&timeout=20`, { token: g.tokens[waiter], timeoutMs: 30_000 })
          .then((r) => ({ r, at: nowMs() }));
        await sleep(20);
        const move = pickMove(
          view.state.hand.map((c: { id: string }) => c.id),
          view.state.board.map((c: { square: string }) => c.square),
        );
        if (!move) break;
        const t0 = nowMs();
        const posted = await api.request("POST", `/api/v1/games/${g.gameId}/moves`, { token: g.tokens[mover], body: move });
        const t1 = nowMs();
        if (posted.status !== 200) throw new Error(`move refused: ${posted.status} ${posted.body.slice(0, 200)}`);
        const { r, at } = await waited;
        if (r.status !== 200) throw new Error(`long-poll sync answered ${r.status}: ${r.body.slice(0, 200)}`);
        if (r.json.moves.length === 0) missed++;
        else if (at < t0) early++;
        else {
          wakes.push(at - t0);
          moves.push(t1 - t0);
        }
        view = r.json; // the waiter's view after the move: it moves next
        mover = waiter;
      }
    }
    return {
      samples: wakes.length,
      wakeP50Ms: round(median(wakes), 2),
      wakeP99Ms: round(percentile(wakes, 99), 2),
      wakeMaxMs: round(Math.max(0, ...wakes), 2),
      moveP50Ms: round(median(moves), 2),
      moveP99Ms: round(percentile(moves, 99), 2),
      missed,
      early,
      games: played,
    };
  }
}

if (ROLE === "client") void runClient();
else
  runServer().catch((e) => {
    console.error(e instanceof Error ? e.stack : e);
    process.exit(1);
  });
