/**
 * A leaf evaluation fitted to self-play outcomes (`npm run fit:evaluation`): a logistic model of the side's
 * chance to win. Its terms: the score difference; each side's exposed edges (facing an empty square), both as
 * a sum of (rank - 5) / 4 and as a count of weak ones (rank 4 or less, which most cards beat); and the mean
 * rank of the side's hand (cards kept for later). Each term's weight is a + b * empty / 16, so that it can
 * change over the game: early on a captured card is easily lost again.
 */
import * as simModule from "./sim";
import type { Sim, SimRules } from "./sim";
import type { Ruleset } from "../../engine/types";

// Held in module constants for speed (see the note in search.ts).
const { IDS, NEIGHBOUR, baseRank } = simModule;

export const TERMS = ["diff", "own", "opp", "ownWeak", "oppWeak", "hand"] as const;
/** [a, b] per term: the term's logit weight is a + b * (empty squares) / 16. */
export type LearnedWeights = Record<(typeof TERMS)[number], readonly [number, number]>;

/** Mean of a card's four ranks. */
const MEAN = Float64Array.from(IDS, (_, c) => (baseRank(c, 0) + baseRank(c, 1) + baseRank(c, 2) + baseRank(c, 3)) / 4);
const SCRATCH = new Float64Array(TERMS.length);

/**
 * The terms for seat index `root`, in TERMS order, into `out`. `played` is a card `root` has just placed
 * with `placeForEvaluation` (which leaves the hands as they were), or -1: that card leaves the hand and the
 * next pile card joins it. Under `reverse` ranks count as 10 - rank (low ranks are the strong ones there).
 */
export function terms(sim: Sim, rules: SimRules, root: number, played: number, out: Float64Array): Float64Array {
  let own = 0,
    opp = 0,
    ownWeak = 0,
    oppWeak = 0;
  for (let i = 0; i < 16; i++) {
    const c = sim.cards[i];
    if (c < 0) continue;
    const nb = NEIGHBOUR[i];
    for (let k = 0; k < 4; k++) {
      const n = nb[k];
      if (n < 0 || sim.cards[n] >= 0) continue;
      const r = rules.reverse ? 10 - baseRank(c, k) : baseRank(c, k);
      if (sim.owner[i] === root) {
        own += r - 5;
        if (r <= 4) ownWeak++;
      } else {
        opp += r - 5;
        if (r <= 4) oppWeak++;
      }
    }
  }
  const hand = sim.hands[root];
  let sum = 0,
    n = hand.length;
  for (let j = 0; j < hand.length; j++) sum += MEAN[hand[j]];
  if (played >= 0) {
    sum -= MEAN[played];
    if (sim.pileAt < rules.pile.length) sum += MEAN[rules.pile[sim.pileAt]];
    else n--;
  }
  const mean = n > 0 ? sum / n : 5;
  out[0] = sim.score[root] - sim.score[1 - root];
  out[1] = own / 4;
  out[2] = opp / 4;
  out[3] = ownWeak;
  out[4] = oppWeak;
  out[5] = rules.reverse ? 10 - mean : mean;
  return out;
}

/**
 * Value for seat index `root` of a position that is not over: the model's logit, read in cards at
 * mid-game (divided by the score difference's weight at 8 empty squares; a constant scale, because early
 * on that weight is near zero).
 */
export function learnedValue(sim: Sim, rules: SimRules, root: number, w: LearnedTable, played: number): number {
  const t = terms(sim, rules, root, played, SCRATCH);
  const e = sim.empty / 16;
  let logit = 0;
  for (let i = 0; i < TERMS.length; i++) logit += (w[2 * i] + w[2 * i + 1] * e) * t[i];
  return logit / (w[0] + w[1] * 0.5);
}

/** The weights flattened in TERMS order (a, b, a, b, ...), the form the search reads. */
export type LearnedTable = Float64Array;
export const table = (w: LearnedWeights): LearnedTable => Float64Array.from(TERMS.flatMap((t) => w[t]));

/** Fitted per ruleset on self-play positions (`npm run fit:evaluation`, 1,500 games each). */
export const FITTED: Record<Ruleset, LearnedWeights> = {
  classic: { diff: [1.269, -1.127], own: [-0.122, 0.452], opp: [0.124, -0.412], ownWeak: [-0.92, 1.217], oppWeak: [0.88, -1.162], hand: [0.886, 0.504] },
  mutators: { diff: [0.536, -0.576], own: [-0.328, 0.526], opp: [0.289, -0.514], ownWeak: [-0.715, 0.947], oppWeak: [0.698, -0.907], hand: [0.616, 0.149] },
};
export const FITTED_TABLES: Record<Ruleset, LearnedTable> = { classic: table(FITTED.classic), mutators: table(FITTED.mutators) };
