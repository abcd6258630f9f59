/**
 * A leaf evaluation fitted to self-play outcomes: a logistic model of the side's chance to win, read in
 * card units (the logit divided by the score difference's weight at the same stage). Its terms: the score
 * difference; each side's exposed edges, both as a sum of (rank - 5) / 4 and as a count of weak ones (rank 4 or
 * less, which most cards beat); and the mean rank of the side's hand. Every weight is a + b * empty / 16.
 */
import * as simModule from "./sim";
import type { Sim, SimRules } from "./sim";
import type { Ruleset } from "../game/types";

// Held in module constants for speed (see the note in search.ts).
const { IDS, NEIGHBOUR, baseRank } = simModule;

/** [a, b] per term: the term's logit weight is a + b * (empty squares) / 16. */
export interface LearnedWeights {
  diff: readonly [number, number];
  own: readonly [number, number];
  opp: readonly [number, number];
  ownWeak: readonly [number, number];
  oppWeak: readonly [number, number];
  hand: readonly [number, number];
}

/** Mean of a card's four ranks, as placed and under `reverse` (where low ranks are the strong ones). */
const MEAN = Float64Array.from(IDS, (_, c) => (baseRank(c, 0) + baseRank(c, 1) + baseRank(c, 2) + baseRank(c, 3)) / 4);

const at = (w: readonly [number, number], e: number): number => w[0] + w[1] * e;

/**
 * Value for seat index `root` of a position that is not over. `played` is a card `root` has just placed
 * with `placeForEvaluation` (which leaves the hands as they were), or -1: that card leaves the hand and the
 * next pile card joins it.
 */
export function learnedValue(sim: Sim, rules: SimRules, root: number, w: LearnedWeights, played: number): number {
  let own = 0, opp = 0, ownWeak = 0, oppWeak = 0;
  for (let i = 0; i < 16; i++) {
    const c = sim.cards[i];
    if (c < 0) continue;
    const nb = NEIGHBOUR[i];
    for (let k = 0; k < 4; k++) {
      const n = nb[k];
      if (n < 0 || sim.cards[n] >= 0) continue;
      const r = rules.reverse ? 10 - baseRank(c, k) : baseRank(c, k);
      if (sim.owner[i] === root) { own += r - 5; if (r <= 4) ownWeak++; } else { opp += r - 5; if (r <= 4) oppWeak++; }
    }
  }
  const hand = sim.hands[root];
  let sum = 0, n = hand.length;
  for (let j = 0; j < hand.length; j++) sum += MEAN[hand[j]];
  if (played >= 0) {
    sum -= MEAN[played];
    if (sim.pileAt < rules.pile.length) sum += MEAN[rules.pile[sim.pileAt]];
    else n--;
  }
  let mean = n > 0 ? sum / n : 5;
  if (rules.reverse) mean = 10 - mean;
  const e = sim.empty / 16;
  const value = at(w.diff, e) * (sim.score[root] - sim.score[1 - root]) + at(w.own, e) * own / 4 + at(w.opp, e) * opp / 4
    + at(w.ownWeak, e) * ownWeak + at(w.oppWeak, e) * oppWeak + at(w.hand, e) * mean;
  // Read in cards at mid-game: a constant scale, because early on the difference's own weight is near zero.
  return value / at(w.diff, 0.5);
}

/** Fitted per ruleset on self-play positions (hard-2026 and normal players, 1,500 games each). */
export const FITTED: Record<Ruleset, LearnedWeights> = {
  classic: { diff: [1.269, -1.127], own: [-0.122, 0.452], opp: [0.124, -0.412], ownWeak: [-0.92, 1.217], oppWeak: [0.88, -1.162], hand: [0.886, 0.504] },
  mutators: { diff: [0.536, -0.576], own: [-0.328, 0.526], opp: [0.289, -0.514], ownWeak: [-0.715, 0.947], oppWeak: [0.698, -0.907], hand: [0.616, 0.149] },
};
