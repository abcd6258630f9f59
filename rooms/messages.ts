/**
 * Every WebSocket message of the rooms, in and out, as discriminated unions named by direction. A frame is
 * parsed into a `GameIn` at the boundary (a bad one becomes `Unexpected`, never reaches the engine), and
 * everything a room sends goes through `send` with a typed `GameOut` or `QueueOut`.
 */
import type { Client } from "@colyseus/core";
import type { Seat } from "../src/engine";
import type { ErrorCode } from "../src/shared/errors";
import { MoveBody } from "../src/services/games/schemas";
import type { SeatReservation } from "../src/services/games/room-access";
import type { SeatHand } from "../src/services/games/actor/hand";

export type { HandCard, SeatHand } from "../src/services/games/actor/hand";

/** Client to game room. */
export type GameIn =
  | { type: "move"; body: MoveBody }
  | { type: "resign" }
  /** A seat of a finished friend or quick-match game offers a rematch, or accepts the other seat's offer. */
  | { type: "rematch" }
  /** A seat declines the offered rematch (or takes back its own offer). */
  | { type: "declineRematch" }
  /** A frame that is not one of the above; answered with a `refused` bad_request. */
  | { type: "unexpected"; detail: string };

/**
 * Game room to client (the public schema state travels as patches besides these).
 * - `moved`: the mover's acknowledgement, with its hand after the move and its draw (`legal` is [], as it
 *   is no longer its turn). Never sent to anyone else.
 * - `hand`: to a seat's clients only, on join and reconnection, whenever its hand changes other than by its
 *   own move (a draw, an ability, a move sent from another client or over REST), and whenever its turn
 *   begins. `n` is the game's moveCount the message reflects. Spectators never receive one.
 * - `refused`: an action that changed nothing, with the service's error code.
 * - `rematchOffered`, `rematchDeclined`: to the seats' clients of a finished game (rooms/rematch.ts).
 * - `rematchStarted`: to each seat's own clients only, with that seat's place and token in the new game and
 *   a seat reservation to connect with at once (absent when it could not be made: then `joinById`).
 */
export type GameOut =
  | { type: "moved"; notation: string; n: number; hand: SeatHand }
  | ({ type: "hand"; n: number } & SeatHand)
  | { type: "refused"; code: ErrorCode; detail: string }
  | { type: "rematchOffered"; by: Seat }
  | { type: "rematchDeclined"; by: Seat }
  | { type: "rematchStarted"; gameId: string; seat: Seat; playerToken: string; seatReservation?: SeatReservation };

/** Quick-match queue room to client. */
export type QueueOut =
  | { type: "queued"; ruleset: string; position: number }
  /**
   * `seatReservation` connects the client to its game at once (`client.consumeSeatReservation`), without a
   * matchmaking request; absent when it could not be made, and then `joinById(gameId, { playerToken })`.
   */
  | { type: "matched"; status: "matched"; gameId: string; seat: Seat; playerToken: string; player: unknown; seatReservation?: SeatReservation };

/** Parses one frame sent to a game room. */
export function parseGameIn(type: string | number, message: unknown): GameIn {
  switch (type) {
    case "move": {
      const parsed = MoveBody.safeParse(message);
      return parsed.success ? { type: "move", body: parsed.data } : { type: "unexpected", detail: 'a move is { move: "E7@b3" } or { card, square }' };
    }
    case "resign":
      return { type: "resign" };
    case "rematch":
      return { type: "rematch" };
    case "declineRematch":
      return { type: "declineRematch" };
    default:
      return { type: "unexpected", detail: `unknown message type ${String(type)}` };
  }
}

/** Sends a typed message: its `type` names the Colyseus message, the other members are the payload. */
export function send(client: Client, message: GameOut | QueueOut): void {
  const { type, ...payload } = message;
  client.send(type, payload);
}
