/**
 * An arena tournament under load: N entrants (default 500) play game after game for a duration (default
 * 10 minutes) against a real server in this process, their seats played over WebSocket by a load-generating
 * child process (so this process's CPU is the server's, plus its share of forwarding pairings).
 *
 *   npm run bench:arena [-- --entrants 200 --seconds 60 --move-ms 1000]
 *
 * Entrants join over REST and the director starts the arena; from then on every pairing the server makes is
 * told to the child (from the server's event emitter, where a `tournament.paired` webhook delivery starts, over
 * IPC), which joins the game's room with the entrant's token and plays legal moves, one every `--move-ms` per
 * seat (0: as fast as the server answers). A game's finish hook counts it, puts both players back in the pool
 * and pairs them in the same stored change.
 *
 * Reported from the stored tournament when it has finished:
 * - the wait of each pairing: `pairedAt` minus the time each player became free (its game was stored), as the
 *   maximum and p99 over all players' waits, and the same counted from the first moment another entrant they
 *   may meet (not their previous opponent) was waiting too: the pairing system's own delay, as a player alone
 *   in the pool, or with only their last opponent, has nobody to be paired with;
 * - where a wait goes: from a game's stored end to its finish hook (the game's ratings and final record first),
 *   and the hook's own time (counting, pairing, creating the new games);
 * - the server's CPU per game (user + system of this process, from the start to the finish, over the games
 *   counted), games per second, the size of the stored document at the end and the event loop's delay.
 * Prints a summary, then one JSON line.
 */
import { fork, type ChildProcess } from "node:child_process";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { Client } from "@colyseus/sdk";
import type { RunningServer } from "../src/server";
import { args, cpuSince, num, percentile, round, sleep, watchdog } from "./lib/common";
import { newStats, SeatPlayer } from "./lib/player";
import { startBenchServer } from "./lib/server";

const argv = args();
const ROLE = argv.get("role") ?? "server";
const ENTRANTS = num(argv, "entrants", 500, 2, 1000);
const SECONDS = num(argv, "seconds", 600, 5, 43_200);
const MOVE_MS = num(argv, "move-ms", 1000, 0, 60_000);

interface Entrant {
  playerId: string;
  token: string;
}
type ToChild = { type: "setup"; base: string; entrants: Entrant[]; moveMs: number } | { type: "paired"; playerId: string; gameId: string } | { type: "stop" };
type ToParent = { type: "ready" } | { type: "stopped"; games: number; errors: number; errorSamples: string[]; refused: number; joinRetries: number };

if (ROLE === "client") void client();
else
  void server().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });

// ---- the server and the measurement (this process) -------------------------------------------------

