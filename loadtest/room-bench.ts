/**
 * The room core's capacity, beside a bare Colyseus room and boardgame.io, in one run on one machine.
 *
 *   npm run bench:room [-- --games 50 --seconds 10 --rounds 2 --mem-games 200 --warmup 2
 *                          --capacity-max 10000 --capacity-from 0 --capacity-seconds 10 --capacity-threads 2 --capacity-seat-ms 5000 --capacity-ramp-seconds 40
 *                          --capacity-of game|floor|stock --stock-patches timer|change
 *                          --commit-window <server default> --ws-join reservation|joinById
 *                          --idle-games 10000 --idle-seconds 60 --idle-settle-seconds 60 --client-nice 0
 *                          --only KIND --synchronous NORMAL --profile --cpu-profile DIR --heap-snapshots DIR]
 *
 * This process hosts the servers (the real composition root on a SQLite file with synchronous=FULL unless
 * --synchronous NORMAL, a bare room on the same matchmaker, and boardgame.io's own server); the load
 * generator is this same file forked as a second process on the same cores, so process.cpuUsage() holds the
 * servers' work only. Throughput phases use N rooms x 2 clients taking turns, alternating per round:
 *   - bare: a room that increments a schema counter and acks the sender;
 *   - state: the game's replicated state in a room without the service (loadtest/lib/state-room.ts): each
 *     message plays the next legal move, projects it and sends its one patch, then acks the sender;
 *   - game: friend games created and joined over REST, both seats on WebSocket, each playing a legal move
 *     when the synced state says it is its turn; a finished game is left and the pair starts a new one
 *     (set-up inside the window: moves/s as in real play);
 *   - setup: the same set-up (create, join, two WebSocket joins) finished at once by a resignation, no move
 *     (which aborts the game, unrated, since no card was placed):
 *     server CPU per set-up. Server CPU per steady-state move = (game CPU - games x set-up CPU) / moves;
 *   - baresetup: the bare room's own set-up, its floor on this matchmaker: one client creates a room through
 *     the matchmaker, a second joins it by id, one message is acknowledged, both leave and the room disposes;
 *   - stock: the engine's floor, a turn game on a stock Colyseus server in a process of its own (default
 *     transport, no project middleware; loadtest/lib/stock-colyseus.ts), played and replaced as the game
 *     phase is: created, joined by id, 16 alternating moves each acknowledged by a hand message, both leave;
 *     priced by that process's CPU. The game's per-move and per-game figures are printed beside it;
 *   - stockdurable: the durable floor, the stock game with each move stored before it is acknowledged (one
 *     write of the project's group commit on a SQLite file: synchronous=FULL, WAL, the writer thread) in a
 *     process of its own, played and replaced as the stock game, priced by that process's CPU: the floor less
 *     the stock game is what durability costs a move; the game all-in over the floor is everything else;
 *   - bgio: boardgame.io 0.50, a 4x4 placement game, two socket.io clients per match created and joined
 *     through its lobby API, in-memory storage (loadtest/lib/bgio.ts).
 * Then: the game actor alone (src/services/games/actor/game-actor.ts without transport or store: loadtest/lib/actor-alone.ts), in
 * this process, beside the whole room's steady-state move; durability cost (the group commit with FULL and NORMAL, loadtest/lib/commit-cost.ts); memory (RSS
 * and heap deltas after gc for K active games, their 2K connections, K bare rooms and K state rooms with two
 * clients each, after a warm-up of a few of each);
 * capacity (N games, each seat moving every 5 s spread evenly, set-ups of the games replacing finished ones
 * included, N stepped up until a step does not hold: p99 round trip over 100 ms, a refusal or an error; the
 * largest N that held, and the server's CPU beside it; with --capacity-of floor, the same pace and steps played
 * on the durable floor's stock turn game instead, priced by its process's CPU: what the engine underneath,
 * storing each move, holds on this machine; --capacity-of stock, the stock game without the durable write;
 * --stock-patches change, the stock rooms with the game's patch policy: no patch timer, a patch per move);
 * idle cost (K games open, half waiting for their second seat and half mid-game after 8 moves over REST, no socket open, no moves: server CPU over --idle-seconds, memory per
 * game and the server process's whole RSS). Prints tables, then one JSON line. Bounded by a watchdog.
 *
 * --profile: the game phase's windows run under V8's CPU sampler (in this process), and the main thread's
 * self time is printed by module (engine, schema encode, socket/ws, store, timers, logging, metrics, colyseus
 * core, express, ...) with the top functions (loadtest/lib/cpuprofile-groups.ts; loadtest/profile-report.ts
 * reads saved .cpuprofile files the same way). A profiled run's CPU figures are not comparable with others.
 */
import { WebSocket as WsWebSocket } from "ws";
(globalThis as { WebSocket?: unknown }).WebSocket ??= WsWebSocket;

import { matchMaker, Room, type Client as ServerClient } from "@colyseus/core";
import { schema, t } from "@colyseus/schema";
import { Client, type Room as ClientRoom } from "@colyseus/sdk";
import {
  args,
  Child,
  cpuSince,
  freePort,
  HttpClient,
  joinSeat,
  measureWindow,
  median,
  num,
  nowMs,
  openFriendGame,
  percentile,
  round,
  serveParent,
  serverCpuFrom,
  settledMemory,
  sleep,
  table,
  watchdog,
  type FriendGame,
  type MemSample,
  type Message,
  type Seat,
} from "./lib/common";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import v8 from "node:v8";
import { playBgioMatch, startBgioServer } from "./lib/bgio";
import { commitCosts, type CommitCost } from "./lib/commit-cost";
import { CommitTimer, LatencyRecorder, type CommitLatency } from "./lib/commit-latency";
import { LoopMonitor, STALL_MS, type LoopHealth, type StallSplit } from "./lib/loop-health";
import { Generator, type GeneratorMark } from "./lib/generator";
import { profileFile, profileWindow, profileWindowsInto } from "./lib/profile";
import { breakdown, breakdownTables, readProfile, type ProfileBreakdown } from "./lib/cpuprofile-groups";
import { newStats, SeatPlayer, type PlayStats } from "./lib/player";
import { startBenchServer } from "./lib/server";
import { STOCK_MOVES, STOCK_ROOM, STOCK_SQUARES, StockServer } from "./lib/stock-colyseus";
import { StateRoom } from "./lib/state-room";
import { measureActorAlone, type ActorAlone } from "./lib/actor-alone";
import { GAME_ROOM } from "../src/services/games/room-access";
import type { Store } from "../src/store";
import type { SqliteStore } from "../src/store/sqlite";
import type { WriterStats } from "../src/store/sqlite/writer";
import { corkForThisTurn } from "../src/edges/transport";
import { NO_PATCH_TIMER } from "../rooms/game-room";

const argv = args();
/**
 * How a game's seats connect their WebSockets (`--ws-join`): with the seat reservations of their create and
 * join answers (`reserveSeat`, the default), or each by its own matchmaking request (`joinById`).
 */
const WS_JOIN = argv.get("ws-join") === "joinById" ? "joinById" : "reservation";
const ROLE = argv.get("role") ?? "server";
/**
 * The load generators' nice value (`--client-nice`, 0 by default: the same priority as the server). With 10
 * the server gets a core first when it and a generator both want one, as with clients on other machines.
 */
const CLIENT_NICE = argv.has("client-nice") ? num(argv, "client-nice", 0, 0, 19) : 0;

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

/**
 * The bare room sending one patch per message, as the game room does per move (no patch timer; the patch
 * and the acknowledgement leave in one write): the part of a move's cost no game design can remove.
 */
export class BarePatchRoom extends Room<{ state: InstanceType<typeof BareState> }> {
  override state = new BareState();
  override onCreate() {
    this.maxClients = 2;
    this.patchRate = NO_PATCH_TIMER;
    this.onMessage("inc", (client: ServerClient, seq: unknown) => {
      this.state.count++;
      corkForThisTurn(this.clients);
      this.broadcastPatch();
      client.send("ack", seq);
    });
  }
}

// ---- the server process -------------------------------------------------------------------------

type Kind = "bare" | "barepatch" | "state" | "game" | "setup" | "baresetup" | "stock" | "stockdurable" | "bgio";
const KINDS: Kind[] = ["bare", "barepatch", "state", "game", "setup", "baresetup", "stock", "stockdurable", "bgio"];
/** The kinds played on a stock Colyseus server in a process of its own, priced by that process's CPU. */
const STOCK_KINDS: ReadonlySet<Kind> = new Set(["stock", "stockdurable"]);
interface PhaseResult {
  kind: Kind;
  round: number;
  seconds: number;
  acked: number;
  perSecond: number;
  cpuUsPerMsg: number;
  serverCpuPct: number;
  clientCpuPct: number;
  games: number;
  stalls: number;
  refused: Record<string, number>;
  p50Ms: number;
  p99Ms: number;
}

