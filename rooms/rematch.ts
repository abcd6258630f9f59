/**
 * A finished game's room and its rematch: the room follows the rematch (src/services/games/rematch.ts, shared through the
 * store and presence) and tells its seats' clients what changes.
 */
import type { Client } from "@colyseus/core";
import type { Seat } from "../src/engine";
import type { Rematches } from "../src/services/games/rematch";
import { send } from "./messages";
import { otherSeat } from "../src/engine";

/**
 * A finished game's room tells its seats' clients of its rematch: the offer and a decline to every seat's
 * client, the start to each seat's own clients only, with the token that client joined with (the one its seat
 * plays the rematch with) and its own seat reservation.
 */
export function followRematch(rematches: Rematches, gameId: string, clients: () => readonly Client[]): () => void {
  const dataOf = (c: Client) => (c.userData as { seat?: Seat | null; token?: string } | undefined) ?? {};
  return rematches.subscribe(gameId, (change) => {
    const seated = clients().filter((c) => dataOf(c).seat); // spectators are not part of a rematch
    if (change.type !== "started") {
      for (const client of seated)
        send(client, change.type === "offered" ? { type: "rematchOffered", by: change.by } : { type: "rematchDeclined", by: change.by });
      return;
    }
    const joined = seated.filter((c) => dataOf(c).token);
    // Every client's reservation first, then every message in one go: a client that moves on to the new game
    // at once closes this room, which must not happen before the other seat is told.
    void Promise.all(joined.map((c) => rematches.reserve(change.gameId, dataOf(c).token!))).then((reservations) =>
      joined.forEach((client, i) => {
        const { seat, token } = dataOf(client);
        const seatReservation = reservations[i];
        send(client, {
          type: "rematchStarted",
          gameId: change.gameId,
          seat: otherSeat(seat!),
          playerToken: token!,
          ...(seatReservation ? { seatReservation } : {}),
        });
      }),
    );
  });
}
