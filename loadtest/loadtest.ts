/**
 * A @colyseus/loadtest scenario: every client creates or joins a game and plays whole games over
 * WebSocket, for a bounded time, then prints a table and one JSON line and exits.
 *
 *   npm run loadtest -- --endpoint http://127.0.0.1:2567 --clients 100 [--seconds 60] [--delay 0] [--output log.txt]
 *
 * Without --endpoint the script boots the server in this process on a free loopback port (rate limits
 * scaled out of the way), which is what the smoke test does. Against a running server, start it with
 * RATE_LIMIT_SCALE=1000 (each pair creates and joins a game every few seconds; the spec's 120 writes a
 * minute per address would refuse them) and a small HOUSE_DELAY_MS if --clients is odd (see below).
 * Only loopback endpoints are accepted.
 *
 * Clients come in pairs: client 2k creates a friend game over REST (POST /api/v1/games) and hands the
 * invite code to client 2k+1, which joins it (POST /api/v1/games/join); both then join the room "game" by
 * id with their player tokens (@colyseus/sdk) and play legal moves from their synced hand onto empty
 * squares. When a game ends, both leave and the pair starts the next one. With an odd --clients the last
 * client plays the house. The @colyseus/loadtest dashboard runs while the test does (its CLI command is
 * deprecated, so this script calls its exported `cli()`).
 */
import { WebSocket as WsWebSocket } from "ws";
(globalThis as { WebSocket?: unknown }).WebSocket ??= WsWebSocket;

import { cli, type Options } from "@colyseus/loadtest";
import { Client } from "@colyseus/sdk";
import { createRequire } from "node:module";
import { args, assertLoopback, HttpClient, median, num, percentile, round, sleep, table, type Seat } from "./lib/common";
import { newStats, SeatPlayer } from "./lib/player";

const argv = args();
const CLIENTS = num(argv, "clients", 10, 1, 5000);
const SECONDS = num(argv, "seconds", 60, 1, 3600);
const DELAY = num(argv, "delay", 0, 0, 60_000);
const stdout = process.stdout.write.bind(process.stdout);

interface GameInvite { gameId: string; code: string }

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

