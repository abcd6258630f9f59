/**
 * Perfect-information search over simulator positions. The house opponent runs it on sampled worlds
 * (guessed hidden cards); the review runs it on the real position once everything is public.
 */
import * as simModule from "./sim";
import * as learnedModule from "./learned";
import type { LearnedTable } from "./learned";
import { IDS, type Sim, type SimRules, cardIndex, squareName } from "./sim";

// The hot functions and tables held in module constants: compiled to CommonJS (tsx, the worker threads), an
// imported name is read through the exporting module's getter on every use, which took about half of a
// search's time in the leaf evaluation's inner loop.
const { NEIGHBOUR, baseRank, place, placeForEvaluation, simMoves } = simModule;
const { learnedValue } = learnedModule;

export interface Placement {
  card: string;
  square: string;
}
/** A move in simulator form: [card index, square index]. */
export type SimMove = [number, number];

export interface SearchCtx {
  /** Placements left to simulate; at 0 the search stops expanding and falls back to evaluation. */
  nodes: number;
  /** Added for a won finished game (subtracted for a loss) so the search prefers winning over margin. */
  winBonus: number;
  /** Below the root keep only this many children per node, best first by static evaluation (0 = all). */
  beam: number;
  /** Weight of the edge-safety term; 0 = pure score difference. */
  positional: number;
  /** The fitted evaluation instead of score difference and edge safety, when set. */
  learned?: LearnedTable;
}

export const moveKey = (m: Placement): string => `${m.card}@${m.square}`;
export const toPlacement = ([c, sq]: SimMove): Placement => ({ card: IDS[c], square: squareName(sq) });
export const toSimMove = (m: Placement): SimMove => [cardIndex(m.card), "abcd".indexOf(m.square[0]) + 4 * (Number(m.square[1]) - 1)];

/**
 * Edge safety: a card whose edges facing empty squares are high is hard to flip next turn (low is safe
 * under `reverse`). Scaled so that one exposed weak edge costs a fraction of a captured card.
 */
function safety(sim: Sim, rules: SimRules, root: number): number {
  let total = 0;
  for (let i = 0; i < 16; i++) {
    const c = sim.cards[i];
    if (c < 0) continue;
    for (let k = 0; k < 4; k++) {
      const n = NEIGHBOUR[i][k];
      if (n < 0 || sim.cards[n] >= 0) continue;
      const r = rules.reverse ? 10 - baseRank(c, k) : baseRank(c, k);
      total += ((sim.owner[i] === root ? 1 : -1) * (r - 5)) / 4;
    }
  }
  return total;
}

/** +1 won, -1 lost, 0 drawn for seat index `root` on a full board (a tie goes to `tieWinner` when set). */
function outcome(diff: number, tieWinner: number, root: number): number {
  if (diff !== 0 || tieWinner < 0) return Math.sign(diff);
  return tieWinner === root ? 1 : -1;
}

/**
 * Static value for seat index `root`: on a full board the score difference and the win bonus; otherwise the
 * fitted evaluation when the level has one (`played`: see learnedValue), else score difference and safety term.
 */
export function evaluate(sim: Sim, rules: SimRules, root: number, ctx: Pick<SearchCtx, "winBonus" | "positional" | "learned">, played = -1): number {
  const diff = sim.score[root] - sim.score[1 - root];
  if (sim.empty <= 0) return diff + outcome(diff, rules.tieWinner, root) * ctx.winBonus;
  if (ctx.learned) return learnedValue(sim, rules, root, ctx.learned, played);
  return ctx.positional > 0 ? diff + ctx.positional * safety(sim, rules, root) : diff;
}

interface Child {
  move: SimMove;
  sim: Sim;
  value: number;
}

function expand(sim: Sim, rules: SimRules, root: number, ctx: SearchCtx): Child[] {
  const kids: Child[] = [];
  for (const move of simMoves(sim)) {
    const next = place(sim, rules, move[0], move[1]);
    ctx.nodes--;
    kids.push({ move, sim: next, value: evaluate(next, rules, root, ctx) });
  }
  return kids;
}

/**
 * The last ply: the best child's static value. The same value `expand` and a sort would give, without
 * building and sorting the children (most placements of a search are made here).
 */
function bestReply(sim: Sim, rules: SimRules, root: number, maximizing: boolean, ctx: SearchCtx): number {
  const moves = simMoves(sim);
  if (moves.length === 0) return evaluate(sim, rules, root, ctx);
  let best = maximizing ? -Infinity : Infinity;
  for (const [c, sq] of moves) {
    const v = evaluate(placeForEvaluation(sim, rules, c, sq), rules, root, ctx, maximizing ? c : -1);
    ctx.nodes--;
    if (maximizing ? v > best : v < best) best = v;
  }
  return best;
}

/** Alpha-beta minimax to `depth` plies, values from seat index `root`'s point of view. */
export function minimax(sim: Sim, rules: SimRules, depth: number, alpha: number, beta: number, root: number, ctx: SearchCtx): number {
  if (depth === 0 || sim.empty <= 0 || ctx.nodes <= 0) return evaluate(sim, rules, root, ctx);
  const maximizing = sim.turn === root;
  if (depth === 1) return bestReply(sim, rules, root, maximizing, ctx);
  let kids = expand(sim, rules, root, ctx);
  if (kids.length === 0) return evaluate(sim, rules, root, ctx);
  // Best-first ordering makes the cut-offs bite; the beam drops replies that look hopeless one ply deep.
  kids.sort((p, q) => (maximizing ? q.value - p.value : p.value - q.value));
  if (ctx.beam > 0 && kids.length > ctx.beam) kids = kids.slice(0, ctx.beam);
  let best = maximizing ? -Infinity : Infinity;
  for (const kid of kids) {
    const v = minimax(kid.sim, rules, depth - 1, alpha, beta, root, ctx);
    if (maximizing) {
      if (v > best) best = v;
      if (best > alpha) alpha = best;
    } else {
      if (v < best) best = v;
      if (best < beta) beta = best;
    }
    if (alpha >= beta) break;
  }
  return best;
}

/** The value of each given root move (exact: no pruning at the root), searched `depth` plies in all. */
export function rootValues(sim: Sim, rules: SimRules, depth: number, ctx: SearchCtx, moves: SimMove[] = simMoves(sim)): number[] {
  const root = sim.turn;
  return moves.map(([c, sq]) => {
    const next = place(sim, rules, c, sq);
    ctx.nodes--;
    return depth <= 1 ? evaluate(next, rules, root, ctx) : minimax(next, rules, depth - 1, -Infinity, Infinity, root, ctx);
  });
}
