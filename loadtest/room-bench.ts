/**
 * Moves per second through the game room, beside a bare Colyseus room, in one run on one machine.
 *
 *   npm run bench:room [-- --games 50 --seconds 10 --rounds 2 --mem-games 200 --warmup 1]
 *
 * This process hosts the server (the real composition root, plus a bare room defined on the same
 * matchmaker); the load generator is this same file forked as a second process on the same cores, so the
 * server's process.cpuUsage() holds the server's work only. Both phases use N rooms x 2 @colyseus/sdk clients taking turns (one message in flight
 * per room):
 *   - bare: a room that increments a schema counter and acks the sender (default 50 ms patch timer);
 *   - game: friend games created and joined over REST, both seats joined by WebSocket with their player
 *     tokens, each playing a legal move (a card of its synced hand, any empty square) when the synced state
 *     says it is its turn; a finished game is left and the pair starts a new one (creation and joining are
 *     inside the measured window, as in real play).
 * Phases alternate (bare, game | game, bare | ...) for --rounds rounds; the ratio is taken per round.
 * Memory: RSS and heap deltas of the server after opening K active games (REST only), then 2K connections
 * to them, then K bare rooms with two clients each; each step after a forced gc.
 * Prints a table, then one JSON line. Every loop is bounded by --seconds and a watchdog.
 */
import { WebSocket as WsWebSocket } from "ws";
(globalThis as { WebSocket?: unknown }).WebSocket ??= WsWebSocket;

import { matchMaker, Room, type Client as ServerClient } from "@colyseus/core";
import { schema, t } from "@colyseus/schema";
import { Client, type Room as ClientRoom } from "@colyseus/sdk";
import {
  args, Child, cpuSince, HttpClient, measureWindow, median, num, nowMs, openFriendGame, round, serveParent, settledMemory, sleep, table, watchdog,
  type FriendGame, type MemSample, type Seat,
} from "./lib/common";
import { newStats, SeatPlayer, type PlayStats } from "./lib/player";
import { startBenchServer } from "./lib/server";

const argv = args();
const ROLE = argv.get("role") ?? "server";

// ---- the bare room: the least work per message ---------------------------------------------------

const BareState = schema({ count: t.number().default(0) }, "BareState");

export class BareRoom extends Room<{ state: InstanceType<typeof BareState> }> {
  override state = new BareState();
  override onCreate() {
    this.maxClients = 2;
    this.onMessage("inc", (client: ServerClient, seq: unknown) => {
      this.state.count++;
      client.send("ack", seq);
    });
  }
}

// ---- the server process -------------------------------------------------------------------------

type Kind = "bare" | "game";
interface PhaseResult { kind: Kind; round: number; seconds: number; acked: number; perSecond: number; cpuUsPerMsg: number; serverCpuPct: number; clientCpuPct: number; games: number; stalls: number; refused: Record<string, number>; p50Ms: number; p99Ms: number }

async function runServer() {
  const GAMES = num(argv, "games", 50, 1, 2000);
  const SECONDS = num(argv, "seconds", 10, 1, 600);
  const ROUNDS = num(argv, "rounds", 2, 1, 20);
  const MEM_GAMES = num(argv, "mem-games", 200, 0, 5000);
  /** For profiling one side: --only game | --only bare (the ratio then is not reported). */
  const ONLY = argv.get("only") as Kind | undefined;
  const WARMUP = num(argv, "warmup", 2, 0, 30);
  const budgetMs = ((ROUNDS + 1) * 2 * (SECONDS + WARMUP + 30) + 60 + MEM_GAMES * 0.2) * 1000;
  watchdog(budgetMs, "room-bench");

  const server = await startBenchServer();
  matchMaker.defineRoomType("bare", BareRoom);
  const child = new Child(__filename, ["--url", server.url]);
  try {
    await child.ask({ type: "hello" }, "hello:done", 30_000);

    // 1. memory, first, on a fresh process
    const mem = MEM_GAMES > 0 ? await measureMemory(child, MEM_GAMES) : null;

    // 2. throughput, phases alternating
    const phases: PhaseResult[] = [];
    // An unreported pass of each kind first: the first seconds of any path run before the JIT is warm.
    for (const kind of ["bare", "game"] as const) if (!ONLY || ONLY === kind) await runPhase(child, kind, -1, GAMES, WARMUP, 0);
    for (let r = 0; r < ROUNDS; r++) {
      const order: Kind[] = r % 2 === 0 ? ["bare", "game"] : ["game", "bare"];
      for (const kind of order) if (!ONLY || ONLY === kind) phases.push(await runPhase(child, kind, r, GAMES, SECONDS, WARMUP));
    }

    report(phases, mem, { games: GAMES, seconds: SECONDS, rounds: ROUNDS, memGames: MEM_GAMES });
  } finally {
    await child.close().catch(() => undefined);
    await server.close().catch(() => undefined);
  }
  process.exit(0);
}

