/**
 * Bradley-Terry ratings with bootstrap confidence intervals: pure (no I/O, no clock, no Math.random), so a
 * table computed by the server and one re-derived from the replays by `league:verify` agree to the bit.
 *
 * Model: P(i beats j) = p_i / (p_i + p_j), fitted by maximum likelihood on the results, a draw counting as half
 * a win each way. Every entrant also plays one virtual drawn game against a fixed reference of strength 1: a
 * weak prior that keeps the fit finite when an entrant won (or lost) everything, and changes little once each
 * entrant has a few dozen games. The log-likelihood is then strictly concave, so Newton's method (with step
 * halving) finds its one maximum in a handful of steps.
 *
 * Ratings are on the Elo scale, 400 * log10(p), shifted so the entrants' mean is 0: a 100-point gap means the
 * higher rated is expected to score 64%.
 */
import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";

/** One counted game between entrants `a` and `b` (indexes), with a's score: 1 win, 0.5 draw, 0 loss. */
export interface PairResult {
  a: number;
  b: number;
  score: 0 | 0.5 | 1;
}

/** A resampling unit: the games that belong together (a duplicate deal's two games). */
export type Unit = readonly PairResult[];

export interface Fit {
  /** Elo-scale ratings, mean 0. */
  ratings: number[];
  /** Newton steps taken. */
  steps: number;
}

const ELO = 400 / Math.LN10;
const MAX_STEPS = 200;
const TOLERANCE = 1e-12;
/** Newton steps shorter than this are taken whole. */
const NEAR = 1e-4;

/** Points of i against j (`w[i][j]`) and games between them (`n[i][j]`), from the results. */
function tally(size: number, games: Iterable<PairResult>) {
  const w = Array.from({ length: size }, () => new Float64Array(size));
  const n = Array.from({ length: size }, () => new Float64Array(size));
  for (const g of games) add(w, n, g, 1);
  return { w, n };
}

function add(w: Float64Array[], n: Float64Array[], g: PairResult, times: number): void {
  if (g.a === g.b) throw new Error(`a game needs two different entrants (got ${g.a} twice)`);
  w[g.a][g.b] += g.score * times;
  w[g.b][g.a] += (1 - g.score) * times;
  n[g.a][g.b] += times;
  n[g.b][g.a] += times;
}

const sigmoid = (x: number): number => (x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x)));
/** log(1 + e^x) without overflow. */
const softplus = (x: number): number => (x > 0 ? x + Math.log1p(Math.exp(-x)) : Math.log1p(Math.exp(x)));

function logLikelihood(theta: Float64Array, w: Float64Array[], n: Float64Array[]): number {
  let l = 0;
  const size = theta.length;
  for (let i = 0; i < size; i++) {
    // The virtual draw against the reference (theta 0): half a win, half a loss.
    l += 0.5 * theta[i] - softplus(theta[i]);
    for (let j = i + 1; j < size; j++) {
      if (n[i][j] === 0) continue;
      const d = theta[i] - theta[j];
      // w_ij * log sigma(d) + w_ji * log sigma(-d)
      l -= w[i][j] * softplus(-d) + w[j][i] * softplus(d);
    }
  }
  return l;
}

/** Solves A x = b for a symmetric positive definite A (Cholesky); A and b are left alone. */
function solve(a: Float64Array[], b: Float64Array): Float64Array {
  const size = b.length;
  const l = Array.from({ length: size }, () => new Float64Array(size));
  for (let i = 0; i < size; i++) {
    for (let j = 0; j <= i; j++) {
      let s = a[i][j];
      for (let k = 0; k < j; k++) s -= l[i][k] * l[j][k];
      l[i][j] = i === j ? Math.sqrt(s) : s / l[j][j];
    }
  }
  const y = new Float64Array(size);
  for (let i = 0; i < size; i++) {
    let s = b[i];
    for (let k = 0; k < i; k++) s -= l[i][k] * y[k];
    y[i] = s / l[i][i];
  }
  const x = new Float64Array(size);
  for (let i = size - 1; i >= 0; i--) {
    let s = y[i];
    for (let k = i + 1; k < size; k++) s -= l[k][i] * x[k];
    x[i] = s / l[i][i];
  }
  return x;
}

/**
 * Newton's method on the natural-log strengths (from `start`, zeros by default); the prior makes the negated
 * Hessian positive definite. Answers the strengths themselves (not centred) and the steps taken.
 */
