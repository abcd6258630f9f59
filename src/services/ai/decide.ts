/**
 * The house opponent. `decide` takes a seat view and nothing else, so it cannot read the seed, the pile
 * order or the other hand: hidden cards are guessed (sampled worlds), never looked up.
 */
import type { Level, SeatView } from "../../engine/types";
import { type Rng, makeRng, pick, rand01 } from "./rng";
import { type Placement, type SearchCtx, type SimMove, evaluate, rootValues, toPlacement, toSimMove } from "./search";
import { fromState, place } from "./sim";
import { sampleWorld, viewMoves } from "./world";
import { FITTED_TABLES, type LearnedTable } from "./learned";

export interface DecideOptions {
  /** Seed of the opponent's own randomness (default 0): same view + level + seed gives the same move. */
  seed?: number;
  /** Placements the search may simulate (default per level, see LEVELS). */
  budget?: number;
}

interface SearchLevel {
  /** Sampled worlds (guesses of the hidden cards) each move is averaged over. */
  worlds: number;
  /** Plies of the first pass over every move. */
  depth: number;
  /** Second pass: the best `refineTop` moves of the first pass searched `refineDepth` plies (0 = none). */
  refineTop: number;
  refineDepth: number;
  /** With this few empty squares left, search every move to the end of the game instead. */
  exactAt: number;
  beam: number;
  positional: number;
  winBonus: number;
  budget: number;
  /** The fitted leaf evaluation (learned.ts) instead of score difference plus `positional` edge safety. */
  learned?: boolean;
}

/**
 * The levels the house opponent can play: the public ones, and `hard-2026`, the hard level as it was before
 * it was strengthened, kept unchanged so that self-play can measure a new hard against it. The public API
 * offers easy, normal and hard only.
 */
export type AiLevel = Level | "hard-2026";
export const AI_LEVELS: readonly AiLevel[] = ["random", "easy", "normal", "hard", "hard-2026"];

/**
 * Level settings, tuned by seeded self-play (`npm run selfplay`). Normal solves the last three placements exactly
 * (`exactAt: 3`): without it, it misjudged the end of mutators games in the first mover's favour (56.2% of decided
 * games over 2,000 at seed 21; docs/RULES.md, "Seat balance of the house levels").
 */
export const LEVELS: Record<"normal" | "hard" | "hard-2026", SearchLevel> = {
  normal: { worlds: 3, depth: 2, refineTop: 0, refineDepth: 0, exactAt: 3, beam: 0, positional: 0, winBonus: 0, budget: 100_000 },
  // hard-2026's search with twice its sampled worlds, its leaves valued by the evaluation fitted to
  // self-play outcomes (learned.ts) instead of score difference and edge safety: the evaluation is what
  // beats hard-2026 (docs/BENCHMARKS.md, "House opponent strength"); deeper refinement, an earlier exact endgame, a
  // wider beam, other hand-set weights and more worlds measured no better or worse against it.
  hard: { worlds: 20, depth: 2, refineTop: 8, refineDepth: 3, exactAt: 5, beam: 6, positional: 0, winBonus: 4, budget: 400_000, learned: true },
  "hard-2026": { worlds: 10, depth: 2, refineTop: 8, refineDepth: 3, exactAt: 5, beam: 6, positional: 0.3, winBonus: 4, budget: 400_000 },
};

/**
 * Easy: one ply, greedy on the card margin plus edge safety (search.ts), with noise and random blunders so that it
 * is beatable and varied. The safety term keeps the seats even between two easy players: without it easy left
 * weak edges open, and in mutators the second mover's last card, which nothing answers, turned them into combo
 * chains (the first mover took 44.0% of decided games over 2,000 at seed 77; docs/RULES.md, "Seat balance of
 * the house levels"). The safety term alone made easy stronger; the higher blunder rate (0.25 before) gives that
 * back.
 */
const EASY = {
  /** Chance of a uniformly random move instead of the greedy choice. */
  blunder: 0.35,
  /** Weight of edge safety beside the card margin, as `positional` of the search levels. */
  positional: 1,
  /** Uniform noise added to each move's value, in cards. */
  noise: 1.5,
} as const;

/** Picks the seat's next placement. Throws when it is not this seat's turn in an active game. */
export function decide(view: SeatView, level: AiLevel, opts: DecideOptions = {}): Placement {
  if (view.status !== "active" || view.turn !== view.seat) throw new Error("decide: not this seat's turn");
  const moves = viewMoves(view);
  if (moves.length === 0) throw new Error("decide: no legal move");
  const rng = makeRng(opts.seed ?? 0);
  if (level === "random" || moves.length === 1) return pick(rng, moves);
  if (level === "easy") return greedy(view, moves, rng);
  return searchMove(view, moves, LEVELS[level], opts.budget, rng);
}

/** Immediate score gain and edge safety in one guessed world, with noise (EASY). */
function greedy(view: SeatView, moves: Placement[], rng: Rng): Placement {
  if (rand01(rng) < EASY.blunder) return pick(rng, moves);
  const { rules, sim } = fromState(sampleWorld(view, rng));
  const ctx = { winBonus: 0, positional: EASY.positional };
  let best = moves[0],
    bestValue = -Infinity;
  for (const m of moves) {
    const [c, sq] = toSimMove(m);
    const v = evaluate(place(sim, rules, c, sq), rules, sim.turn, ctx) + rand01(rng) * EASY.noise;
    if (v > bestValue) [best, bestValue] = [m, v];
  }
  return best;
}

/**
 * Determinized search: each candidate's searched value summed over sampled worlds, the same worlds for
 * every candidate so that the comparison is fair. Ties go to the seeded rng.
 */
function searchMove(view: SeatView, moves: Placement[], cfg: SearchLevel, budget: number | undefined, rng: Rng): Placement {
  const worlds = Array.from({ length: cfg.worlds }, () => fromState(sampleWorld(view, rng)));
  const total = budget ?? cfg.budget;
  const empty = 16 - view.board.length;
  const exact = empty <= cfg.exactAt;
  let candidates = moves.map(toSimMove);
  const learned = cfg.learned ? FITTED_TABLES[view.ruleset] : undefined;
  let sums = pass(worlds, candidates, exact ? empty : cfg.depth, cfg, total / (cfg.refineTop > 0 && !exact ? 2 : 1), learned);
  if (!exact && cfg.refineTop > 0 && candidates.length > 1) {
    // The deeper pass only looks at moves the shallow pass already rates highly, which keeps it affordable.
    const order = candidates
      .map((_, i) => i)
      .sort((a, b) => sums[b] - sums[a])
      .slice(0, cfg.refineTop);
    candidates = order.map((i) => candidates[i]);
    sums = pass(worlds, candidates, cfg.refineDepth, cfg, total / 2, learned);
  }
  const bestValue = Math.max(...sums);
  const best = candidates.filter((_, i) => sums[i] >= bestValue - 1e-9);
  return toPlacement(pick(rng, best));
}

function pass(worlds: ReturnType<typeof fromState>[], moves: SimMove[], depth: number, cfg: SearchLevel, budget: number, learned?: LearnedTable): number[] {
  const sums = moves.map(() => 0);
  worlds.forEach(({ rules, sim }) => {
    // Each world gets an equal share so that a deep first world cannot starve the others.
    const ctx: SearchCtx = { nodes: budget / worlds.length, winBonus: cfg.winBonus, beam: cfg.beam, positional: cfg.positional, learned };
    rootValues(sim, rules, depth, ctx, moves).forEach((v, i) => (sums[i] += v));
  });
  return sums;
}
