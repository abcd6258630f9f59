/**
 * Webhook delivery under load: latency from a move's acknowledgement to its signed delivery, deliveries per
 * second sustained, and lost or duplicated deliveries.
 *
 *   npm run bench:webhooks [-- --subscribers 100 --games 10 --seconds 10 --warmup 2 --drain 60 --rate 0 --ca env]
 *
 * --rate N caps the moves at N per second in all (0: as fast as the server answers). --ca env (default)
 * trusts the receiver's certificate through NODE_EXTRA_CA_CERTS, as a deployment would; --ca option passes
 * it as StartOptions.webhookCa, as the tests do. --concurrency N (experiment) overrides the dispatcher's
 * POSTs in flight (64 by default) at run time, and --slow-slots N those the slow lane may hold (16 by
 * default: a subscriber answering later than a second is moved there), to see whether those limits bound
 * the delivery rate.
 *
 * This process hosts the server under test: the real composition root (Colyseus + Express + SQLite in
 * memory) on a loopback port, per-minute rate limits scaled by 10^6, `webhookAllowPrivate` and a throwaway
 * self-signed certificate (openssl) trusted for callbacks. The load generator is this file forked as a
 * second process on the same cores; it hosts both
 *   - the players: --games live friend games, created and joined over REST, both seats playing legal moves
 *     over REST (`POST /moves`, one move in flight per game) as fast as the server answers (or at --rate
 *     moves/s in all); a finished game is replaced by a new one, and
 *   - the receiver: an HTTPS server on 127.0.0.1 that verifies every request with `standardwebhooks`
 *     (each subscriber has its own secret and its own callback URL), echoes verification challenges and
 *     answers deliveries with 204.
 * --subscribers subscriptions to `game.move` are spread over the games (subscriber i follows game slot
 * i mod --games and subscribes again to each new game of its slot, before its first move). Latency is from
 * the moment the POST /moves response arrived at the player to the moment the receiver had the matching
 * delivery (game_id + move_index, per subscriber); both timestamps are taken in the load generator. After
 * the window the players stop and the receiver waits (up to --drain seconds) for every expected delivery:
 * whatever is still missing is lost. Duplicates are counted by eventId.
 * Prints a table, then one JSON line. Every loop is bounded by --seconds / --drain and a watchdog.
 */
import { createProgress } from "../src/cli/progress";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { testConfig } from "../src/shared/config";
import { generateSecret } from "../src/services/events";
import { startServer, type RunningServer } from "../src/server";
import { testCert } from "../test/events/helpers";
import {
  args,
  Child,
  cpuSince,
  freePort,
  HttpClient,
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
  type Message,
  type Seat,
} from "./lib/common";

const argv = args();
const ROLE = argv.get("role") ?? "server";
/** How the server trusts the receiver's certificate: `env` (NODE_EXTRA_CA_CERTS) or `option` (StartOptions.webhookCa). */
const CA_MODE = argv.get("ca") ?? "env";
const CERT_DIR_ENV = "WEBHOOK_BENCH_CERT_DIR";

// ---- the launcher (--ca env) ---------------------------------------------------------------------

/**
 * NODE_EXTRA_CA_CERTS is read when a process starts, so with `--ca env` this process makes the certificate
 * and runs the benchmark in a second process (same loader, same arguments) that starts with it trusted.
 */
async function runLauncher() {
  const dir = mkdtempSync(join(tmpdir(), "webhook-bench-"));
  const cert = testCert();
  writeFileSync(join(dir, "cert.pem"), cert.cert);
  writeFileSync(join(dir, "key.pem"), cert.key);
  const proc = spawn(process.execPath, [...process.execArgv, __filename, ...process.argv.slice(2)], {
    stdio: "inherit",
    env: { ...process.env, NODE_EXTRA_CA_CERTS: join(dir, "cert.pem"), [CERT_DIR_ENV]: dir },
  });
  const code: number = await new Promise((resolve) => proc.on("exit", (c, signal) => resolve(c ?? (signal ? 2 : 1))));
  rmSync(dir, { recursive: true, force: true });
  process.exit(code);
}

function benchCert(): { key: string; cert: string } {
  const dir = process.env[CERT_DIR_ENV];
  if (!dir) return testCert();
  return { key: readFileSync(join(dir, "key.pem"), "utf8"), cert: readFileSync(join(dir, "cert.pem"), "utf8") };
}

