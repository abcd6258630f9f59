/**
 * What a game room does with each frame of its clients (a `GameIn`, rooms/messages.ts): the action of the
 * actor or of the rematch service it asks for, and the one message, if any, that answers its sender. It
 * names no Colyseus type (the sender is the actor's `From`), so that the dispatch over the union reads in one
 * place and the room (rooms/game-room.ts) is left with sending what this returns.
 */
import type { Seat } from "../src/engine";
import { fail, type Outcome } from "../src/shared/errors";
import type { Rematches } from "../src/services/games/rematch";
import type { GameActor } from "../src/services/games/actor/game-actor";
import type { GameIn, GameOut, SeatHand } from "./messages";

const NO_HAND: SeatHand = { cards: [], legal: [] };

/** `seat`: the sender's seat, null for a spectator. Resolves to the sender's answer (`moved` or `refused`) or to none. */
export async function answerFrame<From>(
  actor: GameActor<From>,
  rematches: Rematches,
  from: From,
  seat: Seat | null,
  message: GameIn,
): Promise<GameOut | undefined> {
  switch (message.type) {
    case "move": {
      const out = await actor.play(seat, message.body, from);
      return out.ok ? { type: "moved", notation: out.value.move.notation, n: out.value.move.n, hand: out.value.hand ?? NO_HAND } : refused(out);
    }
    case "resign":
      return refused(seat ? await actor.resignAs(seat) : fail("unauthorized", "spectators cannot resign"));
    case "rematch":
    case "declineRematch": {
      const tokenHash = seat ? (actor.ctx.record.seats[seat]?.tokenHash ?? null) : null;
      return refused(message.type === "rematch" ? await rematches.offer(actor.gameId, tokenHash) : await rematches.decline(actor.gameId, tokenHash));
    }
    case "unexpected":
      return { type: "refused", code: "bad_request", detail: message.detail };
  }
}

/** A refusal answers its sender; an accepted action that has no acknowledgement of its own answers nothing. */
function refused(out: Outcome<unknown>): GameOut | undefined {
  return out.ok ? undefined : { type: "refused", code: out.code, detail: out.detail };
}
