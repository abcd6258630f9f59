/**
 * Fits the house opponent's leaf evaluation (src/services/ai/learned.ts) to self-play outcomes and prints the
 * weights to paste into FITTED there.
 *   npm run fit:evaluation -- [--games N]
 * Per ruleset it plays N seeded games (two in three between hard-2026 players, one in three between normal
 * players, for varied positions), takes every position with 2 to 15 empty squares from both seats' side, and
 * fits a logistic model of that seat winning: the terms of learned.ts, each with a weight a + b * empty / 16,
 * plus an intercept and a side-to-move term (a constant within one search, so not kept).
 */
import { parseArgs } from "node:util";
import { apply, newGame, seatView } from "../src/engine";
import type { Ruleset } from "../src/engine/types";
import { decide } from "../src/services/ai/decide";
import { TERMS, terms } from "../src/services/ai/learned";
import { mixSeed } from "../src/services/ai/rng";
import { fromState } from "../src/services/ai/sim";

const SEEDS: Record<Ruleset, number> = { classic: 11, mutators: 12 };

/** Rows of [won, empty / 16, to move, ...terms] from `games` seeded games. */
function positions(ruleset: Ruleset, games: number): number[][] {
  const rows: number[][] = [];
  for (let g = 0; g < games; g++) {
    const seed = mixSeed(SEEDS[ruleset], g) >>> 1;
    let state = newGame({ ruleset }, seed, `gen-${g}`);
    const seen: Array<ReturnType<typeof fromState>> = [];
    while (state.status === "active") {
      seen.push(fromState(state));
      const move = decide(seatView(state, state.turn), g % 3 === 0 ? "normal" : "hard-2026", { seed: mixSeed(seed, state.moves.length) });
      const res = apply(state, { kind: "place", card: move.card, square: move.square });
      if (!res.ok) throw new Error(`refused move ${move.card}@${move.square}`);
      state = res.state;
    }
    for (const { sim, rules } of seen) {
      if (sim.empty < 2 || sim.empty > 15) continue;
      for (const p of [0, 1]) {
        const won = state.winner === (p === 0 ? "A" : "B") ? 1 : 0;
        rows.push([won, sim.empty / 16, sim.turn === p ? 1 : 0, ...terms(sim, rules, p, -1, new Float64Array(TERMS.length))]);
      }
    }
  }
  return rows;
}

/** Solves a x = b in place (Gaussian elimination with partial pivoting; the systems here are 16 x 16). */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  for (let i = 0; i < n; i++) {
    let p = i;
    for (let r = i + 1; r < n; r++) if (Math.abs(a[r][i]) > Math.abs(a[p][i])) p = r;
    [a[i], a[p]] = [a[p], a[i]];
    [b[i], b[p]] = [b[p], b[i]];
    for (let r = i + 1; r < n; r++) {
      const f = a[r][i] / a[i][i];
      for (let c = i; c < n; c++) a[r][c] -= f * a[i][c];
      b[r] -= f * b[i];
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let i = n - 1; i >= 0; i--) {
    let s = b[i];
    for (let c = i + 1; c < n; c++) s -= a[i][c] * x[c];
    x[i] = s / a[i][i];
  }
  return x;
}

/** Logistic regression by Newton's method with a light ridge (1e-4), 30 steps. */
function fit(x: number[][], y: number[]): number[] {
  const k = x[0].length,
    ridge = 1e-4;
  const w = new Array<number>(k).fill(0);
  for (let step = 0; step < 30; step++) {
    const g = w.map((wi) => ridge * wi);
    const h = Array.from({ length: k }, (_, i) => Array.from({ length: k }, (_, j) => (i === j ? ridge : 0)));
    x.forEach((row, n) => {
      const p = 1 / (1 + Math.exp(-row.reduce((s, v, i) => s + v * w[i], 0)));
      const d = p * (1 - p);
      for (let i = 0; i < k; i++) {
        g[i] += ((p - y[n]) * row[i]) / x.length;
        for (let j = 0; j < k; j++) h[i][j] += (d * row[i] * row[j]) / x.length;
      }
    });
    solve(h, g).forEach((d, i) => (w[i] -= d));
  }
  return w;
}

function main(): void {
  const { values } = parseArgs({ options: { games: { type: "string", default: "1500" } } });
  for (const ruleset of ["classic", "mutators"] as const) {
    const rows = positions(ruleset, Number(values.games));
    // Columns: intercept, empty, to move, to move x empty, then each term and term x empty.
    const x = rows.map(([, e, move, ...t]) => [1, e, move, move * e, ...t.flatMap((v) => [v, v * e])]);
    const w = fit(
      x,
      rows.map((r) => r[0]),
    );
    const weights = TERMS.map((t, i) => `${t}: [${w[4 + 2 * i].toFixed(3)}, ${w[5 + 2 * i].toFixed(3)}]`).join(", ");
    process.stdout.write(`  ${ruleset}: { ${weights} },  // ${rows.length} positions\n`);
  }
}

main();
