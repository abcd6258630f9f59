/** The one shape of a seat being taken, wherever a game gets its seats: a claim, a queue, a pairing, a rematch. */
import type { PlayerSeatKind, SeatRecord } from "../../store/port";

/** A seat about to be taken; `kind` is the profile's own (seatKindOf), so a bot's seat says "bot" everywhere. */
export interface NewSeat {
  playerId: string;
  name: string;
  kind: PlayerSeatKind;
  champion?: SeatRecord["champion"];
}

/** A seat taken with a token: the sha256 of the token its player plays with (invite claim, queue ticket, pairing, rematch). */
export interface SeatClaim extends NewSeat {
  tokenHash: string;
}
