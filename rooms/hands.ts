/**
 * Hands go to their seat only, as messages (rooms/messages.ts), never in the replicated state. Each seat
 * client remembers what it last received (`handKey`: its hand's card ids, plus the move count while it is
 * its turn), so after any change the room sends `hand` to exactly the clients whose hand or turn changed:
 * the seat whose turn begins, a seat that drew, a seat's other clients after its move. The mover's own
 * client gets its hand inside its `moved` acknowledgement instead.
 */
import type { Client } from "@colyseus/core";
import { cardById, legalNotationsFor, type GameState, type Seat } from "../src/engine";
import { send, type HandCard, type SeatHand } from "./messages";

/** What a game room keeps per client that hand delivery reads and writes. */
export interface HandHolder {
  seat: Seat | null;
  handKey?: string;
}

/** A card's face never changes, so each is built once per process and shared by every message. */
const faces = new Map<string, HandCard>();

function faceOf(id: string): HandCard {
  let face = faces.get(id);
  if (!face) {
    const def = cardById(id);
    face = Object.freeze({
      id,
      name: def?.name ?? id,
      element: def?.element ?? "",
      n: def?.ranks.n ?? 0,
      e: def?.ranks.e ?? 0,
      s: def?.ranks.s ?? 0,
      w: def?.ranks.w ?? 0,
      champion: def?.champion ?? "",
    });
    faces.set(id, face);
  }
  return face;
}

const onTurn = (engine: GameState, seat: Seat) => engine.status === "active" && engine.turn === seat;

/** A seat's hand and, when it is its turn, every legal move in notation; empty before the game starts. */
export function seatHand(engine: GameState | null, seat: Seat): SeatHand {
  if (!engine) return { cards: [], legal: [] };
  // The same list, in the same notation, as the seat's REST and MCP views (`legalMoves`).
  return { cards: engine.hands[seat].map(faceOf), legal: legalNotationsFor(engine, seat) };
}

/** What a `hand` message for this seat would show, as a string to compare with what a client last got. */
function handKey(engine: GameState | null, seat: Seat): string {
  if (!engine) return "";
  const ids = engine.hands[seat].join(",");
  return onTurn(engine, seat) ? `${engine.moves.length}|${ids}` : ids;
}

/** The mover's hand for its `moved` acknowledgement; its client then counts as having received it. */
export function acknowledgedHand(client: Client, engine: GameState, seat: Seat): SeatHand {
  (client.userData as HandHolder).handKey = handKey(engine, seat);
  return seatHand(engine, seat);
}

/** Sends `hand` to every seat client whose hand or turn differs from what it last received. */
export function deliverHands(engine: GameState | null, clients: Iterable<Client>): void {
  const n = engine?.moves.length ?? 0;
  const keys: Partial<Record<Seat, string>> = {};
  const hands: Partial<Record<Seat, SeatHand>> = {};
  for (const client of clients) {
    const data = client.userData as HandHolder | undefined;
    const seat = data?.seat;
    if (!seat) continue; // a spectator never receives a hand
    const key = (keys[seat] ??= handKey(engine, seat));
    if (data.handKey === key) continue;
    data.handKey = key;
    send(client, { type: "hand", n, ...(hands[seat] ??= seatHand(engine, seat)) });
  }
}