async function runServer() {
  const GAMES = num(argv, "games", 50, 1, 2000);
  const SECONDS = num(argv, "seconds", 10, 1, 600);
  const ROUNDS = num(argv, "rounds", 2, 1, 20);
  const MEM_GAMES = num(argv, "mem-games", 200, 0, 5000);
  /** For profiling one side: --only game | bare | state | setup | baresetup | stock | stockdurable | bgio (ratios are then not reported). */
  const ONLY = argv.get("only") as Kind | undefined;
  const WARMUP = num(argv, "warmup", 2, 0, 30);
  const CAP_MAX = num(argv, "capacity-max", 10_000, 0, 50_000);
  const CAP_SECONDS = num(argv, "capacity-seconds", 10, 1, 120);
  /** Seconds over which each capacity step opens its new games (a game's lifetime at this pace: see lib/light-games.ts). */
  const CAP_RAMP = num(argv, "capacity-ramp-seconds", 40, 0, 600);
  /** The light load generator's worker threads for the capacity phase (each holds its share of the games). */
  const CAP_THREADS = num(argv, "capacity-threads", 2, 1, 16);
  /** How often each seat moves in the capacity phase (5 s in the targets; shorter in smoke runs, so games end and are replaced). */
  const CAP_SEAT_MS = num(argv, "capacity-seat-ms", 5000, 100, 60_000);
  /** Skips the steps below this many games (to profile or re-measure one step); the steps above it are run as usual. */
  const CAP_FROM = num(argv, "capacity-from", 0, 0, 50_000);
  /** Whose capacity: this server's game (the target), or at the same pace the durable floor's or the stock game. */
  const capOf = argv.get("capacity-of");
  const CAP_OF: CapOf = capOf === "floor" || capOf === "stock" ? capOf : "game";
  /** The stock rooms' patches: Colyseus' default timer (20 a second), or one after each move with no timer, as the game's rooms. */
  const patchOnChange = argv.get("stock-patches") === "change";
  const IDLE_GAMES = num(argv, "idle-games", 10_000, 0, 50_000);
  const IDLE_SECONDS = num(argv, "idle-seconds", 60, 1, 600);
  /** The most the idle phase waits for earlier phases' game rooms to be released before its baseline. */
  const IDLE_SETTLE = num(argv, "idle-settle-seconds", 60, 0, 300);
  const SYNC = argv.get("synchronous") === "NORMAL" ? "NORMAL" : "FULL";
  /** The server's COMMIT_WINDOW_MS (its default unless given). */
  const COMMIT_WINDOW = argv.has("commit-window") ? num(argv, "commit-window", 0, 0, 50) : undefined;
  /** A folder to write the server's heap snapshots into at each step of the memory phase (for DevTools). */
  const SNAPSHOTS = argv.get("heap-snapshots");
  const kinds = KINDS.filter((k) => !ONLY || ONLY === k);
  /**
   * `--profile`: a CPU profile of the game phase's measured windows (in-process, V8's sampler), read back as
   * the main thread's self time by module and its top functions (lib/cpuprofile-groups.ts). Into a temporary
   * folder unless --cpu-profile DIR is given too (which then profiles every window, as without --profile).
   */
  const PROFILE = argv.has("profile");
  const profileDir = argv.get("cpu-profile") ?? (PROFILE ? mkdtempSync(join(tmpdir(), "room-bench-profile-")) : undefined);
  profileWindowsInto(profileDir, argv.has("cpu-profile") ? {} : { only: (label) => label.startsWith("game-round"), heap: false });
  const budgetMs =
    ((ROUNDS + 1) * kinds.length * (SECONDS + WARMUP + 30) +
      120 +
      MEM_GAMES * 0.2 +
      CAP_MAX * 0.05 +
      12 * (CAP_RAMP + CAP_SECONDS + 5) +
      IDLE_GAMES * 0.05 +
      IDLE_SECONDS +
      IDLE_SETTLE +
      600) *
    1000;
  watchdog(budgetMs, "room-bench");

  const dir = mkdtempSync(join(tmpdir(), "room-bench-"));
  // Errors are logged (JSON lines on stdout; the report is the line that starts with {"bench").
  const fsyncs = new LatencyRecorder();
  const server = await startBenchServer(
    {
      database: join(dir, "arena.sqlite"),
      sqliteSynchronous: SYNC,
      logLevel: "error",
      ...(COMMIT_WINDOW === undefined ? {} : { commitWindowMs: COMMIT_WINDOW }),
    },
    { onFsync: (seconds) => fsyncs.recordSeconds(seconds) },
  );
  matchMaker.defineRoomType("bare", BareRoom);
  matchMaker.defineRoomType("barepatch", BarePatchRoom);
  matchMaker.defineRoomType("state", StateRoom);
  const sqlite = server.store as Store & Partial<Pick<SqliteStore, "writerStats">>;
  const commits = { batches: new CommitTimer(server.store.games), fsyncs, writer: () => sqlite.writerStats?.() ?? { batches: 0, writes: 0 } };
  const bgio = kinds.includes("bgio") ? await startBgioServer() : null;
  const capacityOn = CAP_MAX > 0 ? CAP_OF : null;
  const stock = kinds.includes("stock") || capacityOn === "stock" ? await StockServer.start(await freePort(), { patchOnChange }) : null;
  // The durable floor: the stock game storing each move on a SQLite file with the server's settings, in a process of its own.
  const stockDurable =
    kinds.includes("stockdurable") || capacityOn === "floor"
      ? await StockServer.start(await freePort(), { database: join(dir, "floor.sqlite"), syncIntervalMs: server.config.commitWindowMs, patchOnChange })
      : null;
  const stockServers: Partial<Record<Kind, StockServer>> = { ...(stock ? { stock } : {}), ...(stockDurable ? { stockdurable: stockDurable } : {}) };
  const child = new Child(
    __filename,
    [
      "--url",
      server.url,
      "--ws-join",
      WS_JOIN,
      ...(bgio ? ["--bgio", bgio.url] : []),
      ...(stock ? ["--stock", stock.url] : []),
      ...(stockDurable ? ["--stock-durable", stockDurable.url] : []),
    ],
    CLIENT_NICE,
  );
  try {
    await child.ask({ type: "hello" }, "hello:done", 30_000);

    // 1. durability cost, then memory, on a fresh process
    const commit = await commitCosts(GAMES, 200);
    const mem = MEM_GAMES > 0 ? await measureMemory(child, MEM_GAMES, SNAPSHOTS) : null;

    // 2. throughput, phases rotating per round
    const phases: PhaseResult[] = [];
    // An unreported pass of each kind first: the first seconds of any path run before the JIT is warm.
    // The stock games' servers are processes of their own: their windows are priced by those processes' CPU.
    const cpuOf = (kind: Kind) => {
      const own = stockServers[kind];
      return own ? () => own.cpuUs() : undefined;
    };
    for (const kind of kinds) await runPhase(child, kind, -1, GAMES, WARMUP, 0, cpuOf(kind));
    for (let r = 0; r < ROUNDS; r++) {
      const order = kinds.map((_, i) => kinds[(i + r) % kinds.length]);
      for (const kind of order) phases.push(await runPhase(child, kind, r, GAMES, SECONDS, WARMUP, cpuOf(kind)));
    }

    const profile = PROFILE && profileDir ? gameProfile(profileDir, phases) : null;

    // The game actor alone (no transport, no store), in this process while the servers are idle.
    const actor = await measureActorAlone(GAMES, SECONDS, WARMUP);

    // 3. capacity, 4. idle cost (last: its games stay open until the process exits)
    const capacity =
      CAP_MAX > 0
        ? await measureCapacity(
            child,
            { max: CAP_MAX, from: CAP_FROM, seconds: CAP_SECONDS, rampSeconds: CAP_RAMP, threads: CAP_THREADS, seatPeriodMs: CAP_SEAT_MS },
            capacityServer(CAP_OF, commits, { floor: stockDurable, stock }),
          )
        : null;
    const idle = IDLE_GAMES > 0 ? await measureIdle(child, IDLE_GAMES, IDLE_SECONDS, IDLE_SETTLE) : null;

    report(
      phases,
      { commit, mem, capacity, idle, actor, profile },
      {
        games: GAMES,
        seconds: SECONDS,
        rounds: ROUNDS,
        memGames: MEM_GAMES,
        synchronous: SYNC,
        commitWindowMs: server.config.commitWindowMs,
        wsJoin: WS_JOIN,
        clientNice: CLIENT_NICE,
      },
    );
  } finally {
    await child.close().catch(() => undefined);
    bgio?.close();
    await stock?.close().catch(() => undefined);
    await stockDurable?.close().catch(() => undefined);
    await server.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
    if (PROFILE && profileDir && !argv.has("cpu-profile")) rmSync(profileDir, { recursive: true, force: true });
  }
  process.exit(0);
}

/** The game phase's measured windows' CPU profiles (every round), by module, per move played in them. */
function gameProfile(dir: string, phases: PhaseResult[]): ProfileBreakdown {
  const games = phases.filter((p) => p.kind === "game");
  const moves = games.reduce((a, p) => a + p.acked, 0);
  return breakdown(
    games.map((p) => readProfile(profileFile(dir, `game-round${p.round + 1}`))),
    moves || null,
  );
}