async function main() {
  let endpoint = argv.get("endpoint");
  let stopServer: (() => Promise<void>) | undefined;
  if (!endpoint) {
    const { startBenchServer } = await import("./lib/server");
    const server = await startBenchServer();
    endpoint = server.url;
    stopServer = () => server.close();
  }
  assertLoopback(endpoint);
  const httpBase = endpoint.replace(/^ws(s?):/, "http$1:");
  const http = new HttpClient(httpBase, 256);
  const sdk = new Client(endpoint);
  const stats = newStats(true);
  const counts = { gamesFinished: 0, gamesStarted: 0, errors: 0, rateLimited: 0, stalls: 0, clientsPlaying: 0 };
  const firstErrors: string[] = [];
  const pairs = new Map<number, PairChannel>();
  const players = new Set<SeatPlayer>();
  let running = true;
  const started = Date.now();

  const noteError = (e: unknown) => {
    const msg = e instanceof Error ? e.message : String(e);
    if (/-> 429/.test(msg)) counts.rateLimited++;
    else counts.errors++;
    if (firstErrors.length < 5) firstErrors.push(msg.slice(0, 300));
  };

  /** Plays one game as one seat; resolves when it ends (or stalls, or the run stops). */
  async function play(gameId: string, token: string, seat: Seat, onJoined: () => void) {
    const p = await SeatPlayer.join(sdk, gameId, token, seat, stats);
    players.add(p);
    onJoined();
    let timer: NodeJS.Timeout | undefined;
    const stall = new Promise<"stall">((r) => (timer = setTimeout(() => r("stall"), 30_000)));
    const outcome = await Promise.race([p.finished, stall]);
    clearTimeout(timer);
    if (outcome === "stall" && running) counts.stalls++;
    if (outcome === "finished" && seat === "A") counts.gamesFinished++;
    players.delete(p);
    await p.leave();
  }

  async function clientLoop(id: number, onJoined: () => void) {
    const pairNo = Math.floor(id / 2);
    const creator = id % 2 === 0;
    const alone = creator && id === CLIENTS - 1;
    if (!pairs.has(pairNo)) pairs.set(pairNo, new PairChannel());
    const pair = pairs.get(pairNo)!;
    counts.clientsPlaying++;
    while (running) {
      try {
        if (alone) {
          const g = await http.json("POST", "/api/v1/games", { body: { opponent: "house", level: "easy", name: `lt${id}` } });
          counts.gamesStarted++;
          await play(g.game.id, g.playerToken, g.seat, onJoined);
        } else if (creator) {
          const g = await http.json("POST", "/api/v1/games", { body: { opponent: "friend", name: `lt${id}` } });
          counts.gamesStarted++;
          pair.publish({ gameId: g.game.id, code: g.code });
          await play(g.game.id, g.playerToken, g.seat, onJoined);
        } else {
          const invite = await pair.next();
          if (!invite || !running) break;
          const j = await http.json("POST", "/api/v1/games/join", { body: { code: invite.code, name: `lt${id}` } });
          await play(invite.gameId, j.playerToken, j.seat, onJoined);
        }
      } catch (e) {
        if (!running) break;
        noteError(e);
        onJoined(); // a failed first join must not hold up the clients after this one
        await sleep(1000);
      }
    }
    counts.clientsPlaying--;
  }

  // @colyseus/loadtest reads its options from argv; translate ours.
  process.argv = [process.argv[0], process.argv[1], "--endpoint", endpoint, "--room", "game", "--numClients", String(CLIENTS), "--delay", String(DELAY)];
  if (argv.get("output")) process.argv.push("--output", argv.get("output")!);

  const finishing = sleep(SECONDS * 1000).then(async () => {
    running = false;
    for (const pair of pairs.values()) pair.close();
    await Promise.race([Promise.all([...players].map((p) => p.leave())), sleep(5000)]);
    const elapsed = (Date.now() - started) / 1000;
    restoreTerminal();
    const lat = stats.latencies ?? [];
    const out = {
      bench: "loadtest",
      endpoint,
      clients: CLIENTS,
      seconds: round(elapsed, 1),
      gamesStarted: counts.gamesStarted,
      gamesFinished: counts.gamesFinished,
      movesAcked: stats.acked,
      movesPerSec: round(stats.acked / elapsed, 1),
      moveRttP50Ms: round(median(lat), 2),
      moveRttP99Ms: round(percentile(lat, 99), 2),
      refused: stats.refused,
      stalls: counts.stalls,
      errors: counts.errors,
      rateLimited: counts.rateLimited,
      firstErrors,
    };
    stdout("\n" + table(`@colyseus/loadtest scenario: ${CLIENTS} clients for ${out.seconds} s against ${endpoint}`, ["", "value"], [
      ["games started / finished", `${out.gamesStarted} / ${out.gamesFinished}`],
      ["moves acked", out.movesAcked],
      ["moves/s", out.movesPerSec],
      ["move round trip p50 / p99 ms", `${out.moveRttP50Ms} / ${out.moveRttP99Ms}`],
      ["refused", Object.entries(out.refused).map(([k, v]) => `${k}:${v}`).join(" ") || "0"],
      ["stalled games", out.stalls],
      ["errors / rate-limited", `${out.errors} / ${out.rateLimited}`],
    ]) + "\n");
    for (const e of firstErrors) stdout(`error: ${e}\n`);
    stdout(JSON.stringify(out) + "\n");
    http.close();
    await stopServer?.().catch(() => undefined);
    process.exit(stats.acked > 0 ? 0 : 1);
  });
  void finishing;

  cli(async (options: Options) => {
    // main is awaited client by client: return once this client is in its first room; it plays on.
    await new Promise<void>((joined) => {
      let done = false;
      void clientLoop(options.clientId, () => {
        if (!done) (done = true, joined());
      });
    });
  });
}

/** Takes down the dashboard so the report prints on a normal terminal. */
function restoreTerminal() {
  try {
    const blessed = createRequire(require.resolve("@colyseus/loadtest"))("blessed") as { screen: { instances?: Array<{ destroy(): void }> } };
    for (const s of [...(blessed.screen.instances ?? [])]) s.destroy();
  } catch {
    /* no dashboard */
  }
}

main().catch((e) => {
  restoreTerminal();
  stdout(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
