/**
 * Engine and house-opponent speed on this machine.
 *   npm run bench:engine [-- --games N --decisions N]
 * 1. Placements applied per second: seeded random legal play over many games, both rulesets.
 * 2. Decision time per level: median and p99 over positions taken from seeded random games.
 * Prints a table, then one JSON line.
 */
import { parseArgs } from "node:util";
import { apply, legalMoves, newGame, seatView } from "../src/game";
import type { GameState, Level, Ruleset } from "../src/game/types";
import { decide } from "../src/ai/decide";
import { makeRng, mixSeed, pick, randInt } from "../src/ai/rng";

const { values } = parseArgs({
  options: { games: { type: "string", default: "2000" }, decisions: { type: "string", default: "300" } },
});
const GAMES = Number(values.games);
const DECISIONS = Number(values.decisions);

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

function enginePlacementsPerSecond(): number {
  // legalMoves is part of real play (a client lists its options), so it is timed with apply.
  const started = process.hrtime.bigint();
  let placed = 0;
  for (let i = 0; i < GAMES; i++) placed += randomGame(i % 2 === 0 ? "classic" : "mutators", mixSeed(7, i) >>> 1);
  return placed / (Number(process.hrtime.bigint() - started) / 1e9);
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

const rows: Array<{ level: Level; decisions: number; medianMs: number; p99Ms: number }> = [];
const placementsPerSecond = enginePlacementsPerSecond();
const positions = samplePositions(DECISIONS);
for (const level of ["random", "easy", "normal", "hard"] as const) {
  const times: number[] = [];
  positions.forEach((s, i) => {
    const view = seatView(s, s.turn);
    const t0 = process.hrtime.bigint();
    decide(view, level, { seed: i });
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  });
  times.sort((a, b) => a - b);
  rows.push({ level, decisions: times.length, medianMs: round(percentile(times, 50)), p99Ms: round(percentile(times, 99)) });
}

console.log(`engine: ${Math.round(placementsPerSecond)} placements/s (random legal play, ${GAMES} games, both rulesets)`);
console.log("level    decisions  median ms  p99 ms");
for (const r of rows) {
  console.log(`${r.level.padEnd(8)} ${String(r.decisions).padStart(9)} ${String(r.medianMs).padStart(10)} ${String(r.p99Ms).padStart(7)}`);
}
console.log(JSON.stringify({ placementsPerSecond: Math.round(placementsPerSecond), games: GAMES, decisionTimes: rows }));