async function runPhase(child: Child, kind: Kind, roundNo: number, n: number, seconds: number, warmup: number): Promise<PhaseResult> {
  const { cpu, elapsed, m0, m1 } = await measureWindow<Counters>(child, { type: "start", kind, n }, 60_000 + n * 500, seconds, warmup);
  const acked = m1.acked - m0.acked;
  const refused: Record<string, number> = {};
  for (const [k, v] of Object.entries(m1.refused)) if (v - (m0.refused[k] ?? 0) > 0) refused[k] = v - (m0.refused[k] ?? 0);
  return {
    kind, round: roundNo, seconds: round(elapsed, 2), acked,
    perSecond: round(acked / elapsed, 0),
    cpuUsPerMsg: round(acked ? cpu / acked : 0, 1),
    serverCpuPct: round((cpu / 1e6 / elapsed) * 100, 0),
    clientCpuPct: round(((m1.cpuUs - m0.cpuUs) / 1e6 / elapsed) * 100, 0),
    games: m1.games - m0.games,
    stalls: m1.stalls - m0.stalls,
    refused,
    p50Ms: round(m1.p50Ms, 2),
    p99Ms: round(m1.p99Ms, 2),
  };
}

interface MemResult { games: number; gameHeapKB: number; gameRssKB: number; connHeapKB: number; connRssKB: number; bareRoomHeapKB: number; bareRoomRssKB: number }

async function measureMemory(child: Child, k: number): Promise<MemResult> {
  const kb = (a: MemSample, b: MemSample, per: number) => ({ heap: round((b.heapUsed - a.heapUsed) / 1024 / per, 1), rss: round((b.rss - a.rss) / 1024 / per, 1) });
  const m0 = await settledMemory();
  await child.ask({ type: "mem-games", k }, "mem-games:done", 120_000);
  const m1 = await settledMemory();
  await child.ask({ type: "mem-conns" }, "mem-conns:done", 120_000);
  const m2 = await settledMemory();
  await child.ask({ type: "mem-bare", k }, "mem-bare:done", 120_000);
  const m3 = await settledMemory();
  await child.ask({ type: "mem-release" }, "mem-release:done", 120_000);
  const game = kb(m0, m1, k);
  const conn = kb(m1, m2, 2 * k);
  const bare = kb(m2, m3, k);
  return { games: k, gameHeapKB: game.heap, gameRssKB: game.rss, connHeapKB: conn.heap, connRssKB: conn.rss, bareRoomHeapKB: bare.heap, bareRoomRssKB: bare.rss };
}