interface CapStep {
  games: number;
  movesPerSec: number;
  p50Ms: number;
  p99Ms: number;
  serverCpuPct: number;
  refused: number;
  held: boolean;
  /** Set-ups that failed in the window (each retried). */
  errors: number;
  /** The load generator's CPU, every thread (it shares the machine's cores with the server), and per move made. */
  clientCpuPct: number;
  clientUsPerMove: number;
  /** Games finished and replaced by new ones in the window (set-ups as in real play). */
  replaced: number;
  /** The server's CPU (every thread: fsyncs and checkpoints too) over the window per move made in it, set-ups included. */
  serverUsPerMove: number;
  /** The server's CPU per active game per second at this pace (set-ups included): N / core = 1e6 / this. */
  serverUsPerGameSecond: number;
  /** This server's storage in the window (null when a stock process is played: its store is not read). */
  store: {
    /** The group commits: how long a batch took to be stored (fsync included). */
    commit: CommitLatency;
    /** The WAL fsyncs (synchronous=FULL; none with NORMAL): how long each took on the disk. */
    fsync: CommitLatency;
    fsyncsPerSec: number;
    /** The SQLite writer thread's transactions a second, and the game writes each carried on average. */
    writerBatchesPerSec: number;
    writesPerWriterBatch: number;
  } | null;
  /** Event-loop delay and GC pauses of the server (null for a stock process) and of the load generator (its worst thread) over the step's window. */
  server: LoopHealth | null;
  client: LoopHealth;
}
/** Whose capacity a run measures: this server's game, or at the same pace the durable floor's or the stock server's turn game. */
type CapOf = "game" | "floor" | "stock";

/** This server's commit timings and its writer thread's counts, read over a capacity step. */
interface CapCommits {
  batches: CommitTimer;
  fsyncs: LatencyRecorder;
  writer: () => WriterStats;
}

/**
 * The server a capacity phase plays: this process's (its CPU, event loop and commits read here), or a stock
 * process at `url`, the durable floor's or the stock game's (its CPU asked of it; its loop and commits are not read).
 */
type CapServer = { of: "game"; commits: CapCommits } | { of: "floor" | "stock"; url: string; cpuUs: () => Promise<number> };

/** This server's storage over a capacity step's window of `elapsed` seconds, from the writer's counts at its start. */
function storeWindow(commits: CapCommits, w0: WriterStats, elapsed: number): NonNullable<CapStep["store"]> {
  const fsync = commits.fsyncs.read();
  const w1 = commits.writer();
  return {
    commit: commits.batches.read(),
    fsync,
    fsyncsPerSec: round(fsync.count / elapsed, 0),
    writerBatchesPerSec: round((w1.batches - w0.batches) / elapsed, 0),
    writesPerWriterBatch: round((w1.writes - w0.writes) / Math.max(1, w1.batches - w0.batches), 2),
  };
}

/** What a capacity phase's step titles say it played. */
const CAP_TITLES: Record<CapOf, string> = {
  game: "",
  floor: " of the durable floor (the stock turn game storing each move)",
  stock: " of the stock Colyseus turn game (no durable write)",
};

/** The server the capacity phase plays: this process's game, or one of the stock processes already started for it. */
function capacityServer(of: CapOf, commits: CapCommits, started: Record<"floor" | "stock", StockServer | null>): CapServer {
  if (of === "game") return { of, commits };
  const own = started[of]!;
  return { of, url: own.url, cpuUs: () => own.cpuUs() };
}

interface CapOptions {
  max: number;
  from: number;
  seconds: number;
  rampSeconds: number;
  threads: number;
  seatPeriodMs: number;
}
interface CapResult {
  of: CapOf;
  steps: CapStep[];
  largestHeld: number;
  limit: string;
  seatPeriodMs: number;
  threads: number;
  /** The generator's and the server's CPU at the largest N that held (the first step when none held), and the server's CPU per game-second there. */
  atLargest: { games: number; held: boolean; clientCpuPct: number; serverCpuPct: number; serverUsPerGameSecond: number } | null;
  /** The generator's totals over the whole phase (every step, warm-ups included). */
  total: { moves: number; replaced: number; refused: number; errors: number; dropped: number };
}

/** The capacity sizes: doubling from 250 to 1,000, then 500 more a step to 2,000, 1,000 more to 4,000, 2,000 more, then the maximum. */
function capacitySizes(max: number, from: number): number[] {
  const sizes: number[] = [];
  for (let n = 250; n < max; n = n < 1000 ? n * 2 : n < 2000 ? n + 500 : n < 4000 ? n + 1000 : n + 2000) if (n >= from) sizes.push(n);
  sizes.push(max);
  return sizes;
}

type CapMark = Message & GeneratorMark & { cpuUs: number };

/** A capacity step holds when its p99 round trip is at most this and nothing was refused or failed (the room core's bar). */
const CAP_P99_MS = 100;
/** The room core's capacity targets: games in one process, and server CPU per game-second there. */
const CAP_TARGET_GAMES = 5000;
const CAP_TARGET_US_PER_GAME_SECOND = 150;

/**
 * N stepped up until the p99 round trip or the server's CPU gives. The games are driven by the light load
 * generator (loadtest/lib/generator.ts) in the phases' load-generator process: `threads` worker threads
 * speaking Colyseus' protocol directly, each holding its share of the games; its CPU is that process's.
 */
async function measureCapacity(child: Child, o: CapOptions, on: CapServer): Promise<CapResult> {
  // This process's event loop and store are read only when it is the server played.
  const commits = on.of === "game" ? on.commits : null;
  const steps: CapStep[] = [];
  let limit = `reached --capacity-max ${o.max}`;
  const loop = new LoopMonitor();
  let last: CapMark | null = null;
  try {
    const start = { type: "cap-start", threads: o.threads, seatPeriodMs: o.seatPeriodMs, ...(on.of === "game" ? {} : { table: "stock", url: on.url }) };
    await child.ask(start, "cap-start:done", 30_000);
    for (const n of capacitySizes(o.max, o.from)) {
      try {
        await child.ask({ type: "cap-grow", n, rampMs: o.rampSeconds * 1000 }, "cap-grow:done", o.rampSeconds * 1000 + 60_000 + n * 100);
      } catch (e) {
        limit = `could not open ${n} games: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}`;
        break;
      }
      await sleep(Math.min(3000, o.seatPeriodMs * 0.6)); // more than a game's move period: every game has moved since the step began
      const cpuSinceStart = await serverCpuFrom(on.of === "game" ? undefined : on.cpuUs);
      const t0 = nowMs();
      const stopProfile = await profileWindow(`capacity-${n}`);
      const m0 = await child.ask<CapMark>({ type: "cap-mark" }, "cap-mark:done", 10_000);
      loop.reset();
      commits?.batches.reset();
      commits?.fsyncs.reset();
      const w0 = commits?.writer();
      await sleep(o.seconds * 1000);
      const cpu = await cpuSinceStart();
      const elapsed = (nowMs() - t0) / 1000;
      const server = commits ? loop.read() : null;
      const store = commits && w0 ? storeWindow(commits, w0, elapsed) : null;
      const m1 = await child.ask<CapMark>({ type: "cap-mark" }, "cap-mark:done", 10_000);
      last = m1;
      // After the window's round trips are read: writing a profile holds the loop for a while.
      await stopProfile();
      const p50Ms = percentile(m1.latencies, 50);
      const p99Ms = percentile(m1.latencies, 99);
      const serverCpuPct = round((cpu / 1e6 / elapsed) * 100, 0);
      const moves = m1.moves - m0.moves;
      const failures = m1.refused - m0.refused + (m1.errors - m0.errors);
      const held = p99Ms <= CAP_P99_MS && failures === 0 && moves > 0;
      if (m1.samples.length) process.stderr.write(`capacity ${n}: ${m1.samples.join(" | ")}\n`);
      steps.push({
        games: n,
        movesPerSec: round(moves / elapsed, 0),
        p50Ms: round(p50Ms, 2),
        p99Ms: round(p99Ms, 2),
        serverCpuPct,
        serverUsPerMove: round(cpu / Math.max(1, moves), 0),
        serverUsPerGameSecond: round(cpu / (n * elapsed), 1),
        refused: m1.refused - m0.refused,
        errors: m1.errors - m0.errors,
        held,
        server,
        client: m1.loop,
        clientCpuPct: round(((m1.cpuUs - m0.cpuUs) / 1e6 / elapsed) * 100, 0),
        clientUsPerMove: round((m1.cpuUs - m0.cpuUs) / Math.max(1, moves), 0),
        replaced: m1.replaced - m0.replaced,
        store,
      });
      if (!held) {
        limit =
          p99Ms > CAP_P99_MS
            ? `p99 round trip ${round(p99Ms, 1)} ms at ${n} games`
            : failures > 0
              ? `${failures} refused or failed moves at ${n} games`
              : `no move at ${n} games`;
        break;
      }
    }
  } finally {
    loop.stop();
    await child.ask({ type: "cap-close" }, "cap-close:done", 120_000 + o.max * 10).catch(() => undefined);
  }
  const best = steps.filter((s) => s.held).reduce<CapStep | null>((a, s) => (a && a.games >= s.games ? a : s), null);
  // With no step held, the first step's figures still price a game-second (read with its p99 beside it).
  const at = best ?? steps[0] ?? null;
  return {
    of: on.of,
    steps,
    largestHeld: best?.games ?? 0,
    limit,
    seatPeriodMs: o.seatPeriodMs,
    threads: o.threads,
    atLargest: at
      ? { games: at.games, held: at.held, clientCpuPct: at.clientCpuPct, serverCpuPct: at.serverCpuPct, serverUsPerGameSecond: at.serverUsPerGameSecond }
      : null,
    total: { moves: last?.moves ?? 0, replaced: last?.replaced ?? 0, refused: last?.refused ?? 0, errors: last?.errors ?? 0, dropped: last?.dropped ?? 0 },
  };
}

