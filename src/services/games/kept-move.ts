/**
 * The answer to a move already kept, asked again (its first answer lost): a card is played once in a game, so
 * this seat's placement of this card on this square is that move. One reading of a game for both places that
 * hold one: the live room's own game (src/services/games/actor/game-actor.ts) and the game rebuilt from the store (GamePlay).
 */
import { seatView, shownMove } from "../../engine";
import { splitNotation } from "../../engine/notation";
import { boardAfter, factsOf, type GameContext } from "./context";
import { seatOfToken } from "./record";
import type { MoveBody } from "./schemas";
import type { MoveAnswer } from "./views";

/**
 * The kept move and the seat's view now, as the room answers a move; null when the token names no seat, or
 * the game holds no such move (another square's, another seat's, or one claimed with other captures than it made).
 */
export function keptMoveIn(ctx: GameContext, tokenHash: string, body: MoveBody): MoveAnswer | null {
  const seat = seatOfToken(ctx.record, tokenHash);
  if (!seat) return null;
  const placed = splitNotation("card" in body ? `${body.card}@${body.square}` : body.move);
  const kept = placed && ctx.engine?.moves.find((m) => m.seat === seat && m.card.toUpperCase() === placed.card && m.square === placed.square);
  if (!kept || (placed.captures !== null && placed.captures !== kept.captures)) return null;
  return { move: shownMove(kept, boardAfter(ctx, kept.n - 1)), view: seatView(ctx.engine!, seat), status: factsOf(ctx).status };
}
