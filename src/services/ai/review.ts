/**
 * Post-game review. Once a game is over its seed and salt are public, so the review rebuilds the exact
 * state before every move (real hands, real pile order) and searches it with perfect information.
 *
 * Values are score differences (mover's cards on the board minus the opponent's) after a fixed-depth,
 * deterministic search; a leaf that is not the end of the game adds a small edge-safety term, so that
 * "good" can separate a sound alternative from an equal one. One flipped card moves the difference by 2.
 *
 * Marks by swing (best value minus played value):
 *   best        swing 0 (the played move is as good as any)
 *   good        < 1     (less than half a card)
 *   inaccuracy  < 2.5   (about one card given away)
 *   mistake     < 4.5   (about two cards)
 *   blunder     >= 4.5  (three cards or more: usually decides the game)
 * Accuracy of a seat: mean over its moves of max(0, 100 - 100 * swing / 6), one decimal (a move losing
 * three cards or more counts 0, a best move 100).
 */
import { apply, newGame, UNVERSIONED } from "../../engine";
import type { GameState, Replay, Seat } from "../../engine/types";
import { type SearchCtx, moveKey, rootValues, toPlacement } from "./search";
import { fromState, simMoves } from "./sim";

export type Mark = "best" | "good" | "inaccuracy" | "mistake" | "blunder";

export interface ReviewedMove {
  n: number;
  seat: Seat;
  /** Notation of the move played. */
  played: string;
  /** Notation of the best move found (equal to `played` when the played move was best). */
  best: string;
  /** Best value minus played value, mover's point of view, in score-difference points (>= 0). */
  swing: number;
  mark: Mark;
}

export interface SeatSummary {
  accuracy: number;
  mistakes: number;
  blunders: number;
}

export interface Review {
  gameId: string;
  moves: ReviewedMove[];
  summary: Record<Seat, SeatSummary>;
}

/** Plies searched per move; to the end of the game once this few squares are empty. */
export const REVIEW_DEPTH = 2;
export const REVIEW_EXACT_AT = 4;
/** Placements simulated per reviewed move: bounds the review's cost on any board. */
export const REVIEW_BUDGET = 300_000;
/** Weight of the edge-safety term at leaves that are not the end of the game. */
export const REVIEW_POSITIONAL = 0.25;

export function markOf(swing: number): Mark {
  if (swing <= 1e-9) return "best";
  if (swing < 1) return "good";
  if (swing < 2.5) return "inaccuracy";
  if (swing < 4.5) return "mistake";
  return "blunder";
}

/** The state before the first move, from the replay's public reveal (seed, salt, champions, ruleset, rules version). */
function initialState(replay: Replay): GameState {
  const options = { ruleset: replay.ruleset, rulesVersion: replay.rulesVersion ?? UNVERSIONED, champions: { ...replay.champions } };
  return newGame(options, replay.seed, replay.salt);
}

/** Reviews every placement of a finished game. Throws if the replay does not re-simulate. */
export function reviewGame(replay: Replay): Review {
  let state = initialState(replay);
  const moves: ReviewedMove[] = [];
  for (const rec of replay.moves) {
    const seat = state.turn;
    const { rules, sim } = fromState(state);
    const options = simMoves(sim);
    const ctx: SearchCtx = { nodes: REVIEW_BUDGET, winBonus: 0, beam: 0, positional: REVIEW_POSITIONAL };
    const values = rootValues(sim, rules, sim.empty <= REVIEW_EXACT_AT ? sim.empty : REVIEW_DEPTH, ctx, options);
    let best = 0;
    values.forEach((v, i) => {
      if (v > values[best] + 1e-9) best = i;
    });
    const played = options.findIndex((m) => moveKey(toPlacement(m)) === moveKey(rec));
    if (played < 0) throw new Error(`review: move ${rec.n} (${rec.notation}) is not legal in the rebuilt game`);
    const swing = Math.max(0, round2(values[best] - values[played]));
    const bestMove = toPlacement(options[best]);
    const bestRes = apply(state, { kind: "place", card: bestMove.card, square: bestMove.square });
    const bestNotation = swing === 0 ? rec.notation : bestRes.ok && bestRes.move ? bestRes.move.notation : moveKey(bestMove);
    moves.push({ n: rec.n, seat, played: rec.notation, best: bestNotation, swing, mark: markOf(swing) });
    const res = apply(state, { kind: "place", card: rec.card, square: rec.square });
    if (!res.ok) throw new Error(`review: move ${rec.n} (${rec.notation}) refused: ${res.detail}`);
    state = res.state;
  }
  return { gameId: replay.id, moves, summary: { A: summarize(moves, "A"), B: summarize(moves, "B") } };
}

function summarize(moves: ReviewedMove[], seat: Seat): SeatSummary {
  const mine = moves.filter((m) => m.seat === seat);
  const score = mine.reduce((sum, m) => sum + Math.max(0, 100 - (100 * m.swing) / 6), 0);
  return {
    accuracy: mine.length === 0 ? 100 : Math.round((10 * score) / mine.length) / 10,
    mistakes: mine.filter((m) => m.mark === "mistake").length,
    blunders: mine.filter((m) => m.mark === "blunder").length,
  };
}

const round2 = (x: number): number => Math.round(x * 100) / 100;
