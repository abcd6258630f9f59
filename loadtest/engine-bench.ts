/**
 * Engine and house-opponent speed on this machine.
 *   npm run bench:engine [-- --games N --playouts N --decisions N]
 * 1. Placements applied per second through the public engine (`apply`, with records, notation and events):
 *    seeded random legal play over many games, both rulesets.
 * 2. Placements applied per second in the search representation (src/services/ai/sim) that the house opponent and the
 *    review search with: seeded random playouts from the same kind of deals.
 * 3. Decision time per level (and hard-2026, the former hard): median and p99 over positions taken from
 *    seeded random games.
 * Rates are given per second of wall time and per second of this process's CPU time: on a shared machine the
 * second is the steadier figure (the wall rate falls with every other process that competes for a core).
 * Prints a table, then one JSON line.
 */
import { parseArgs } from "node:util";
import { apply, legalMoves, newGame, seatView } from "../src/engine";
import type { GameState, Ruleset } from "../src/engine/types";
import { type AiLevel, decide } from "../src/services/ai/decide";
import { makeRng, mixSeed, pick, randInt } from "../src/services/ai/rng";
import { fromState, place, simMoves } from "../src/services/ai/sim";
import { createProgress } from "../src/cli/progress";

const { values } = parseArgs({
  options: {
    games: { type: "string", default: "2000" },
    playouts: { type: "string", default: "50000" },
    decisions: { type: "string", default: "300" },
  },
});
const GAMES = Number(values.games);
const PLAYOUTS = Number(values.playouts);
const DECISIONS = Number(values.decisions);

interface Rate {
  wall: number;
  cpu: number;
}

/** Runs `work` (which returns how many placements it made) and rates it per wall and per CPU second. */
function rated(work: () => number): Rate {
  const started = process.hrtime.bigint();
  const cpu0 = process.cpuUsage();
  const placed = work();
  const cpu = process.cpuUsage(cpu0);
  return { wall: placed / (Number(process.hrtime.bigint() - started) / 1e9), cpu: placed / ((cpu.user + cpu.system) / 1e6) };
}

function randomGame(ruleset: Ruleset, seed: number, onPosition?: (s: GameState) => void): number {
  const rng = makeRng(seed);
  let state = newGame({ ruleset }, seed, `bench-${seed}`);
  let placed = 0;
  while (state.status === "active") {
    onPosition?.(state);
    const move = pick(rng, legalMoves(state));
    const res = apply(state, { kind: "place", card: move.card, square: move.square });
    if (!res.ok) throw new Error(res.detail);
    state = res.state;
    placed++;
  }
  return placed;
}

function enginePlacementsPerSecond(): Rate {
  // legalMoves is part of real play (a client lists its options), so it is timed with apply.
  return rated(() => {
    let placed = 0;
    for (let i = 0; i < GAMES; i++) placed += randomGame(i % 2 === 0 ? "classic" : "mutators", mixSeed(7, i) >>> 1);
    return placed;
  });
}

/** Random playouts in the search representation; listing the moves is timed with placing, as in a search. */
function searchPlacementsPerSecond(): Rate {
  const worlds = Array.from({ length: 256 }, (_, i) => fromState(newGame({ ruleset: i % 2 === 0 ? "classic" : "mutators" }, mixSeed(13, i) >>> 1, "bench")));
  const rng = makeRng(5);
  return rated(() => {
    let placed = 0;
    for (let g = 0; g < PLAYOUTS; g++) {
      const { rules, sim: start } = worlds[g % worlds.length];
      let sim = start;
      while (sim.empty > 0) {
        const moves = simMoves(sim);
        const [c, sq] = moves[randInt(rng, 0, moves.length - 1)];
        sim = place(sim, rules, c, sq);
        placed++;
      }
    }
    return placed;
  });
}

/** Positions spread over the whole game (every move number), alternating rulesets. */
function samplePositions(count: number): GameState[] {
  const out: GameState[] = [];
  const rng = makeRng(99);
  for (let i = 0; out.length < count; i++) {
    const keep = randInt(rng, 0, 15);
    randomGame(i % 2 === 0 ? "classic" : "mutators", mixSeed(11, i) >>> 1, (s) => {
      if (s.moves.length === keep && out.length < count) out.push(s);
    });
  }
  return out;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const round = (x: number): number => Math.round(x * 100) / 100;

interface Row {
  level: AiLevel;
  decisions: number;
  medianMs: number;
  p99Ms: number;
  cpuMedianMs: number;
  cpuP99Ms: number;
}
const rows: Row[] = [];
const engine = enginePlacementsPerSecond();
const search = searchPlacementsPerSecond();
const positions = samplePositions(DECISIONS);
// hard-2026 is the hard level before it was strengthened, timed beside the new one.
const LEVELS = ["random", "easy", "normal", "hard", "hard-2026"] as const;
const progress = createProgress("decisions", LEVELS.length * positions.length);
for (const level of LEVELS) {
  const times: number[] = [];
  const cpuTimes: number[] = [];
  positions.forEach((s, i) => {
    const view = seatView(s, s.turn);
    const t0 = process.hrtime.bigint();
    const c0 = process.cpuUsage();
    decide(view, level, { seed: i });
    const c = process.cpuUsage(c0);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    cpuTimes.push((c.user + c.system) / 1e3);
    progress.increment();
  });
  times.sort((a, b) => a - b);
  cpuTimes.sort((a, b) => a - b);
  rows.push({
    level,
    decisions: times.length,
    medianMs: round(percentile(times, 50)),
    p99Ms: round(percentile(times, 99)),
    cpuMedianMs: round(percentile(cpuTimes, 50)),
    cpuP99Ms: round(percentile(cpuTimes, 99)),
  });
}
progress.stop();

const perSecond = (r: Rate) => `${Math.round(r.wall)} placements/s (${Math.round(r.cpu)} per CPU second)`;
console.log(`engine: ${perSecond(engine)} (random legal play through apply, ${GAMES} games, both rulesets)`);
console.log(`search: ${perSecond(search)} (random playouts in the search representation, ${PLAYOUTS} games)`);
console.log("level     decisions  median ms  p99 ms  cpu median ms  cpu p99 ms");
for (const r of rows) {
  console.log(
    `${r.level.padEnd(9)} ${String(r.decisions).padStart(9)} ${String(r.medianMs).padStart(10)} ${String(r.p99Ms).padStart(7)} ${String(r.cpuMedianMs).padStart(14)} ${String(r.cpuP99Ms).padStart(11)}`,
  );
}
console.log(
  JSON.stringify({
    placementsPerSecond: Math.round(engine.wall),
    placementsPerCpuSecond: Math.round(engine.cpu),
    searchPlacementsPerSecond: Math.round(search.wall),
    searchPlacementsPerCpuSecond: Math.round(search.cpu),
    games: GAMES,
    playouts: PLAYOUTS,
    decisionTimes: rows,
  }),
);