/** Waits until this process's matchmaker lists no room of `name` (or `timeoutMs` passes). */
async function roomsGone(name: string, timeoutMs: number): Promise<void> {
  const until = nowMs() + timeoutMs;
  while ((await matchMaker.query({ name })).length > 0 && nowMs() < until) await sleep(500);
}

interface IdleResult {
  games: number;
  seconds: number;
  serverCpuPct: number;
  heapKBPerGame: number;
  rssKBPerGame: number;
  /** Of the games: waiting for their second seat; the rest are mid-game (IDLE_MID_MOVES moves played over REST). */
  waiting: number;
  /** The server process's whole RSS and heap with every idle game open, in MB. */
  rssMB: number;
  heapMB: number;
  /** The server's main-thread GC pauses in the window (a heap this size is marked by V8's memory reducer once the burst of creations stops). */
  gcMs: number;
  majorGcs: number;
}

async function measureIdle(child: Child, k: number, seconds: number, settleSeconds: number): Promise<IdleResult> {
  // The capacity phase's games were resigned as it ended, and their rooms stay for the finished game's
  // grace (30 s) before they are released: a baseline read meanwhile counts them, and their release during
  // the phase would be subtracted from the idle games' memory (it read -1 KB per game).
  // Bounded by --idle-settle-seconds: a game left unfinished by a throughput phase keeps its room until its
  // turn clock runs out (120 s).
  await roomsGone(GAME_ROOM, settleSeconds * 1000);
  const m0 = await settledMemory();
  // One-hour turn clocks: with the default 120 s the first games opened run out of time inside the window
  // whenever opening them all takes more than about a minute, and a clock that runs out aborts its game
  // (a write, events), which is work, not idling.
  // Half the games wait for their second seat, half are mid-game (as a server holds them: no socket open).
  const waiting = Math.floor(k / 2);
  await child.ask({ type: "idle-games", k, waiting, moves: IDLE_MID_MOVES, turnSeconds: 3600 }, "idle-games:done", 120_000 + k * 100);
  const m1 = await settledMemory();
  const gc = new LoopMonitor({ delay: false });
  const c0 = process.cpuUsage();
  const t0 = nowMs();
  await sleep(seconds * 1000);
  const cpu = cpuSince(c0);
  const elapsed = (nowMs() - t0) / 1000;
  const { gcMs, majorGcs } = gc.read();
  gc.stop();
  return {
    games: k,
    seconds: round(elapsed, 1),
    gcMs: round(gcMs, 0),
    majorGcs,
    serverCpuPct: round((cpu / 1e6 / elapsed) * 100, 2),
    heapKBPerGame: round((m1.heapUsed - m0.heapUsed) / 1024 / k, 1),
    rssKBPerGame: round((m1.rss - m0.rss) / 1024 / k, 1),
    waiting,
    rssMB: round(m1.rss / 1024 / 1024, 0),
    heapMB: round(m1.heapUsed / 1024 / 1024, 0),
  };
}

/** Moves each mid-game idle game has played (over REST) before the idle window. */
const IDLE_MID_MOVES = 8;