function report(phases: PhaseResult[], mem: MemResult | null, params: Record<string, number>) {
  const rows = phases.map((p) => [
    `${p.kind} (round ${p.round + 1})`, p.perSecond, p.cpuUsPerMsg, `${p.serverCpuPct}%`, `${p.clientCpuPct}%`, p.p50Ms, p.p99Ms, p.kind === "game" ? p.games : "-",
    p.kind === "game" ? p.stalls : "-", Object.entries(p.refused).map(([k, v]) => `${k}:${v}`).join(" ") || "0",
  ]);
  const sum = (kind: Kind, f: (p: PhaseResult) => number) => phases.filter((p) => p.kind === kind).reduce((a, p) => a + f(p), 0);
  const rate = (kind: Kind) => round(sum(kind, (p) => p.acked) / sum(kind, (p) => p.seconds), 0);
  const cpuPer = (kind: Kind) => round(sum(kind, (p) => p.cpuUsPerMsg * p.acked) / Math.max(1, sum(kind, (p) => p.acked)), 1);
  const ratios = [...new Set(phases.map((p) => p.round))].map((r) => {
    const g = phases.find((p) => p.round === r && p.kind === "game");
    const b = phases.find((p) => p.round === r && p.kind === "bare");
    return g && b?.perSecond ? g.perSecond / b.perSecond : 0;
  });
  const out = {
    bench: "room",
    params,
    bare: { msgsPerSec: rate("bare"), cpuUsPerMsg: cpuPer("bare") },
    game: {
      movesPerSec: rate("game"), cpuUsPerMove: cpuPer("game"), gamesFinished: sum("game", (p) => p.games), stalls: sum("game", (p) => p.stalls),
      refused: phases.filter((p) => p.kind === "game").reduce((a, p) => a + Object.values(p.refused).reduce((x, y) => x + y, 0), 0),
    },
    ratioGameToBare: round(median(ratios), 3),
    ratiosPerRound: ratios.map((r) => round(r, 3)),
    cpuRatioGameToBare: round(cpuPer("game") / Math.max(0.001, cpuPer("bare")), 2),
    memory: mem,
    phases,
  };
  console.log(table(
    `Room throughput: ${params.games} rooms x 2 clients, ${params.seconds} s per phase, load generator in a second process`,
    ["phase", "acked/s", "server us/msg", "server cpu", "client cpu", "p50 ms", "p99 ms", "games", "stalls", "refused"],
    rows,
  ));
  console.log();
  console.log(table("Summary", ["", "value"], [
    ["bare room, acked msgs/s", out.bare.msgsPerSec],
    ["game room, moves/s", out.game.movesPerSec],
    ["ratio game/bare (median of rounds)", out.ratioGameToBare],
    ["server CPU us per bare msg", out.bare.cpuUsPerMsg],
    ["server CPU us per move", out.game.cpuUsPerMove],
    ["CPU ratio game/bare", out.cpuRatioGameToBare],
  ]));
  console.log();
  if (mem) console.log(table(`Server memory (deltas after gc, K = ${mem.games})`, ["what", "heap KB", "RSS KB"], [
    ["per active game (REST-created, no connection)", mem.gameHeapKB, mem.gameRssKB],
    ["per WebSocket connection to a game", mem.connHeapKB, mem.connRssKB],
    ["per active game with both seats connected", round(mem.gameHeapKB + 2 * mem.connHeapKB, 1), round(mem.gameRssKB + 2 * mem.connRssKB, 1)],
    ["per bare room with two clients", mem.bareRoomHeapKB, mem.bareRoomRssKB],
  ]));
  console.log(JSON.stringify(out));
}

// ---- the load generator (child process) ---------------------------------------------------------

interface Counters { acked: number; games: number; stalls: number; refused: Record<string, number>; cpuUs: number; p50Ms: number; p99Ms: number }

