/**
 * Swiss speed, in two parts.
 *
 * 1. Pairing: a tournament of N entrants (default 1,000) played for R rounds (default 9) with seeded random
 *    results; every round is paired by `pairRound` and timed (CPU time of this process, the steadier figure on
 *    a shared machine, and wall time).
 * 2. A round paired and its games created, for real: the composition root (`startServer`) in this process on a
 *    SQLite file (synchronous FULL, the default), a swiss of N entrants joined through the tournament service,
 *    then timed: `start` (round 1: pairing, the N/2 games stored and their rooms opened), and round 2, paired
 *    when round 1's last result is counted (`onGameFinished` with each game's stored record marked finished,
 *    seeded random winners: the last call pairs round 2 and creates its games). Server time is the call's wall
 *    time; the games' part is measured around the games service's creation.
 *
 *   npx tsx loadtest/swiss-bench.ts [--players N] [--rounds R] [--create-players N]
 * Prints one line per round, then one JSON line.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { matchMaker } from "@colyseus/core";
import { pairRound, type PairingResult, type SwissRound } from "../src/services/tournaments/swiss";
import { makeRng, randInt } from "../src/services/ai/rng";
import { testConfig } from "../src/shared/config";
import { startServer } from "../src/server";
import type { GameRecord } from "../src/store/port";

const { values } = parseArgs({
  options: {
    players: { type: "string", default: "1000" },
    rounds: { type: "string", default: "9" },
    "create-players": { type: "string", default: "1000" },
  },
});
const N = Number(values.players);
const R = Number(values.rounds);
const M = Number(values["create-players"]);
const rng = makeRng(34);

// ---- 1. pairing alone ------------------------------------------------------------------------------
const players = Array.from({ length: N }, (_, i) => ({ id: `p${i}`, rating: randInt(rng, 1000, 2499) }));
const outcomes: PairingResult[] = ["first", "second", "draw"];
const history: SwissRound[] = [];
const perRound: { round: number; cpuMs: number; wallMs: number }[] = [];
for (let r = 1; r <= R; r++) {
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  const round = pairRound(players, history);
  const cpu = process.cpuUsage(cpu0);
  const wallMs = performance.now() - wall0;
  const cpuMs = (cpu.user + cpu.system) / 1000;
  perRound.push({ round: r, cpuMs: Math.round(cpuMs), wallMs: Math.round(wallMs) });
  console.log(`round ${r}: ${round.pairings.length} games paired in ${cpuMs.toFixed(0)} ms CPU (${wallMs.toFixed(0)} ms wall)`);
  for (const g of round.pairings) g.outcome = outcomes[randInt(rng, 0, 2)];
  history.push(round);
}
const worst = Math.max(...perRound.map((p) => p.cpuMs));

// ---- 2. a round paired and its games created, through the service and store ------------------------
interface Timed {
  round: number;
  games: number;
  rooms: number;
  serverMs: number;
  cpuMs: number;
  gamesMs: number;
  otherMs: number;
}

async function created(): Promise<Timed[]> {
  const dir = mkdtempSync(join(tmpdir(), "swiss-bench-"));
  const server = await startServer(testConfig({ database: join(dir, "bench.sqlite"), host: "127.0.0.1", tournamentMaxEntrants: Math.max(M, 2) }));
  try {
    // Time spent creating games, wherever the service does it (a method of the games service it holds).
    let gamesMs = 0;
    const games = server.gameCreation as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
    for (const name of ["createForTournament", "createForTournamentRound"]) {
      const original = games[name]?.bind(server.gameCreation);
      if (!original) continue;
      games[name] = async (...a: unknown[]) => {
        const t0 = performance.now();
        try {
          return await original(...a);
        } finally {
          gamesMs += performance.now() - t0;
        }
      };
    }
    const t = await server.tournaments.create({ name: "Bench swiss", format: "swiss", rounds: 9, ruleset: "classic" });
    const id = t.tournament.id;
    for (let i = 0; i < M; i++) await server.tournaments.join(id, { name: `Entrant ${i}` });

    const timed = async (round: number, call: () => Promise<unknown>): Promise<Timed> => {
      gamesMs = 0;
      const cpu0 = process.cpuUsage();
      const wall0 = performance.now();
      await call();
      const serverMs = performance.now() - wall0;
      const cpu = process.cpuUsage(cpu0);
      const stored = (await server.store.tournaments.getTournament(id))!;
      const games = stored.played[round - 1]?.games ?? [];
      // Each game of the round has its room open (the clock runs), not only a stored record.
      const rooms = (await Promise.all(games.map((g) => matchMaker.getRoomById(g.gameId)))).filter(Boolean).length;
      const row = {
        round,
        games: games.length,
        rooms,
        serverMs: Math.round(serverMs),
        cpuMs: Math.round((cpu.user + cpu.system) / 1000),
        gamesMs: Math.round(gamesMs),
        otherMs: Math.round(serverMs - gamesMs),
      };
      console.log(
        `created round ${round}: ${row.games} games (${row.rooms} rooms open) paired and created in ${row.serverMs} ms (${row.cpuMs} ms CPU): games ${row.gamesMs} ms, counting and pairing ${row.otherMs} ms`,
      );
      return row;
    };
    const rows = [await timed(1, () => server.tournaments.start(id, t.directorToken))];

    // Round 1's results, counted one by one; the last one pairs round 2 and creates its games.
    const round1 = (await server.store.tournaments.getTournament(id))!.played[0].games;
    const finished: GameRecord[] = [];
    for (const g of round1) {
      const rec = (await server.store.games.getGame(g.gameId))!;
      finished.push({ ...rec, status: "finished", winner: (["A", "B", "draw"] as const)[randInt(rng, 0, 2)], decidedBy: "board_full", moveCount: 16 });
    }
    for (const rec of finished.slice(0, -1)) await server.tournaments.onGameFinished(rec);
    rows.push(await timed(2, () => server.tournaments.onGameFinished(finished.at(-1)!)));
    return rows;
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void (async () => {
  const create = M >= 2 ? await created() : [];
  console.log(
    JSON.stringify({ bench: "swiss", players: N, rounds: R, worstRoundCpuMs: worst, perRound, created: { players: M, store: "sqlite-file", rounds: create } }),
  );
  process.exit(0);
})();
