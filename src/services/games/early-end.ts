/**
 * A game that ends before both seats have placed a card was never played, so it is aborted and not rated,
 * whichever way it ends early: the turn clock running out (the room's clock) or a resignation. Otherwise a
 * player could lose rating, or an opponent gain it, for a game nobody played.
 */
import type { Action, GameState, Seat } from "../../engine";

/** Placements after which a game counts as played: one by each seat. */
export const PLAYED_AFTER_MOVES = 2;

/** The action a resignation of `seat` stands for: an abort while the game is not yet played. */
export function resignAction(engine: Pick<GameState, "moves"> | null | undefined, seat: Seat): Action {
  return engine && engine.moves.length < PLAYED_AFTER_MOVES ? { kind: "abort" } : { kind: "resign", seat };
}
