/**
 * Guessing the hidden part of the game from one seat's view. The view is all the house opponent gets; a
 * "world" is one full state consistent with it, built by the engine's `determinize` from a sampled
 * opponent hand and pile order.
 */
import { determinize, opponentChampionInHand, unseenCards, otherSeat } from "../../engine";
import type { GameState, SeatView } from "../../engine/types";
import type { Placement } from "./search";
import { type Rng, shuffled } from "./rng";

const SQUARES = ["a", "b", "c", "d"].flatMap((f) => [1, 2, 3, 4].map((r) => `${f}${r}`));

/** Every placement open to the seat: any hand card on any empty square (read from the view alone). */
export function viewMoves(view: SeatView): Placement[] {
  const taken = new Set(view.board.map((c) => c.square));
  const empty = SQUARES.filter((s) => !taken.has(s)).sort((a, b) => a[1].localeCompare(b[1]) || a.localeCompare(b));
  return view.hand.flatMap((c) => empty.map((square) => ({ card: c.id, square })));
}

/**
 * One full state consistent with `view`: the opponent's unplayed champion is certainly in its hand (the
 * roster is public; the engine's `determinize` puts it back), the rest of its hand and the pile order are a
 * uniform guess over the unseen cards.
 */
export function sampleWorld(view: SeatView, rng: Rng): GameState {
  const opp = otherSeat(view.seat);
  const champ = opponentChampionInHand(view);
  const pool = shuffled(rng, unseenCards(view));
  const hand = pool.splice(0, Math.max(0, view.hands[opp] - (champ ? 1 : 0)));
  return determinize(view, hand, pool.slice(0, view.pile));
}