// ---- the server process -------------------------------------------------------------------------

/** The dispatcher's limits, overridden at run time by the --concurrency and --per-host experiments. */
interface DispatcherInternals {
  concurrency: number;
  slowSlots: number;
  maxQueue: number;
}

interface PlayResult extends Message {
  seconds: number;
  movesAcked: number;
  gamesStarted: number;
  gamesFinished: number;
  refused: number;
  errors: number;
  firstErrors: string[];
  deliveriesInWindow: number;
}

interface DrainResult extends Message {
  expected: number;
  received: number;
  lost: number;
  duplicates: number;
  repeatedMoves: number;
  unexpected: number;
  badSignatures: number;
  drainSeconds: number;
  deliveriesInDrain: number;
  latencies: number[];
  early: number;
  lostSamples: string[];
}

async function runServer() {
  const SUBS = num(argv, "subscribers", 100, 1, 10_000);
  const GAMES = num(argv, "games", 10, 1, 1000);
  const SECONDS = num(argv, "seconds", 10, 0.5, 600);
  const WARMUP = num(argv, "warmup", 2, 0, 60);
  const DRAIN = num(argv, "drain", 60, 1, 600);
  const RATE = num(argv, "rate", 0, 0, 100_000);
  // Experiments, not settings of the service: override the dispatcher's POSTs in flight (default 64) and
  // those the slow lane may hold (default 16; every subscriber here is on one host, 127.0.0.1, which no longer matters).
  const CONCURRENCY = num(argv, "concurrency", 0, 0, 1024);
  const SLOW_SLOTS = num(argv, "slow-slots", 0, 0, 1024);
  watchdog((60 + SUBS * 0.2 + WARMUP + DRAIN + SECONDS + DRAIN + 30) * 1000, "webhook-bench");

  const cert = benchCert();
  const port = await freePort();
  // The same server as loadtest/lib/server.ts, plus callbacks to loopback allowed and, with `--ca option`,
  // the receiver's certificate passed as the callback client's extra CA (with `--ca env` it is trusted
  // through NODE_EXTRA_CA_CERTS, as a deployment would do it).
  const server: RunningServer = await startServer(
    testConfig({ host: "127.0.0.1", port, publicBaseUrl: `http://127.0.0.1:${port}`, rateLimitScale: 1_000_000, houseDelayMs: 0, webhookAllowPrivate: true }),
    CA_MODE === "option" ? { webhookCa: cert.cert } : {},
  );
  const dispatcher = server.events.dispatcher as unknown as DispatcherInternals;
  if (CONCURRENCY > 0) dispatcher.concurrency = CONCURRENCY;
  if (SLOW_SLOTS > 0) dispatcher.slowSlots = SLOW_SLOTS;
  const held = () => server.events.dispatcher.stats();
  // The dispatcher reports what it drops through the logger (silent here): count those warnings.
  const dropped = { events: 0, deliveries: 0, failedAfterRetries: 0, other: 0 };
  const log = server.log as unknown as { warn: (obj: unknown, msg?: string) => void };
  const warn = log.warn.bind(log);
  log.warn = (obj: unknown, msg?: string) => {
    if (msg?.startsWith("event queue full")) dropped.events++;
    else if (msg?.startsWith("delivery queue full")) dropped.deliveries++;
    else if (msg?.startsWith("delivery failed after retries")) dropped.failedAfterRetries++;
    else dropped.other++;
    warn(obj, msg);
  };
  // Backlog and heap, sampled every 100 ms for the whole run.
  const peak = { emitted: 0, jobs: 0, inflight: 0, heapMB: 0 };
  const sampler = setInterval(() => {
    const now = held();
    peak.emitted = Math.max(peak.emitted, now.queuedEvents);
    peak.jobs = Math.max(peak.jobs, now.queuedDeliveries);
    peak.inflight = Math.max(peak.inflight, now.inflight);
    peak.heapMB = Math.max(peak.heapMB, process.memoryUsage().heapUsed / 2 ** 20);
  }, 100);
  sampler.unref();

  const child = new Child(__filename, ["--url", server.url, "--subscribers", String(SUBS), "--games", String(GAMES), "--rate", String(RATE)]);
  let code = 0;
  try {
    // Steps: setup, the warm-up's play and drain, the measured play and its drain.
    const progress = createProgress("webhook-bench", WARMUP > 0 ? 5 : 3, { json: argv.has("json") });
    await child.ask({ type: "setup", key: cert.key, cert: cert.cert }, "setup:done", 60_000 + SUBS * 500);
    progress.increment();
    const heapBefore = process.memoryUsage().heapUsed / 2 ** 20;
    if (WARMUP > 0) {
      await child.ask({ type: "play", seconds: WARMUP }, "play:done", (WARMUP + 60) * 1000);
      progress.increment();
      await child.ask({ type: "drain", seconds: DRAIN, reset: true }, "drain:done", (DRAIN + 30) * 1000);
      progress.increment();
    }
    Object.assign(peak, { emitted: 0, jobs: 0, inflight: 0 });
    const cpu0 = process.cpuUsage();
    const t0 = nowMs();
    const play = await child.ask<PlayResult>({ type: "play", seconds: SECONDS }, "play:done", (SECONDS + 60) * 1000);
    progress.increment();
    const windowS = (nowMs() - t0) / 1000;
    const cpuWindow = cpuSince(cpu0);
    const backlogAtEnd = held().queuedDeliveries + held().queuedEvents;
    const peakWindow = { ...peak };
    const cpu1 = process.cpuUsage();
    const drain = await child.ask<DrainResult>({ type: "drain", seconds: DRAIN, reset: false }, "drain:done", (DRAIN + 30) * 1000);
    progress.stop();
    const cpuDrain = cpuSince(cpu1);
    const heapAfter = process.memoryUsage().heapUsed / 2 ** 20;

    const lat = drain.latencies;
    const subsPerGame = SUBS / GAMES;
    const out = {
      bench: "webhooks",
      params: {
        ca: CA_MODE,
        subscribers: SUBS,
        games: GAMES,
        seconds: SECONDS,
        warmup: WARMUP,
        drain: DRAIN,
        rate: RATE,
        concurrency: dispatcher.concurrency,
        slowSlots: dispatcher.slowSlots,
        maxQueue: dispatcher.maxQueue,
      },
      movesAcked: play.movesAcked,
      movesPerSec: round(play.movesAcked / windowS),
      gamesStarted: play.gamesStarted,
      gamesFinished: play.gamesFinished,
      refused: play.refused,
      errors: play.errors,
      offeredDeliveriesPerSec: round((play.movesAcked * subsPerGame) / windowS),
      deliveriesPerSec: round(play.deliveriesInWindow / windowS),
      drainDeliveriesPerSec: drain.drainSeconds > 0 ? round(drain.deliveriesInDrain / drain.drainSeconds) : 0,
      drainSeconds: round(drain.drainSeconds, 2),
      backlogAtEnd,
      latencyP50Ms: round(median(lat), 2),
      latencyP99Ms: round(percentile(lat, 99), 2),
      latencyMaxMs: round(lat.length ? Math.max(...lat) : 0, 2),
      deliveredBeforeAck: drain.early,
      expected: drain.expected,
      received: drain.received,
      lost: drain.lost,
      duplicates: drain.duplicates,
      repeatedMoves: drain.repeatedMoves,
      unexpected: drain.unexpected,
      badSignatures: drain.badSignatures,
      serverDropped: dropped,
      serverCpuPctWindow: round((cpuWindow / 1e6 / windowS) * 100),
      // Server CPU over the window and the drain, per delivery received in them (the moves' own work included).
      serverCpuUsPerDelivery:
        play.deliveriesInWindow + drain.deliveriesInDrain > 0 ? round((cpuWindow + cpuDrain) / (play.deliveriesInWindow + drain.deliveriesInDrain)) : 0,
      serverCpuUsPerMove: play.movesAcked > 0 ? round(cpuWindow / play.movesAcked) : 0,
      peakQueued: { events: peakWindow.emitted, deliveries: peakWindow.jobs, inflight: peakWindow.inflight },
      heapMB: { beforeRun: round(heapBefore), peak: round(peak.heapMB), afterDrain: round(heapAfter) },
    };

    console.log(
      table(
        `Webhook deliveries: ${SUBS} game.move subscriptions over ${GAMES} games, ${SECONDS} s window${RATE ? ` at ${RATE} moves/s` : " (moves as fast as the server answers)"}, CA by ${CA_MODE === "env" ? "NODE_EXTRA_CA_CERTS" : "StartOptions.webhookCa"}`,
        ["", "value"],
        [
          ["moves acked (per s)", `${out.movesAcked} (${out.movesPerSec})`],
          ["games started / finished", `${out.gamesStarted} / ${out.gamesFinished}`],
          ["deliveries offered per s (moves x subscribers per game)", out.offeredDeliveriesPerSec],
          ["deliveries received per s in the window", out.deliveriesPerSec],
          ["deliveries per s while draining the backlog", out.drainDeliveriesPerSec],
          ["backlog at the end of the window / drain s", `${out.backlogAtEnd} / ${out.drainSeconds}`],
          ["latency ack -> delivery p50 / p99 / max ms", `${out.latencyP50Ms} / ${out.latencyP99Ms} / ${out.latencyMaxMs}`],
          ["expected / received deliveries", `${out.expected} / ${out.received}`],
          ["lost / duplicate eventIds / same move twice", `${out.lost} / ${out.duplicates} / ${out.repeatedMoves}`],
          ["unexpected / bad signatures / refused / errors", `${out.unexpected} / ${out.badSignatures} / ${out.refused} / ${out.errors}`],
          [
            "server drops: events / deferred deliveries (kept in the store) / failed",
            `${dropped.events} / ${dropped.deliveries} / ${dropped.failedAfterRetries}`,
          ],
          [
            "server CPU % (window) / us per move (window) / us per delivery (window + drain)",
            `${out.serverCpuPctWindow} / ${out.serverCpuUsPerMove} / ${out.serverCpuUsPerDelivery}`,
          ],
          [
            `peak queued events / deliveries / in flight (max ${dispatcher.concurrency}, ${dispatcher.slowSlots} in the slow lane)`,
            `${out.peakQueued.events} / ${out.peakQueued.deliveries} / ${out.peakQueued.inflight}`,
          ],
          ["server heap MB before / peak / after drain", `${out.heapMB.beforeRun} / ${out.heapMB.peak} / ${out.heapMB.afterDrain}`],
        ],
      ),
    );
    if (drain.lostSamples.length) console.log(`first lost deliveries (game:move_index:subscriber): ${drain.lostSamples.join(", ")}`);
    if (play.firstErrors.length) console.log(`first errors: ${play.firstErrors.join(" | ")}`);
    console.log(JSON.stringify(out));
  } catch (err) {
    console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    code = 1;
  } finally {
    clearInterval(sampler);
    await child.close();
    await server.close();
  }
  process.exit(code);
}

