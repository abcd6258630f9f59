/**
 * Swiss pairing speed: a tournament of N entrants (default 1,000) played for R rounds (default 9) with seeded
 * random results; every round is paired by `pairRound` and timed (CPU time of this process, the steadier
 * figure on a shared machine, and wall time). Pairing only: creating the round's games is not included.
 *   npx tsx loadtest/swiss-bench.ts [--players N] [--rounds R]
 * Prints one line per round, then one JSON line.
 */
import { parseArgs } from "node:util";
import { pairRound, type Outcome, type SwissRound } from "../src/tournaments/swiss";
import { makeRng, randInt } from "../src/ai/rng";

const { values } = parseArgs({ options: { players: { type: "string", default: "1000" }, rounds: { type: "string", default: "9" } } });
const N = Number(values.players);
const R = Number(values.rounds);
const rng = makeRng(34);
const players = Array.from({ length: N }, (_, i) => ({ id: `p${i}`, rating: randInt(rng, 1000, 2499) }));
const outcomes: Outcome[] = ["first", "second", "draw"];
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
console.log(JSON.stringify({ bench: "swiss-pairing", players: N, rounds: R, worstRoundCpuMs: worst, perRound }));