async function post(base: string, path: string, body?: unknown, token?: string): Promise<any> {
  const res = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function server(): Promise<void> {
  watchdog((SECONDS + 300) * 1000, "arena-bench");
  const srv: RunningServer = await startBenchServer({ tournamentMaxEntrants: Math.max(1000, ENTRANTS) });
  const base = srv.url;
  const minutes = Math.max(1, Math.ceil(SECONDS / 60));
  const created = await post(base, "/api/v1/tournaments", { name: "Bench arena", format: "arena", minutes });
  const id = created.tournament.id as string;
  const entrants: Entrant[] = [];
  for (let i = 0; i < ENTRANTS; i++) {
    const j = await post(base, `/api/v1/tournaments/${id}/join`, { name: `Bot ${i}` });
    entrants.push({ playerId: j.playerId, token: j.playerToken });
  }

  const child: ChildProcess = fork(__filename, ["--role", "client"], { execArgv: process.execArgv, stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const fromChild = (type: ToParent["type"]) =>
    new Promise<ToParent>((resolve) => {
      const on = (m: ToParent) => {
        if (m.type !== type) return;
        child.off("message", on);
        resolve(m);
      };
      child.on("message", on);
    });
  const send = (m: ToChild) => child.send(m);
  const ready = fromChild("ready");
  send({ type: "setup", base, entrants, moveMs: MOVE_MS });
  await ready;

  // Pairings reach the child as a webhook subscriber's deliveries would start: from the server's emitter.
  const emit = srv.events.emit.bind(srv.events);
  srv.events.emit = (e) => {
    const data = e.data as { player_id?: string; game_id?: string | null };
    if (e.name === "tournament.paired" && data.player_id && data.game_id) send({ type: "paired", playerId: data.player_id, gameId: data.game_id });
    emit(e);
  };

  // Where a wait goes: from the game's stored end to its finish hook reaching the tournament (ratings, the final
  // record), then the hook itself (counting, pairing, creating the games).
  const hookLag: number[] = [];
  const hookMs: number[] = [];
  const onGameFinished = srv.tournaments.onGameFinished.bind(srv.tournaments);
  srv.tournaments.onGameFinished = async (game) => {
    const t = Date.now();
    if (game.finishedAt) hookLag.push(t - Date.parse(game.finishedAt));
    try {
      await onGameFinished(game);
    } finally {
      hookMs.push(Date.now() - t);
    }
  };

  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const cpu0 = process.cpuUsage();
  const t0 = Date.now();
  await post(base, `/api/v1/tournaments/${id}/start`, undefined, created.directorToken);
  if (SECONDS % 60 !== 0) {
    // A duration below whole minutes: the stored end is brought forward, as every check reads it from there.
    for (;;) {
      const t = (await srv.store.tournaments.getTournament(id))!;
      t.arena!.endsAt = new Date(t0 + SECONDS * 1000).toISOString();
      t.version += 1;
      if (await srv.store.tournaments.replaceTournamentIf(t)) break;
    }
  }
  let lastReport = Date.now();
  for (;;) {
    await sleep(500);
    const t = (await srv.store.tournaments.getTournament(id))!;
    if (t.status === "finished") break;
    if (Date.now() - lastReport >= 10_000) {
      lastReport = Date.now();
      const under = t.arena!.games.filter((g) => !g.outcome).length;
      console.log(
        `${Math.round((Date.now() - t0) / 1000)} s: ${t.arena!.games.length - under} games counted, ${under} under way, ${t.arena!.waiting.length} waiting`,
      );
    }
  }
  const cpuUs = cpuSince(cpu0);
  const wallS = (Date.now() - t0) / 1000;
  loop.disable();
  const stopped = fromChild("stopped");
  send({ type: "stop" });
  const clientReport = (await stopped) as Extract<ToParent, { type: "stopped" }>;
  child.disconnect();

  const t = (await srv.store.tournaments.getTournament(id))!;
  const games = t.arena!.games;
  // Each stay in the pool: who, from when, until paired, and whom they could not meet (their previous opponent).
  const ms = (iso: string) => Date.parse(iso);
  const lastOpponent = new Map<string, string>();
  const stays: { player: string; from: number; to: number; avoid?: string }[] = [];
  for (const g of games) {
    const to = ms(g.pairedAt);
    stays.push({ player: g.first, from: ms(g.freeSince[0]), to, avoid: lastOpponent.get(g.first) });
    stays.push({ player: g.second, from: ms(g.freeSince[1]), to, avoid: lastOpponent.get(g.second) });
    lastOpponent.set(g.first, g.second);
    lastOpponent.set(g.second, g.first);
  }
  const waits = stays.map((w) => w.to - w.from);
  // The wait once another entrant it may meet was free too: from the first moment their stays overlap.
  stays.sort((a, b) => a.from - b.from);
  const eligibleWaits = stays.map((w) => {
    let first = w.to;
    for (const o of stays) {
      if (o.from >= first) break;
      if (o.player === w.player || o.to <= w.from || o.player === w.avoid || o.avoid === w.player) continue;
      first = Math.min(first, Math.max(w.from, o.from));
    }
    return w.to - first;
  });
  const docBytes = Buffer.byteLength(JSON.stringify(t));
  const out = {
    bench: "arena",
    entrants: ENTRANTS,
    seconds: SECONDS,
    moveMs: MOVE_MS,
    wallS: round(wallS),
    games: games.length,
    gamesPerSec: round(games.length / wallS),
    waitMaxMs: Math.max(0, ...waits),
    waitP99Ms: percentile(waits, 99),
    waitP50Ms: percentile(waits, 50),
    eligibleWaitMaxMs: Math.max(0, ...eligibleWaits),
    eligibleWaitP99Ms: percentile(eligibleWaits, 99),
    over2s: waits.filter((w) => w > 2000).length,
    hookLagP99Ms: percentile(hookLag, 99),
    hookLagMaxMs: Math.max(0, ...hookLag),
    hookP99Ms: percentile(hookMs, 99),
    hookMaxMs: Math.max(0, ...hookMs),
    cpuMsPerGame: round(cpuUs / 1000 / Math.max(1, games.length), 2),
    serverCpuPercent: round((cpuUs / 1e6 / wallS) * 100),
    docKB: Math.round(docBytes / 1024),
    loopDelayP99Ms: round(loop.percentile(99) / 1e6),
    loopDelayMaxMs: round(loop.max / 1e6),
    clientSeatGames: clientReport.games,
    clientErrors: clientReport.errors,
    errorSamples: clientReport.errorSamples,
    refusedMoves: clientReport.refused,
    joinRetries: clientReport.joinRetries,
  };
  console.log(`arena: ${ENTRANTS} entrants, ${SECONDS} s, a move every ${MOVE_MS} ms per seat: ${out.games} games (${out.gamesPerSec}/s)`);
  console.log(`wait from free to paired: max ${out.waitMaxMs} ms, p99 ${out.waitP99Ms} ms, p50 ${out.waitP50Ms} ms, ${out.over2s} over 2 s`);
  console.log(`wait once another entrant it may meet was free: max ${out.eligibleWaitMaxMs} ms, p99 ${out.eligibleWaitP99Ms} ms`);
  console.log(
    `game stored to finish hook: p99 ${out.hookLagP99Ms} ms, max ${out.hookLagMaxMs} ms; the hook (count, pair, create games): p99 ${out.hookP99Ms} ms, max ${out.hookMaxMs} ms`,
  );
  console.log(
    `server CPU ${out.cpuMsPerGame} ms per game (${out.serverCpuPercent}% of a core); document ${out.docKB} KB; event loop p99 ${out.loopDelayP99Ms} ms, max ${out.loopDelayMaxMs} ms`,
  );
  console.log(JSON.stringify(out));
  await srv.close();
  process.exit(0);
}

// ---- the load generator (child process) ------------------------------------------------------------

async function client(): Promise<void> {
  let base = "";
  let moveMs = 0;
  const tokens = new Map<string, string>();
  const stats = newStats();
  const seats = new Set<SeatPlayer>();
  let games = 0;
  let errors = 0;
  let joinRetries = 0;
  const errorSamples: string[] = [];
  let sdk: Client;
  const play = async (playerId: string, gameId: string) => {
    try {
      // A join refused or timed out on a loaded machine is tried again, as a client would reconnect.
      let seat: SeatPlayer | undefined;
      for (let attempt = 1; !seat; attempt++) {
        try {
          seat = await SeatPlayer.join(sdk, gameId, tokens.get(playerId)!, "A", stats, moveMs);
        } catch (e) {
          joinRetries++;
          if (attempt >= 5) throw e;
          await sleep(250 * attempt);
        }
      }
      seats.add(seat);
      const how = await seat.finished;
      seats.delete(seat);
      if (how === "finished") games++;
      await seat.leave();
    } catch (e) {
      errors++;
      const err = e as { code?: number | string; message?: string; name?: string; type?: string } | undefined;
      if (errorSamples.length < 5) errorSamples.push(`${err?.code ?? err?.name ?? err?.type ?? ""} ${err?.message ?? JSON.stringify(e)}`);
    }
  };
  process.on("message", (m: ToChild) => {
    if (m.type === "setup") {
      base = m.base;
      moveMs = m.moveMs;
      sdk = new Client(base);
      for (const e of m.entrants) tokens.set(e.playerId, e.token);
      process.send?.({ type: "ready" } satisfies ToParent);
    } else if (m.type === "paired") {
      void play(m.playerId, m.gameId);
    } else if (m.type === "stop") {
      // The arena is finished, so every game is over: a seat may not have seen its last patch yet.
      void Promise.race([Promise.all([...seats].map((s) => s.finished)), sleep(3000)]).then(() => {
        for (const s of seats) s.stop();
        const refused = Object.values(stats.refused).reduce((a, b) => a + b, 0);
        process.send?.({ type: "stopped", games, errors, errorSamples, refused, joinRetries } satisfies ToParent);
      });
    }
  });
  process.on("disconnect", () => process.exit(0));
}