function newton(w: Float64Array[], n: Float64Array[], start?: Float64Array): { theta: Float64Array; steps: number } {
  const size = w.length;
  let theta = start ? Float64Array.from(start) : new Float64Array(size);
  let current: number | undefined;
  let steps = 0;
  const grad = new Float64Array(size);
  const info = Array.from({ length: size }, () => new Float64Array(size));
  for (; steps < MAX_STEPS; steps++) {
    for (let i = 0; i < size; i++) {
      const s0 = sigmoid(theta[i]);
      grad[i] = 0.5 - s0;
      info[i].fill(0);
      info[i][i] = s0 * (1 - s0);
    }
    for (let i = 0; i < size; i++) {
      for (let j = i + 1; j < size; j++) {
        if (n[i][j] === 0) continue;
        const s = sigmoid(theta[i] - theta[j]);
        grad[i] += w[i][j] - n[i][j] * s;
        grad[j] += w[j][i] - n[i][j] * (1 - s);
        const v = n[i][j] * s * (1 - s);
        info[i][i] += v;
        info[j][j] += v;
        info[i][j] -= v;
        info[j][i] -= v;
      }
    }
    const delta = solve(info, grad);
    let largest = 0;
    for (const d of delta) largest = Math.max(largest, Math.abs(d));
    let next = theta.map((t, i) => t + delta[i]);
    // Step halving: a full Newton step can overshoot far from the optimum; a concave function always improves
    // along the Newton direction for a small enough step. Near the optimum the full step is taken (it converges
    // quadratically there, and rounding in the likelihood would stall the comparison).
    if (largest > NEAR) {
      current ??= logLikelihood(theta, w, n);
      let value = logLikelihood(next, w, n);
      for (let scale = 0.5; value < current && scale > 1e-12; scale /= 2) {
        next = theta.map((t, i) => t + scale * delta[i]);
        value = logLikelihood(next, w, n);
      }
      current = value;
    } else current = undefined;
    theta = next;
    if (largest < TOLERANCE) {
      steps++;
      break;
    }
  }
  return { theta, steps };
}

function ratingsOf(theta: Float64Array): number[] {
  const mean = theta.reduce((s, t) => s + t, 0) / theta.length;
  return Array.from(theta, (t) => (t - mean) * ELO);
}

/** Fits ratings for `size` entrants (indexes 0..size-1) from the games. */
export function fitBradleyTerry(size: number, games: Iterable<PairResult>): Fit {
  if (size < 1) throw new Error("no entrants to rate");
  const { w, n } = tally(size, games);
  const { theta, steps } = newton(w, n);
  return { ratings: ratingsOf(theta), steps };
}

export interface BootstrapOptions {
  /** Resamples drawn (1,000 by default). */
  resamples?: number;
  /** Seed of the generator (xoroshiro128+ of pure-rand, as the house AI's): the same seed, the same interval. */
  seed: number;
  /** Coverage of the interval, 0.95 by default. */
  level?: number;
}

export interface Interval {
  low: number;
  high: number;
}

/**
 * Percentile bootstrap intervals of the ratings: the units are drawn with replacement, as many as there are,
 * the ratings refitted on each draw, and the interval is the middle `level` of each entrant's refitted ratings.
 * Units (not single games) are drawn because the two games of a duplicate deal are not independent: the deal's
 * luck pulls their outcomes in opposite directions, which is what the format is for.
 */
export function bootstrapIntervals(size: number, units: readonly Unit[], options: BootstrapOptions): Interval[] {
  const resamples = options.resamples ?? 1000;
  const level = options.level ?? 0.95;
  const samples = Array.from({ length: size }, () => new Float64Array(resamples));
  const rng = xoroshiro128plus(Math.trunc(options.seed) | 0);
  // Each refit starts from the fit of all the units, which a resample stays near: fewer Newton steps, same optimum.
  const whole = tally(size, units.flat());
  const start = newton(whole.w, whole.n).theta;
  // Units with the same games (pair and scores) add the same to a tally: a resample is tallied by how many times
  // it drew each kind, a few per pair, rather than unit by unit. The draws, and so the intervals, are the same.
  const kinds = new Map<string, number>();
  const kindUnits: Unit[] = [];
  const kindOf = new Int32Array(units.length);
  units.forEach((u, k) => {
    const key = u.map((g) => `${g.a} ${g.b} ${g.score}`).join(",");
    let kind = kinds.get(key);
    if (kind === undefined) {
      kind = kindUnits.push(u) - 1;
      kinds.set(key, kind);
    }
    kindOf[k] = kind;
  });
  const drawn = new Int32Array(kindUnits.length);
  const w = Array.from({ length: size }, () => new Float64Array(size));
  const n = Array.from({ length: size }, () => new Float64Array(size));
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < size; i++) {
      w[i].fill(0);
      n[i].fill(0);
    }
    drawn.fill(0);
    for (let k = 0; k < units.length; k++) drawn[kindOf[uniformInt(rng, 0, units.length - 1)]]++;
    for (let kind = 0; kind < kindUnits.length; kind++) {
      if (drawn[kind] > 0) for (const g of kindUnits[kind]) add(w, n, g, drawn[kind]);
    }
    const ratings = ratingsOf(newton(w, n, start).theta);
    for (let i = 0; i < size; i++) samples[i][r] = ratings[i];
  }
  const tail = (1 - level) / 2;
  return samples.map((s) => {
    s.sort();
    return { low: quantile(s, tail), high: quantile(s, 1 - tail) };
  });
}

/** The q-quantile of sorted values, interpolated linearly between order statistics (R's type 7). */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return NaN;
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}