async function runClient() {
  const url = argv.get("url")!;
  const http = new HttpClient(url, 64);
  const sdk = new Client(url);
  let stats: PlayStats = newStats(true);
  let games = 0;
  let stalls = 0;
  let running = false;
  let loops: Promise<void>[] = [];
  const live = new Set<{ leave(): Promise<unknown> }>();
  const memGames: FriendGame[] = [];
  const memRooms: ClientRoom[] = [];
  const memGameRooms: Array<{ room: ClientRoom; seat: Seat }> = [];

  async function gameLoop(i: number, ready: () => void) {
    let first = true;
    while (running) {
      let players: SeatPlayer[] = [];
      try {
        const g = await openFriendGame(http, `g${i}`);
        if (!running) break;
        players = await Promise.all((["A", "B"] as const).map((seat) => SeatPlayer.join(sdk, g.gameId, g.tokens[seat], seat, stats)));
        players.forEach((p) => live.add(p));
        if (first) (ready(), (first = false));
        let timer: NodeJS.Timeout | undefined;
        const stall = new Promise<"stall">((r) => (timer = setTimeout(() => r("stall"), 15_000)));
        const outcome = await Promise.race([Promise.all(players.map((p) => p.finished)), stall]);
        clearTimeout(timer);
        if (outcome === "stall") stalls++;
        else if (outcome.every((o) => o === "finished")) games++;
      } catch (e) {
        if (running) {
          process.stderr.write(`game loop ${i}: ${e instanceof Error ? e.message : String(e)}\n`);
          await sleep(200);
        }
      } finally {
        await Promise.all(players.map(async (p) => (live.delete(p), p.leave())));
        if (first) (ready(), (first = false));
      }
    }
  }

  async function bareLoop(ready: () => void) {
    const a = await sdk.create("bare");
    const b = await sdk.joinById(a.roomId);
    const pair = [a, b];
    pair.forEach((r) => live.add(r));
    let turn = 0;
    let sentTime = 0;
    await new Promise<void>((resolve) => {
      for (const r of pair) {
        r.onMessage("ack", () => {
          stats.acked++;
          stats.latencies?.push(nowMs() - sentTime);
          if (!running) return resolve();
          turn ^= 1;
          sentTime = nowMs();
          pair[turn].send("inc", stats.acked);
        });
        r.onLeave(() => resolve());
      }
      sentTime = nowMs();
      a.send("inc", 0);
      ready();
    });
    for (const r of pair) (live.delete(r), await r.leave(true).catch(() => undefined));
  }

  serveParent(async (m) => {
    switch (m.type) {
      case "hello":
        return {};
      case "start": {
        stats = newStats(true);
        running = true;
        const n = Number(m.n);
        const readies: Promise<void>[] = [];
        loops = [];
        for (let i = 0; i < n; i++) {
          let ready!: () => void;
          readies.push(new Promise<void>((r) => (ready = r)));
          loops.push((m.kind === "bare" ? bareLoop(ready) : gameLoop(i, ready)).catch((e) => {
            process.stderr.write(`loop ${i}: ${e instanceof Error ? e.message : String(e)}\n`);
            ready();
          }));
          if (i % 10 === 9) await sleep(5); // spread the connection burst a little
        }
        await Promise.all(readies);
        return {};
      }
      case "mark": {
        const c: Counters = { acked: stats.acked, games, stalls, refused: { ...stats.refused }, cpuUs: cpuSince({ user: 0, system: 0 }), p50Ms: 0, p99Ms: 0 };
        if (m.latencies && stats.latencies) {
          const l = stats.latencies.sort((x, y) => x - y);
          c.p50Ms = l[Math.floor(l.length * 0.5)] ?? 0;
          c.p99Ms = l[Math.min(l.length - 1, Math.floor(l.length * 0.99))] ?? 0;
        }
        if (stats.latencies) stats.latencies = []; // latencies cover the measured window only
        if (stats.refusalSamples.length) process.stderr.write(`refusals seen: ${stats.refusalSamples.join(" | ")}\n`), (stats.refusalSamples = []);
        return { ...c };
      }
      case "stop": {
        running = false;
        await Promise.race([Promise.all(loops), sleep(20_000)]);
        await Promise.all([...live].map((p) => p.leave().catch(() => undefined)));
        live.clear();
        return {};
      }
      case "mem-games": {
        const k = Number(m.k);
        for (let i = 0; i < k; i += 8) {
          const batch = await Promise.all(Array.from({ length: Math.min(8, k - i) }, (_, j) => openFriendGame(http, `m${i + j}`)));
          memGames.push(...batch);
        }
        return {};
      }
      case "mem-conns": {
        for (let i = 0; i < memGames.length; i += 8) {
          const batch = memGames.slice(i, i + 8);
          await Promise.all(batch.flatMap((g) => (["A", "B"] as const).map(async (seat) => memGameRooms.push({ room: await sdk.joinById(g.gameId, { playerToken: g.tokens[seat] }), seat }))));
        }
        await sleep(200);
        return {};
      }
      case "mem-bare": {
        const k = Number(m.k);
        for (let i = 0; i < k; i++) {
          const a = await sdk.create("bare");
          memRooms.push(a, await sdk.joinById(a.roomId));
        }
        await sleep(200);
        return {};
      }
      case "mem-release": {
        // Resign the memory games (so their rooms finish and are released), then close every connection.
        for (const { room, seat } of memGameRooms) if (seat === "A") room.send("resign");
        await sleep(300);
        await Promise.all([...memGameRooms.map((r) => r.room), ...memRooms].map((r) => r.leave(true).catch(() => undefined)));
        memGameRooms.length = 0;
        memRooms.length = 0;
        memGames.length = 0;
        return {};
      }
      default:
        throw new Error(`unknown command ${m.type}`);
    }
  });
}

if (ROLE === "client") void runClient();
else
  runServer().catch((e) => {
    console.error(e instanceof Error ? e.stack : e);
    process.exit(1);
  });
