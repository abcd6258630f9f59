/**
 * The opponent's reply as the opponent can choose it. Searched in a sampled world, plain minimax lets the
 * opponent pick its reply knowing our hand, so it dodges every trap our hidden cards set and a deeper search
 * grows more pessimistic, not stronger. Here the opponent ranks its replies by our best answer averaged over
 * hands it might imagine for us (our public champion kept, the rest drawn from the cards it cannot see: our
 * hand and the pile), and the reply it picks is then answered with our real hand.
 */
import { type SearchCtx, evaluate, expand } from "./search";
import { IDS, type Sim, type SimRules, isChampion, placeForEvaluation } from "./sim";
import { type Rng, rand01 } from "./rng";

/**
 * One imagined hand of ours, fixed per world before the search: a random key per card; the imagined hand is
 * the highest-keyed cards of the opponent's unseen pool. The same keys for every candidate keep the
 * comparison between candidates fair.
 */
export type Disguise = Float64Array;

export function disguises(rng: Rng, count: number): Disguise[] {
  return Array.from({ length: count }, () => Float64Array.from(IDS, () => rand01(rng)));
}

/** Our hand as the opponent may picture it in this position (`seat` is our seat index). */
function imagined(sim: Sim, rules: SimRules, seat: number, keys: Disguise): number[] {
  const real = sim.hands[seat];
  const kept = real.filter(isChampion);
  const pool = real.filter((c) => !isChampion(c)).concat(rules.pile.slice(sim.pileAt));
  pool.sort((p, q) => keys[q] - keys[p]);
  return kept.concat(pool.slice(0, real.length - kept.length));
}

/** Our best static value after one placement of a card from `hand` (it is our turn in `sim`). */
function bestWith(sim: Sim, rules: SimRules, root: number, hand: readonly number[], ctx: SearchCtx): number {
  if (sim.empty <= 0) return evaluate(sim, rules, root, ctx);
  let best = -Infinity;
  for (let j = 0; j < hand.length; j++) {
    const c = hand[j];
    if (hand.indexOf(c) !== j) continue;
    for (let sq = 0; sq < 16; sq++) {
      if (sim.cards[sq] >= 0) continue;
      const v = evaluate(placeForEvaluation(sim, rules, c, sq), rules, root, ctx, c);
      ctx.nodes--;
      if (v > best) best = v;
    }
  }
  return best;
}

/**
 * Three plies from a position where the opponent is to move after our candidate: its reply (the `beam` best
 * by static value, ranked by our imagined answers), then our real best answer. Values for seat index `root`.
 */
export function fairValue(sim: Sim, rules: SimRules, root: number, ctx: SearchCtx, keys: readonly Disguise[]): number {
  if (sim.empty <= 0 || ctx.nodes <= 0) return evaluate(sim, rules, root, ctx);
  let kids = expand(sim, rules, root, ctx);
  if (kids.length === 0) return evaluate(sim, rules, root, ctx);
  kids.sort((p, q) => p.value - q.value);
  if (ctx.beam > 0 && kids.length > ctx.beam) kids = kids.slice(0, ctx.beam);
  const hands = keys.map((k) => imagined(sim, rules, root, k));
  let seenBest = Infinity, value = 0;
  for (const kid of kids) {
    let seen = 0;
    for (const h of hands) seen += bestWith(kid.sim, rules, root, h, ctx);
    if (seen < seenBest) {
      seenBest = seen;
      value = bestWith(kid.sim, rules, root, kid.sim.hands[root], ctx);
    }
  }
  return value;
}