async function runPhase(
  child: Child,
  kind: Kind,
  roundNo: number,
  n: number,
  seconds: number,
  warmup: number,
  serverCpuUs?: () => Promise<number>,
): Promise<PhaseResult> {
  const { cpu, elapsed, m0, m1 } = await measureWindow<Counters>(
    child,
    { type: "start", kind, n },
    60_000 + n * 500,
    seconds,
    warmup,
    `${kind}-round${roundNo + 1}`,
    serverCpuUs,
  );
  // setup, baresetup and bgio count finished games as their unit of work (a set-up; a match of 16 moves).
  const acked = m1.acked - m0.acked;
  const refused: Record<string, number> = {};
  for (const [k, v] of Object.entries(m1.refused)) if (v - (m0.refused[k] ?? 0) > 0) refused[k] = v - (m0.refused[k] ?? 0);
  return {
    kind,
    round: roundNo,
    seconds: round(elapsed, 2),
    acked,
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

/** Moves played in each memory game before the mid-game sample (half a game: 4 per seat). */
const MID_GAME_MOVES = 8;

interface MemResult {
  /** What each game grew by over MID_GAME_MOVES moves, its seats connected. */
  midGameHeapKB: number;
  midGameRssKB: number;
  games: number;
  gameHeapKB: number;
  gameRssKB: number;
  connHeapKB: number;
  connRssKB: number;
  bareRoomHeapKB: number;
  bareRoomRssKB: number;
  stateRoomHeapKB: number;
  stateRoomRssKB: number;
}

/** Games and rooms of each kind opened and connected before the memory phase's baseline (see measureMemory). */
const MEM_WARMUP = 20;

async function measureMemory(child: Child, k: number, snapshots?: string): Promise<MemResult> {
  const kb = (a: MemSample, b: MemSample, per: number) => ({
    heap: round((b.heapUsed - a.heapUsed) / 1024 / per, 1),
    rss: round((b.rss - a.rss) / 1024 / per, 1),
  });
  // Each snapshot is written after its sample (writing one allocates) and the next sample settles again.
  const snap = (name: string) => snapshots && v8.writeHeapSnapshot(join(snapshots, `room-bench-${name}.heapsnapshot`));
  if (snapshots) mkdirSync(snapshots, { recursive: true });
  // A few of each first, kept open: the code V8 compiles for the first games and rooms (bytecode, feedback,
  // optimized code; 7 to 8 KB per game at K = 200 in the heap snapshots) is then in the baseline, not
  // counted as memory per game.
  await child.ask({ type: "mem-games", k: MEM_WARMUP }, "mem-games:done", 120_000);
  await child.ask({ type: "mem-conns" }, "mem-conns:done", 120_000);
  for (const room of ["bare", "state"]) await child.ask({ type: "mem-rooms", k: MEM_WARMUP, room }, "mem-rooms:done", 120_000);
  const m0 = await settledMemory();
  snap("0-start");
  await child.ask({ type: "mem-games", k }, "mem-games:done", 120_000);
  const m1 = await settledMemory();
  snap("1-games");
  await child.ask({ type: "mem-conns" }, "mem-conns:done", 120_000);
  const m2 = await settledMemory();
  snap("2-connected");
  await child.ask({ type: "mem-rooms", k, room: "bare" }, "mem-rooms:done", 120_000);
  const m3 = await settledMemory();
  snap("3-bare");
  await child.ask({ type: "mem-rooms", k, room: "state" }, "mem-rooms:done", 120_000);
  const m4 = await settledMemory();
  snap("4-state");
  // Mid-game: 8 moves (4 per seat) in each measured game, its seats still connected.
  await child.ask({ type: "mem-play", from: MEM_WARMUP, moves: MID_GAME_MOVES }, "mem-play:done", 120_000 + k * 200);
  const m5 = await settledMemory();
  snap("5-mid-game");
  await child.ask({ type: "mem-release" }, "mem-release:done", 120_000);
  const game = kb(m0, m1, k);
  const conn = kb(m1, m2, 2 * k);
  const bare = kb(m2, m3, k);
  const state = kb(m3, m4, k);
  const mid = kb(m4, m5, k);
  return {
    midGameHeapKB: mid.heap,
    midGameRssKB: mid.rss,
    games: k,
    gameHeapKB: game.heap,
    gameRssKB: game.rss,
    connHeapKB: conn.heap,
    connRssKB: conn.rss,
    bareRoomHeapKB: bare.heap,
    bareRoomRssKB: bare.rss,
    stateRoomHeapKB: state.heap,
    stateRoomRssKB: state.rss,
  };
}

interface Extras {
  commit: CommitCost[];
  mem: MemResult | null;
  capacity: CapResult | null;
  idle: IdleResult | null;
  actor: ActorAlone;
  /** With --profile: the game windows' main-thread self time by module. */
  profile: ProfileBreakdown | null;
}

function report(phases: PhaseResult[], x: Extras, params: Record<string, number | string>) {
  const rows = phases.map((p) => [
    `${p.kind} (round ${p.round + 1})`,
    p.perSecond,
    p.cpuUsPerMsg,
    `${p.serverCpuPct}%`,
    `${p.clientCpuPct}%`,
    p.p50Ms,
    p.p99Ms,
    p.kind === "game" || p.kind === "bgio" || STOCK_KINDS.has(p.kind) ? p.games : "-",
    p.kind === "game" ? p.stalls : "-",
    Object.entries(p.refused)
      .map(([k, v]) => `${k}:${v}`)
      .join(" ") || "0",
  ]);
  const of = (kind: Kind) => phases.filter((p) => p.kind === kind);
  const sum = (kind: Kind, f: (p: PhaseResult) => number) => of(kind).reduce((a, p) => a + f(p), 0);
  const rate = (kind: Kind) =>
    round(
      sum(kind, (p) => p.acked) /
        Math.max(
          0.001,
          sum(kind, (p) => p.seconds),
        ),
      0,
    );
  const cpuPer = (kind: Kind) =>
    round(
      sum(kind, (p) => p.cpuUsPerMsg * p.acked) /
        Math.max(
          1,
          sum(kind, (p) => p.acked),
        ),
      1,
    );
  const rounds = [...new Set(phases.map((p) => p.round))];
  const inRound = (r: number, kind: Kind) => phases.find((p) => p.round === r && p.kind === kind);
  const perRound = (f: (r: number) => number | null) => rounds.map(f).filter((v): v is number => v !== null && Number.isFinite(v));
  // Steady state: the game phase's CPU less its set-ups (priced by the same round's setup phase), per move.
  const steady = perRound((r) => {
    const g = inRound(r, "game");
    const s = inRound(r, "setup");
    return g && s && g.acked ? (g.cpuUsPerMsg * g.acked - g.games * s.cpuUsPerMsg) / g.acked : null;
  });
  const ratio = (a: Kind, b: Kind) =>
    perRound((r) => {
      const x = inRound(r, a);
      const y = inRound(r, b);
      return x && y?.perSecond ? x.perSecond / y.perSecond : null;
    });
  const steadyUs = round(median(steady), 1);
  const bareUs = cpuPer("bare");
  const stateUs = cpuPer("state");
  const barePatchUs = cpuPer("barepatch");
  const memory = x.mem ? memoryFigures(x.mem) : null;
  /** Server CPU per finished game, all-in: a phase's CPU over the games it finished. */
  const cpuPerGame = (kind: Kind) =>
    round(
      sum(kind, (p) => p.cpuUsPerMsg * p.acked) /
        Math.max(
          1,
          sum(kind, (p) => p.games),
        ),
      0,
    );
  const stockUs = cpuPer("stock");
  const floorUs = cpuPer("stockdurable");
  const gameUs = cpuPer("game");
  /** a / b, or 0 when either phase was not run (the targets then read "-"). */
  const cpuRatioOf = (a: number, b: number) => (a && b ? round(a / b, 2) : 0);
  /** Per round: the game's CPU per move all-in over another phase's of the same round (their spread). */
  const cpuRatio = (a: Kind, b: Kind) =>
    perRound((r) => {
      const x = inRound(r, a);
      const y = inRound(r, b);
      return x && y?.cpuUsPerMsg ? x.cpuUsPerMsg / y.cpuUsPerMsg : null;
    }).map((v) => round(v, 2));
  const durability = {
    stockCpuUsPerMove: stockUs,
    floorCpuUsPerMove: floorUs,
    gameCpuUsPerMove: gameUs,
    /** What storing each move durably adds to the stock game: the floor's CPU per move less the stock game's. */
    durableWriteCpuUsPerMove: floorUs && stockUs ? round(floorUs - stockUs, 1) : 0,
    gameToFloor: cpuRatioOf(gameUs, floorUs),
    gameToStock: cpuRatioOf(gameUs, stockUs),
    floorToStock: cpuRatioOf(floorUs, stockUs),
    gameToFloorPerRound: cpuRatio("game", "stockdurable"),
    gameToStockPerRound: cpuRatio("game", "stock"),
  };
  const out = {
    bench: "room",
    params,
    bare: { msgsPerSec: rate("bare"), cpuUsPerMsg: bareUs },
    barePatch: { msgsPerSec: rate("barepatch"), cpuUsPerMsg: barePatchUs, ratioToBare: round(barePatchUs / Math.max(0.001, bareUs), 2) },
    state: { msgsPerSec: rate("state"), cpuUsPerMsg: stateUs, ratioToBare: round(stateUs / Math.max(0.001, bareUs), 2) },
    game: {
      movesPerSec: rate("game"),
      cpuUsPerMove: cpuPer("game"),
      steadyCpuUsPerMove: steadyUs,
      setupCpuUsPerGame: cpuPer("setup"),
      bareSetupCpuUs: cpuPer("baresetup"),
      setupRatioToBare: round(cpuPer("setup") / Math.max(0.001, cpuPer("baresetup")), 2),
      gamesFinished: sum("game", (p) => p.games),
      stalls: sum("game", (p) => p.stalls),
      refused: of("game").reduce((a, p) => a + Object.values(p.refused).reduce((u, v) => u + v, 0), 0),
    },
    bgio: { movesPerSec: rate("bgio"), cpuUsPerMove: cpuPer("bgio"), matchesFinished: sum("bgio", (p) => p.games) },
    stock: { movesPerSec: rate("stock"), cpuUsPerMove: stockUs, cpuUsPerGame: cpuPerGame("stock"), gamesFinished: sum("stock", (p) => p.games) },
    stockDurable: {
      movesPerSec: rate("stockdurable"),
      cpuUsPerMove: floorUs,
      cpuUsPerGame: cpuPerGame("stockdurable"),
      gamesFinished: sum("stockdurable", (p) => p.games),
      refused: of("stockdurable").reduce((a, p) => a + Object.values(p.refused).reduce((u, v) => u + v, 0), 0),
    },
    durability,
    gameAllIn: { cpuUsPerMove: gameUs, cpuUsPerGame: cpuPerGame("game") },
    actorAlone: x.actor,
    cpuRatioGameToStock: durability.gameToStock,
    cpuRatioGameToFloor: durability.gameToFloor,
    cpuPerGameRatioToStock: round(cpuPerGame("game") / Math.max(0.001, cpuPerGame("stock")), 2),
    ratioGameToBare: round(median(ratio("game", "bare")), 3),
    ratiosPerRound: ratio("game", "bare").map((r) => round(r, 3)),
    cpuRatioGameToBare: round(cpuPer("game") / Math.max(0.001, bareUs), 2),
    steadyCpuRatioToBare: round(steadyUs / Math.max(0.001, bareUs), 2),
    steadyCpuRatioToState: round(steadyUs / Math.max(0.001, stateUs), 2),
    steadyCpuRatioToBarePatch: round(steadyUs / Math.max(0.001, barePatchUs), 2),
    ratioGameToBgio: round(median(ratio("game", "bgio")), 2),
    commit: x.commit,
    memory: x.mem && memory ? { ...x.mem, ...memory } : null,
    capacity: x.capacity,
    idle: x.idle,
    profile: x.profile,
    phases,
  };
  console.log(
    table(
      `Room throughput: ${params.games} rooms x 2 clients, ${params.seconds} s per phase, load generator in a second process (setup: set-ups/s and CPU per set-up)`,
      ["phase", "acked/s", "server us/msg", "server cpu", "client cpu", "p50 ms", "p99 ms", "games", "stalls", "refused"],
      rows,
    ),
  );
  console.log();
  console.log(
    table(
      "Summary",
      ["", "value", "target"],
      [
        ["bare room, acked msgs/s", out.bare.msgsPerSec, ""],
        ["game room, moves/s as in real play (set-up included)", out.game.movesPerSec, ""],
        ["boardgame.io 0.50, moves/s (set-up included)", out.bgio.movesPerSec, ""],
        ["ratio game/boardgame.io moves/s (median of rounds)", out.ratioGameToBgio, ">= 1.5 (goal 2.5)"],
        ["ratio game/bare (median of rounds)", out.ratioGameToBare, ""],
        ["server CPU us per bare msg", bareUs, ""],
        ["server CPU us per bare msg with one patch (the inherent part of a move)", barePatchUs, ""],
        ["bare msg with a patch CPU / bare msg CPU", out.barePatch.ratioToBare, ""],
        ["server CPU us per move, all-in", out.game.cpuUsPerMove, ""],
        ["server CPU us per game set-up (create, join, 2 WS joins, finish)", out.game.setupCpuUsPerGame, ""],
        ["server CPU us per bare room set-up (matchmaker create, join by id, 1 msg, leave)", out.game.bareSetupCpuUs, ""],
        ["game set-up CPU / bare room set-up CPU", out.game.setupRatioToBare, ""],
        ["server CPU us per steady-state move", steadyUs, ""],
        ["steady-state move CPU / bare msg CPU", out.steadyCpuRatioToBare, ""],
        ["server CPU us per state room move (the game's replicated state, no service)", stateUs, ""],
        ["state room move CPU / bare msg CPU", out.state.ratioToBare, ""],
        ["steady-state move CPU / state room move CPU", out.steadyCpuRatioToState, ""],
        ["steady-state move CPU / bare msg with a patch CPU", out.steadyCpuRatioToBarePatch, ""],
        ["server CPU us per boardgame.io move", out.bgio.cpuUsPerMove, ""],
      ],
    ),
  );
  console.log();
  const vs = (a: number, b: number) => (a && b ? round(a / b, 2) : "-");
  const perRounds = (xs: number[]) => (xs.length > 1 ? ` (rounds: ${xs.join(", ")})` : "");
  console.log(
    table(
      "Durability apart: server CPU per move, all-in (set-up included), each server priced by its own process's CPU",
      ["", "us per move", "us per game", "moves/s"],
      [
        ["stock Colyseus game (no durable write)", stockUs, out.stock.cpuUsPerGame, out.stock.movesPerSec],
        [
          "durable floor: the stock game, each move stored (SQLite FULL, WAL, writer thread, group commit)",
          floorUs,
          out.stockDurable.cpuUsPerGame,
          out.stockDurable.movesPerSec,
        ],
        ["  of which the durable write (floor - stock)", durability.durableWriteCpuUsPerMove, "", ""],
        ["this server's game (all-in)", gameUs, out.gameAllIn.cpuUsPerGame, out.game.movesPerSec],
        [
          `ours / durable floor (target <= 1.3)${perRounds(durability.gameToFloorPerRound)}`,
          durability.gameToFloor,
          vs(out.gameAllIn.cpuUsPerGame, out.stockDurable.cpuUsPerGame),
          "",
        ],
        [
          `ours / stock (target <= 2.5)${perRounds(durability.gameToStockPerRound)}`,
          durability.gameToStock,
          vs(out.gameAllIn.cpuUsPerGame, out.stock.cpuUsPerGame),
          "",
        ],
        ["durable floor / stock", durability.floorToStock, vs(out.stockDurable.cpuUsPerGame, out.stock.cpuUsPerGame), ""],
      ],
    ),
  );
  console.log();
  console.log(
    table(
      "Beside the engine's floor: each game figure, the figure it is held to (same run), their ratio and the target",
      ["figure", "this server", "held to", "the floor", "ratio", "target"],
      [
        ["server CPU us per move, all-in (set-up included)", gameUs, "durable floor (stock game, each move stored)", floorUs, vs(gameUs, floorUs), "<= 1.3"],
        ["server CPU us per move, all-in (set-up included)", gameUs, "stock Colyseus game", stockUs, vs(gameUs, stockUs), "<= 2.5"],
        [
          "server CPU us per game, all-in (set-up and every move)",
          out.gameAllIn.cpuUsPerGame,
          "stock Colyseus game",
          out.stock.cpuUsPerGame,
          vs(out.gameAllIn.cpuUsPerGame, out.stock.cpuUsPerGame),
          "",
        ],
        [
          "moves/s as in real play (set-up included)",
          out.game.movesPerSec,
          "stock Colyseus game",
          out.stock.movesPerSec,
          vs(out.game.movesPerSec, out.stock.movesPerSec),
          "",
        ],
        ["server CPU us per steady-state move", steadyUs, "bare msg with one patch", barePatchUs, vs(steadyUs, barePatchUs), "<= 3"],
        [
          "server CPU us per move, the game actor alone (no transport, no store)",
          x.actor.cpuUsPerMove,
          "steady-state move, whole room",
          steadyUs,
          vs(x.actor.cpuUsPerMove, steadyUs),
          "",
        ],
        [
          "server CPU us per game set-up",
          out.game.setupCpuUsPerGame,
          "bare room set-up",
          out.game.bareSetupCpuUs,
          vs(out.game.setupCpuUsPerGame, out.game.bareSetupCpuUs),
          "<= 1.2",
        ],
        [
          "heap KB per game with both seats, at the start",
          memory?.start.heap ?? "-",
          "bare room, two clients",
          x.mem?.bareRoomHeapKB ?? "-",
          memory?.startToBare.heap ?? "-",
          "<= 1.5",
        ],
        [
          `heap KB per game with both seats, mid-game (${MID_GAME_MOVES} moves)`,
          memory?.mid.heap ?? "-",
          "bare room, two clients",
          x.mem?.bareRoomHeapKB ?? "-",
          memory?.midToBare.heap ?? "-",
          "<= 1.5",
        ],
      ],
    ),
  );
  console.log();
  console.log(
    table(
      `Durability: group commit on a SQLite file, ${x.commit[0]?.games ?? 0} games per batch`,
      ["synchronous", "us per batch", "us per write", "CPU us per write", "WAL pages per write"],
      x.commit.map((c) => [c.synchronous, c.usPerBatch, c.usPerWrite, c.cpuUsPerWrite, c.walPagesPerWrite]),
    ),
  );
  console.log();
  if (x.mem && memory) {
    const m = x.mem;
    console.log(
      table(
        `Server memory (deltas after gc, K = ${m.games})`,
        ["what", "heap KB", "RSS KB"],
        [
          ["per active game (REST-created, no connection)", m.gameHeapKB, m.gameRssKB],
          ["per WebSocket connection to a game", m.connHeapKB, m.connRssKB],
          ["per active game with both seats connected, at the start", memory.start.heap, memory.start.rss],
          [`per active game with both seats connected, mid-game (after ${MID_GAME_MOVES} moves)`, memory.mid.heap, memory.mid.rss],
          ["per bare room with two clients", m.bareRoomHeapKB, m.bareRoomRssKB],
          ["ratio game with both seats / bare room, at the start (target <= 1.5)", memory.startToBare.heap, memory.startToBare.rss],
          ["ratio game with both seats / bare room, mid-game (target <= 1.5)", memory.midToBare.heap, memory.midToBare.rss],
          ["per state room with two clients (the game's replicated state, no service)", m.stateRoomHeapKB, m.stateRoomRssKB],
          [
            "ratio state room / bare room",
            round(m.stateRoomHeapKB / Math.max(0.1, m.bareRoomHeapKB), 2),
            round(m.stateRoomRssKB / Math.max(0.1, m.bareRoomRssKB), 2),
          ],
          [
            "ratio game with both seats / state room, at the start",
            round(memory.start.heap / Math.max(0.1, m.stateRoomHeapKB), 2),
            round(memory.start.rss / Math.max(0.1, m.stateRoomRssKB), 2),
          ],
        ],
      ),
    );
    console.log();
  }
  if (x.capacity) {
    const cap = x.capacity;
    console.log(
      table(
        `Capacity${CAP_TITLES[cap.of]}: each seat moves every ${cap.seatPeriodMs / 1000} s (light generator, ${cap.threads} threads); largest N that held: ${cap.largestHeld} (stopped: ${cap.limit})`,
        [
          "active games",
          "moves/s",
          "replaced",
          "p50 ms",
          "p99 ms",
          "server cpu",
          "server us/move",
          "server us/game-s",
          "generator cpu",
          "generator us/move",
          "commit p99/max ms",
          "fsyncs/s, p99/max ms",
          "writer batches/s, writes each",
          "server loop p99/max ms",
          "server gc ms (max)",
          "generator loop p99/max ms",
          "generator gc ms (max)",
          "refused",
          "held",
        ],
        x.capacity.steps.map((c) => [
          c.games,
          c.movesPerSec,
          c.replaced,
          c.p50Ms,
          c.p99Ms,
          `${c.serverCpuPct}%`,
          c.serverUsPerMove,
          c.serverUsPerGameSecond,
          `${c.clientCpuPct}%`,
          c.clientUsPerMove,
          c.store ? `${c.store.commit.p99Ms}/${c.store.commit.maxMs}` : "-",
          c.store ? `${c.store.fsyncsPerSec}, ${c.store.fsync.p99Ms}/${c.store.fsync.maxMs}` : "-",
          c.store ? `${c.store.writerBatchesPerSec}, ${c.store.writesPerWriterBatch}` : "-",
          c.server ? `${c.server.delayP99Ms}/${c.server.delayMaxMs}` : "-",
          c.server ? `${round(c.server.gcMs, 0)} (${round(c.server.gcMaxMs, 0)})` : "-",
          `${c.client.delayP99Ms}/${c.client.delayMaxMs}`,
          `${round(c.client.gcMs, 0)} (${round(c.client.gcMaxMs, 0)})`,
          c.errors ? `${c.refused} (+${c.errors} set-up errors)` : c.refused,
          c.held ? "yes" : "no",
        ]),
      ),
    );
    const split = (x: StallSplit) =>
      `${x.count}: ${round(x.ms, 0)} = ${round(x.runMs, 0)} + ${round(x.gcMs, 0)} + ${round(x.queuedMs, 0)} + ${round(x.asleepMs, 0)}`;
    console.log(
      table(
        `Event-loop stalls (ticks >= ${STALL_MS} ms late): count: ms from the tick before = running + in GC + waiting for a CPU + asleep (the timer's wait or a system call)`,
        ["active games", "server", "generator"],
        x.capacity.steps.map((c) => [c.games, c.server ? split(c.server.stalls) : "-", split(c.client.stalls)]),
      ),
    );
    console.log();
  }
  if (x.idle) {
    console.log(
      table(
        "Idle cost",
        ["", "value"],
        [
          ["games open, no moves", x.idle.games],
          ["  of which waiting for their second seat; the rest mid-game", `${x.idle.waiting}; ${x.idle.games - x.idle.waiting} (${IDLE_MID_MOVES} moves)`],
          [`server CPU over ${x.idle.seconds} s (% of one core; target < 5)`, x.idle.serverCpuPct],
          ["of which main-thread GC pauses, ms (major GCs)", `${x.idle.gcMs} (${x.idle.majorGcs})`],
          ["heap KB per idle game", x.idle.heapKBPerGame],
          ["RSS KB per idle game", x.idle.rssKBPerGame],
          ["server process with every idle game open: RSS MB (target < 1,536); heap MB", `${x.idle.rssMB}; ${x.idle.heapMB}`],
        ],
      ),
    );
    console.log();
  }
  if (x.profile) {
    console.log(
      breakdownTables(
        x.profile,
        "CPU profile of the game phase's windows (--profile: the sampler slows the server, so this run's figures are not comparable with an unprofiled run's)",
      ),
    );
    console.log();
  }
  const targets = targetRows(
    {
      allInToFloor: out.cpuRatioGameToFloor,
      allInToStock: out.cpuRatioGameToStock,
      steadyToBarePatch: out.steadyCpuRatioToBarePatch,
      setupToBare: out.game.setupRatioToBare,
      gameToBgio: out.ratioGameToBgio,
    },
    // A stock server's capacity is a figure beside the target, not the game's.
    x.capacity?.of === "game" ? x.capacity : null,
    memory,
    x.idle,
  );
  console.log(
    table(
      "Targets: every figure of this run beside its target (ratios measured side by side, in this run)",
      ["figure", "value", "target", "met"],
      targets.map((t) => [t.figure, t.value, t.target, t.met]),
    ),
  );
  console.log(JSON.stringify({ ...out, targets }));
}

interface MemFigures {
  start: { heap: number; rss: number };
  mid: { heap: number; rss: number };
  startToBare: { heap: number; rss: number };
  midToBare: { heap: number; rss: number };
}

/** A game with both seats connected at its start and mid-game, and each as a ratio to the bare room with two clients. */
function memoryFigures(m: MemResult): MemFigures {
  const start = { heap: round(m.gameHeapKB + 2 * m.connHeapKB, 1), rss: round(m.gameRssKB + 2 * m.connRssKB, 1) };
  const mid = { heap: round(start.heap + m.midGameHeapKB, 1), rss: round(start.rss + m.midGameRssKB, 1) };
  const to = (a: { heap: number; rss: number }) => ({
    heap: round(a.heap / Math.max(0.1, m.bareRoomHeapKB), 2),
    rss: round(a.rss / Math.max(0.1, m.bareRoomRssKB), 2),
  });
  return { start, mid, startToBare: to(start), midToBare: to(mid) };
}

interface TargetRow {
  figure: string;
  value: number | string;
  target: string;
  met: "yes" | "no" | "-";
}

/** The room core's targets, each read from this run (a figure the run skipped reads "-"). */
function targetRows(
  r: { allInToFloor: number; allInToStock: number; steadyToBarePatch: number; setupToBare: number; gameToBgio: number },
  cap: CapResult | null,
  mem: MemFigures | null,
  idle: IdleResult | null,
): TargetRow[] {
  const row = (figure: string, value: number | null | undefined, target: string, ok: ((v: number) => boolean) | null): TargetRow => ({
    figure,
    value: value ?? "-",
    target,
    met: value === null || value === undefined || !ok || !Number.isFinite(value) ? "-" : ok(value) ? "yes" : "no",
  });
  const there = cap?.atLargest && !cap.atLargest.held ? ` (at ${cap.atLargest.games} games, which did not hold)` : "";
  return [
    row(
      "server CPU per move all-in (set-up included) / the durable floor's (the stock game storing each move)",
      r.allInToFloor || null,
      "<= 1.3",
      (v) => v <= 1.3,
    ),
    row("server CPU per move all-in (set-up included) / the stock Colyseus game's", r.allInToStock || null, "<= 2.5", (v) => v <= 2.5),
    row("server CPU per steady-state move / a bare message with one patch", r.steadyToBarePatch || null, "<= 3", (v) => v <= 3),
    row("server CPU per game set-up / the bare room's set-up", r.setupToBare || null, "<= 1.2", (v) => v <= 1.2),
    row("moves/s as in real play, set-up included / boardgame.io's", r.gameToBgio || null, "", null),
    row(
      `capacity: active games at a move per ${(cap?.seatPeriodMs ?? 5000) / 1000} s per seat, p99 <= ${CAP_P99_MS} ms, no refusal or error`,
      cap?.largestHeld,
      `>= ${CAP_TARGET_GAMES.toLocaleString("en-US")}`,
      (v) => v >= CAP_TARGET_GAMES,
    ),
    row(`  the load generator's CPU there${there} (% of one core, every thread)`, cap?.atLargest?.clientCpuPct, "", null),
    row(`  the server's CPU there${there} (% of one core, every thread)`, cap?.atLargest?.serverCpuPct, "", null),
    row(
      `  server CPU us per game-second at that pace${there}`,
      cap?.atLargest?.serverUsPerGameSecond,
      `<= ${CAP_TARGET_US_PER_GAME_SECOND}`,
      (v) => v <= CAP_TARGET_US_PER_GAME_SECOND,
    ),
    row("memory per game with both seats / bare room with two clients, at the start (heap)", mem?.startToBare.heap, "<= 1.5", (v) => v <= 1.5),
    row(
      `memory per game with both seats / bare room with two clients, mid-game (heap, after ${MID_GAME_MOVES} moves)`,
      mem?.midToBare.heap,
      "<= 1.5",
      (v) => v <= 1.5,
    ),
    row(`${idle?.games ?? 10_000} idle games (half waiting, half mid-game): server CPU (% of one core)`, idle?.serverCpuPct, "< 5", (v) => v < 5),
    row(`${idle?.games ?? 10_000} idle games: the server process's RSS, MB`, idle?.rssMB, "< 1,536", (v) => v < 1536),
  ];
}

/** A client that plays no moves still receives its seat's hands (the state room's too): they are read as received. */
function ignoreHands(room: ClientRoom): ClientRoom {
  room.onMessage("hand", () => undefined);
  return room;
}

// ---- the load generator (child process) ---------------------------------------------------------

interface Counters {
  acked: number;
  games: number;
  stalls: number;
  refused: Record<string, number>;
  cpuUs: number;
  p50Ms: number;
  p99Ms: number;
}

async function runClient() {
  const url = argv.get("url")!;
  const bgioUrl = argv.get("bgio");
  const stockUrl = argv.get("stock");
  const stockDurableUrl = argv.get("stock-durable");
  const stockSdks: Partial<Record<Kind, Client>> = {
    ...(stockUrl ? { stock: new Client(stockUrl) } : {}),
    ...(stockDurableUrl ? { stockdurable: new Client(stockDurableUrl) } : {}),
  };
  const http = new HttpClient(url, 64);
  const sdk = new Client(url);
  const reserveSeats = WS_JOIN === "reservation";
  let generator: Generator | null = null;
  let stats: PlayStats = newStats(true);
  let games = 0;
  let stalls = 0;
  let running = false;
  let loops: Promise<void>[] = [];
  const live = new Set<{ leave(): Promise<unknown> }>();
  const memGames: FriendGame[] = [];
  const memRooms: ClientRoom[] = [];
  /** How many of memGames have their seats connected (the warm-up's games are connected before the baseline). */
  let memConnected = 0;
  /** The memory games' seats, by game (memGames' order): each keeps what its last hand message allows it to play. */
  const memGameRooms: Array<{ room: ClientRoom; seat: Seat; game: number; legal: string[]; moved: number }> = [];

  /** Plays `moves` moves in each memory game from `from` on, one game's moves after another, 8 games at a time. */
  async function playMemGames(from: number, moves: number) {
    const seatsOf = (game: number) => memGameRooms.filter((r) => r.game === game);
    const until = async (ok: () => boolean) => {
      for (const stop = nowMs() + 5000; !ok();) {
        if (nowMs() > stop) throw new Error("a memory game's move was not acknowledged within 5 s");
        await sleep(2);
      }
    };
    for (let i = from; i < memGames.length; i += 8) {
      await Promise.all(
        Array.from({ length: Math.min(8, memGames.length - i) }, async (_, j) => {
          const seats = seatsOf(i + j);
          for (let k = 0; k < moves; k++) {
            await until(() => seats.some((x) => x.legal.length > 0));
            const mover = seats.find((x) => x.legal.length > 0)!;
            const before = mover.moved;
            mover.room.send("move", { move: mover.legal[Math.floor(Math.random() * mover.legal.length)] });
            mover.legal = [];
            await until(() => mover.moved > before);
          }
        }),
      );
    }
  }

  async function gameLoop(i: number, ready: () => void) {
    let first = true;
    while (running) {
      let players: SeatPlayer[] = [];
      try {
        const g = await openFriendGame(http, `g${i}`, undefined, reserveSeats);
        if (!running) break;
        // Each player listens from its own join on: its first hand must not wait for the other seat's join.
        players = await Promise.all((["A", "B"] as const).map((seat) => joinSeat(sdk, g, seat).then((room) => new SeatPlayer(room, seat, stats))));
        players.forEach((p) => live.add(p));
        if (first) {
          ready();
          first = false;
        }
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
        if (first) {
          ready();
          first = false;
        }
      }
    }
  }

  /** Set-ups one after another, one unit each; `ready` once the first has joined its clients (or failed). */
  async function repeatSetups(what: string, i: number, ready: () => void, setUp: (joined: () => void) => Promise<void>) {
    let first = true;
    const joined = () => {
      if (first) {
        first = false;
        ready();
      }
    };
    while (running) {
      try {
        await setUp(joined);
        stats.acked++;
        games++;
      } catch (e) {
        if (running) {
          process.stderr.write(`${what} loop ${i}: ${e instanceof Error ? e.message : String(e)}\n`);
          await sleep(200);
        }
      } finally {
        joined();
      }
    }
  }

  /** A game's set-up as in real play, finished by a resignation without a move (an abort: nothing is rated). */
  const setupLoop = (i: number, ready: () => void) =>
    repeatSetups("setup", i, ready, async (joined) => {
      const g = await openFriendGame(http, `s${i}`, undefined, reserveSeats);
      const rooms = await Promise.all((["A", "B"] as const).map((seat) => joinSeat(sdk, g, seat).then(ignoreHands)));
      joined();
      const ended = new Promise<void>((resolve) => rooms[0].onStateChange((st: { status?: string }) => st.status === "finished" && resolve()));
      rooms[0].send("resign");
      await Promise.race([ended, sleep(15_000)]);
      await Promise.all(rooms.map((r) => r.leave(true).catch(() => undefined)));
    });

  /** The bare room's set-up: created through the matchmaker, joined by id, one message acknowledged, both left. */
  const bareSetupLoop = (i: number, ready: () => void) =>
    repeatSetups("bare set-up", i, ready, async (joined) => {
      const a = await sdk.create("bare");
      const b = await sdk.joinById(a.roomId);
      joined();
      const acked = new Promise<void>((resolve) => a.onMessage("ack", () => resolve()));
      a.send("inc", 0);
      await Promise.race([acked, sleep(15_000)]);
      await Promise.all([a, b].map((r) => r.leave(true).catch(() => undefined)));
    });

  /**
   * Stock Colyseus games (lib/stock-colyseus.ts), one after another, played as the game phase plays a game:
   * created through the matchmaker, joined by id, 16 alternating moves each acknowledged by a `hand`
   * message to its mover, both seats leave. `stockSdk` is the stock game's server or the durable floor's.
   */
  async function stockLoop(i: number, ready: () => void, stockSdk: Client) {
    let first = true;
    while (running) {
      const pair: ClientRoom[] = [];
      try {
        pair.push(await stockSdk.create(STOCK_ROOM));
        pair.push(await stockSdk.joinById(pair[0].roomId));
        if (first) {
          first = false;
          ready();
        }
        let answered!: (refused: boolean) => void;
        for (const r of pair) {
          r.onMessage("hand", () => answered(false));
          r.onMessage("refused", () => answered(true));
        }
        for (let k = 0; k < STOCK_MOVES && running; k++) {
          const sent = nowMs();
          await new Promise<void>((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error("a stock move was not acknowledged within 15 s")), 15_000);
            answered = (refused) => {
              clearTimeout(timer);
              if (!refused) return resolve();
              // Counted, and the game given up: every move the loop sends is legal, so a refusal is a fault.
              stats.refused.stock = (stats.refused.stock ?? 0) + 1;
              reject(new Error(`the stock game refused move ${k + 1}`));
            };
            pair[k % 2].send("move", STOCK_SQUARES[k]);
          });
          stats.acked++;
          stats.latencies?.push(nowMs() - sent);
        }
        if (running) games++;
      } catch (e) {
        if (running) {
          process.stderr.write(`stock loop ${i}: ${e instanceof Error ? e.message : String(e)}\n`);
          await sleep(200);
        }
      } finally {
        await Promise.all(pair.map((r) => r.leave(true).catch(() => undefined)));
        if (first) {
          first = false;
          ready();
        }
      }
    }
  }

  /** boardgame.io matches, one after another, each created, joined and played to the end. */
  async function bgioLoop(i: number, ready: () => void) {
    ready();
    while (running) {
      try {
        if (await playBgioMatch(bgioUrl!, stats, () => running)) games++;
      } catch (e) {
        if (running) {
          process.stderr.write(`bgio loop ${i}: ${e instanceof Error ? e.message : String(e)}\n`);
          await sleep(200);
        }
      }
    }
  }

  /** Two clients of one room ("bare" or "state") taking turns: each acknowledgement sends the other's message. */
  async function pairLoop(room: "bare" | "barepatch" | "state", ready: () => void) {
    const a = ignoreHands(await sdk.create(room));
    const b = ignoreHands(await sdk.joinById(a.roomId));
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
    for (const r of pair) {
      live.delete(r);
      await r.leave(true).catch(() => undefined);
    }
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
          const loop =
            m.kind === "bare" || m.kind === "barepatch" || m.kind === "state"
              ? pairLoop(m.kind, ready)
              : m.kind === "setup"
                ? setupLoop(i, ready)
                : m.kind === "baresetup"
                  ? bareSetupLoop(i, ready)
                  : m.kind === "bgio"
                    ? bgioLoop(i, ready)
                    : STOCK_KINDS.has(m.kind as Kind)
                      ? stockLoop(i, ready, stockSdks[m.kind as Kind]!)
                      : gameLoop(i, ready);
          loops.push(
            loop.catch((e) => {
              process.stderr.write(`loop ${i}: ${e instanceof Error ? e.message : String(e)}\n`);
              ready();
            }),
          );
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
        if (stats.refusalSamples.length) {
          process.stderr.write(`refusals seen: ${stats.refusalSamples.join(" | ")}\n`);
          stats.refusalSamples = [];
        }
        return { ...c };
      }
      case "stop": {
        running = false;
        await Promise.race([Promise.all(loops), sleep(20_000)]);
        await Promise.all([...live].map((p) => p.leave().catch(() => undefined)));
        live.clear();
        return {};
      }
      case "cap-start": {
        // A stock game's capacity (--capacity-of floor|stock) is played on its own server.
        generator ??= new Generator(typeof m.url === "string" ? m.url : url, Number(m.threads), Number(m.seatPeriodMs), m.table === "stock" ? "stock" : "game");
        return {};
      }
      case "cap-grow": {
        // The games already open keep moving while the new ones are opened.
        await generator!.grow(Number(m.n), Number(m.rampMs ?? 0));
        return {};
      }
      case "cap-mark": {
        // This process's CPU: every generator thread's.
        return { ...(await generator!.mark()), cpuUs: cpuSince({ user: 0, system: 0 }) };
      }
      case "cap-close": {
        await generator?.close();
        generator = null;
        return {};
      }
      case "idle-games": {
        // k games: `waiting` only created (their second seat open), the rest joined and played to `moves` moves
        // over REST (each seat's sync names its legal moves), eight at a time.
        const k = Number(m.k);
        const waiting = Number(m.waiting);
        const moves = Number(m.moves);
        const turnSeconds = Number(m.turnSeconds);
        const one = async (i: number) => {
          if (i < waiting) {
            await http.json("POST", "/api/v1/games", { body: { opponent: "friend", name: `w${i}`, turnSeconds } });
            return;
          }
          const g = await openFriendGame(http, `i${i}`, turnSeconds);
          for (let n = 0; n < moves; n++) {
            for (const token of Object.values(g.tokens)) {
              const view = await http.json("GET", `/api/v1/games/${g.gameId}/sync`, { token });
              if (!view.yourTurn) continue;
              await http.json("POST", `/api/v1/games/${g.gameId}/moves`, { token, body: { move: view.legalMoves[0].move } });
              break;
            }
          }
        };
        for (let i = 0; i < k; i += 8) await Promise.all(Array.from({ length: Math.min(8, k - i) }, (_, j) => one(i + j)));
        return {};
      }
      case "mem-games": {
        const k = Number(m.k);
        const turnSeconds = m.turnSeconds === undefined ? undefined : Number(m.turnSeconds);
        for (let i = 0; i < k; i += 8) {
          const batch = await Promise.all(Array.from({ length: Math.min(8, k - i) }, (_, j) => openFriendGame(http, `m${i + j}`, turnSeconds)));
          memGames.push(...batch);
        }
        return {};
      }
      case "mem-conns": {
        for (let i = memConnected; i < memGames.length; i += 8) {
          const batch = memGames.slice(i, i + 8);
          await Promise.all(
            batch.flatMap((g, j) =>
              (["A", "B"] as const).map(async (seat) => {
                const entry = { room: await sdk.joinById(g.gameId, { playerToken: g.tokens[seat] }), seat, game: i + j, legal: [] as string[], moved: 0 };
                entry.room.onMessage("hand", (h: { legal?: string[] }) => (entry.legal = h.legal ?? []));
                entry.room.onMessage("moved", (mv: { hand?: { legal?: string[] } }) => ((entry.legal = mv.hand?.legal ?? []), entry.moved++));
                memGameRooms.push(entry);
              }),
            ),
          );
        }
        memConnected = memGames.length;
        await sleep(200);
        return {};
      }
      case "mem-play": {
        await playMemGames(Number(m.from), Number(m.moves));
        await sleep(200);
        return {};
      }
      case "mem-rooms": {
        const k = Number(m.k);
        for (let i = 0; i < k; i++) {
          const a = ignoreHands(await sdk.create(m.room === "state" ? "state" : "bare"));
          memRooms.push(a, ignoreHands(await sdk.joinById(a.roomId)));
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
        memConnected = 0;
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