// ---- the load generator: players and the receiver -----------------------------------------------

interface Subscriber {
  index: number;
  secret: string;
  webhook: Webhook;
  url: string;
}

async function runClient() {
  const BASE = argv.get("url") as string;
  const SUBS = num(argv, "subscribers", 100, 1, 10_000);
  const GAMES = num(argv, "games", 10, 1, 1000);
  const RATE = num(argv, "rate", 0, 0, 100_000);
  const api = new HttpClient(BASE, Math.max(64, GAMES * 2));

  let subscribers: Subscriber[] = [];
  /** Subscribers following each game (all subscribed before its first move). */
  const gameSubs = new Map<string, number[]>();
  /** `game:move_index` -> when its POST /moves answered (load generator clock). */
  const ackAt = new Map<string, number>();
  /** Per expected delivery `game:move_index:subscriber`: times received (0 until then). */
  const expected = new Map<string, number>();
  /** Deliveries that arrived before their move's acknowledgement: `game:move_index` -> receipt times. */
  const early = new Map<string, number[]>();
  const seenIds = new Set<string>();
  const c = { received: 0, duplicates: 0, repeatedMoves: 0, unexpected: 0, badSignatures: 0, early: 0 };
  let latencies: number[] = [];
  let receivedTimes: number[] = [];

  // -- the receiver
  let receiver: https.Server | undefined;
  function onDelivery(sub: Subscriber, raw: string, headers: Record<string, string>, at: number): { status: number; body?: string } {
    let msg: any;
    try {
      msg = sub.webhook.verify(raw, headers);
    } catch {
      c.badSignatures++;
      return { status: 401, body: JSON.stringify({ code: "bad_signature" }) };
    }
    if (msg.type === "verification") return { status: 200, body: JSON.stringify({ challenge: msg.challenge }) };
    if (seenIds.has(msg.eventId)) {
      c.duplicates++;
      return { status: 204 };
    }
    seenIds.add(msg.eventId);
    c.received++;
    receivedTimes.push(at);
    const move = `${msg.data?.game_id}:${msg.data?.move_index}`;
    const key = `${move}:${sub.index}`;
    const times = expected.get(key);
    if (times === undefined) {
      // Not (yet) expected: the move's answer has not reached its player, or the subscriber does not follow that game.
      if (gameSubs.get(msg.data?.game_id)?.includes(sub.index) && !ackAt.has(move)) {
        expected.set(key, 1);
        c.early++;
        const list = early.get(move) ?? [];
        list.push(at);
        early.set(move, list);
      } else c.unexpected++;
      return { status: 204 };
    }
    if (times > 0) c.repeatedMoves++;
    expected.set(key, times + 1);
    const acked = ackAt.get(move);
    if (acked !== undefined) latencies.push(at - acked);
    return { status: 204 };
  }

  async function startReceiver(key: string, cert: string): Promise<string> {
    receiver = https.createServer({ key, cert }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (d: Buffer) => chunks.push(d));
      req.on("end", () => {
        const at = nowMs();
        const index = Number((req.url ?? "").split("/").pop());
        const sub = subscribers[index];
        const a = sub ? onDelivery(sub, Buffer.concat(chunks).toString("utf8"), req.headers as Record<string, string>, at) : { status: 404 };
        res.writeHead(a.status, a.body ? { "content-type": "application/json" } : {});
        res.end(a.body ?? "");
      });
    });
    await new Promise<void>((resolve) => receiver!.listen(0, "127.0.0.1", resolve));
    return `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  }

  // -- the players
  let stopping = false;
  let nextSlotAt = 0;
  const stats = { movesAcked: 0, gamesStarted: 0, gamesFinished: 0, refused: 0, errors: 0, firstErrors: [] as string[] };
  const noteError = (e: unknown) => {
    stats.errors++;
    if (stats.firstErrors.length < 5) stats.firstErrors.push(e instanceof Error ? e.message : String(e));
  };

  async function subscribe(sub: Subscriber, gameId: string): Promise<void> {
    const r = await api.json("POST", "/api/v1/games/events/subscribe", {
      body: { name: "game.move", arguments: { game_id: gameId }, delivery: { mode: "webhook", url: sub.url, secret: sub.secret } },
    });
    if (r.cursor !== "0") throw new Error(`subscription to ${gameId} starts at ${r.cursor}, not 0`);
  }

  async function paced(): Promise<void> {
    if (RATE <= 0) return;
    const now = nowMs();
    nextSlotAt = Math.max(nextSlotAt + 1000 / RATE, now);
    if (nextSlotAt > now) await sleep(nextSlotAt - now);
  }

  /** Plays one game of a slot to its end (or until told to stop); both seats over REST. */
  async function playGame(slot: number): Promise<void> {
    const g = await openFriendGame(api, `wh${slot}`);
    stats.gamesStarted++;
    const mine = subscribers.filter((s) => s.index % GAMES === slot);
    await Promise.all(mine.map((s) => subscribe(s, g.gameId)));
    gameSubs.set(
      g.gameId,
      mine.map((s) => s.index),
    );
    const view = async (seat: Seat) => (await api.json("GET", `/api/v1/games/${g.gameId}/sync?since=0&timeout=0`, { token: g.tokens[seat] })).state;
    const hands: Record<Seat, string[]> = { A: [], B: [] };
    let state = await view("A");
    hands.A = state.hand.map((h: { id: string }) => h.id);
    hands.B = (await view("B")).hand.map((h: { id: string }) => h.id);
    for (let guard = 0; guard < 100 && !stopping && state.status === "active"; guard++) {
      const seat = state.turn as Seat;
      const move = pickMove(
        hands[seat],
        state.board.map((b: { square: string }) => b.square),
      );
      if (!move) throw new Error(`no legal move for ${seat} in ${g.gameId}`);
      await paced();
      const r = await api.request("POST", `/api/v1/games/${g.gameId}/moves`, { token: g.tokens[seat], body: move });
      const at = nowMs();
      if (r.status !== 200) {
        stats.refused++;
        if (stats.firstErrors.length < 5) stats.firstErrors.push(`move ${r.status}: ${r.body.slice(0, 200)}`);
        state = await view(seat);
        hands[seat] = state.hand.map((h: { id: string }) => h.id);
        continue;
      }
      state = r.json.view;
      hands[seat] = state.hand.map((h: { id: string }) => h.id);
      const moveKey = `${g.gameId}:${state.moveCount - 1}`;
      ackAt.set(moveKey, at);
      stats.movesAcked++;
      const arrived = early.get(moveKey);
      for (const t of arrived ?? []) latencies.push(t - at);
      early.delete(moveKey);
      for (const s of mine) {
        const key = `${moveKey}:${s.index}`;
        if (!expected.has(key)) expected.set(key, 0);
      }
    }
    if (state.status === "finished") stats.gamesFinished++;
  }

  async function play(seconds: number): Promise<PlayResult> {
    stopping = false;
    nextSlotAt = 0;
    Object.assign(stats, { movesAcked: 0, gamesStarted: 0, gamesFinished: 0, refused: 0, errors: 0, firstErrors: [] });
    const t0 = nowMs();
    const stopTimer = setTimeout(() => (stopping = true), seconds * 1000);
    await Promise.all(
      Array.from({ length: GAMES }, async (_, slot) => {
        while (!stopping) {
          try {
            await playGame(slot);
          } catch (e) {
            noteError(e);
            if (stats.errors > 50) stopping = true;
            await sleep(100);
          }
        }
      }),
    );
    clearTimeout(stopTimer);
    const t1 = t0 + seconds * 1000;
    const inWindow = receivedTimes.filter((t) => t >= t0 && t < t1).length;
    return { type: "play", seconds, ...stats, deliveriesInWindow: inWindow };
  }

  /** Waits until every expected delivery arrived (bounded), then one more second to catch duplicates. */
  async function drain(seconds: number, reset: boolean): Promise<DrainResult> {
    const t0 = nowMs();
    const receivedAt0 = c.received;
    const missing = () => [...expected.values()].filter((n) => n === 0).length;
    // Until nothing is missing, or nothing has arrived for 5 s (what is still missing then was dropped), or --drain.
    let lastCount = c.received;
    let lastAt = nowMs();
    while (missing() > 0 && nowMs() - t0 < seconds * 1000 && nowMs() - lastAt < 5000) {
      await sleep(50);
      if (c.received !== lastCount) [lastCount, lastAt] = [c.received, nowMs()];
    }
    const drainSeconds = (Math.min(nowMs(), lastAt + 50) - t0) / 1000;
    const deliveriesInDrain = c.received - receivedAt0;
    await sleep(1000);
    const lostKeys = [...expected].filter(([, n]) => n === 0).map(([k]) => k);
    const out: DrainResult = {
      type: "drain",
      expected: expected.size,
      received: c.received,
      lost: lostKeys.length,
      duplicates: c.duplicates,
      repeatedMoves: c.repeatedMoves,
      unexpected: c.unexpected,
      badSignatures: c.badSignatures,
      drainSeconds,
      deliveriesInDrain,
      latencies,
      early: c.early,
      lostSamples: lostKeys.slice(0, 5),
    };
    if (reset) {
      // The warm-up's deliveries are settled; the measured run starts from clean counters.
      expected.clear();
      ackAt.clear();
      early.clear();
      latencies = [];
      receivedTimes = [];
      Object.assign(c, { received: 0, duplicates: 0, repeatedMoves: 0, unexpected: 0, badSignatures: 0, early: 0 });
      if (out.lost || out.duplicates || out.repeatedMoves)
        console.error(`warm-up: ${out.lost} lost, ${out.duplicates} duplicates, ${out.repeatedMoves} repeated`);
    }
    return out;
  }

  serveParent(async (m) => {
    switch (m.type) {
      case "setup": {
        const url = await startReceiver(String(m.key), String(m.cert));
        subscribers = Array.from({ length: SUBS }, (_, index) => {
          const secret = generateSecret();
          return { index, secret, webhook: new Webhook(secret), url: `${url}/${index}` };
        });
        return { receiver: url };
      }
      case "play":
        return play(Number(m.seconds));
      case "drain":
        return drain(Number(m.seconds), Boolean(m.reset));
      default:
        throw new Error(`unknown command ${m.type}`);
    }
  });
  process.on("exit", () => {
    receiver?.closeAllConnections();
    api.close();
  });
}

if (!["env", "option"].includes(CA_MODE)) {
  console.error(`--ca must be env or option (got ${CA_MODE})`);
  process.exit(1);
}
if (ROLE === "client") void runClient();
else if (CA_MODE === "env" && !process.env[CERT_DIR_ENV]) void runLauncher();
else void runServer();
