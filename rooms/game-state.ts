/**
 * The schema state a game room replicates to WebSocket clients: only what every client may see, so each
 * change is encoded once and the same bytes go to every seat and spectator (no `.view()` field, which
 * would switch Colyseus to encoding per client). It is flat: cards are ids (a card's face follows from its
 * id: the engine's catalogue, the REST record's board cells, the `hand` message), so a game holds nine
 * schema instances whatever its length: the root, the seat map and its two seats, the board and owner
 * maps, the tile and element maps and the mutator list. It is a projection of the engine state: the room
 * rewrites it after every change and never reads game facts back from it. A seat's hand is never in it:
 * the room sends it to that seat only (rooms/messages.ts, rooms/hands.ts).
 */
import { schema, t } from "@colyseus/schema";

export const SeatState = schema(
  {
    name: t.string().default(""),
    playerId: t.string().default(""),
    kind: t.string().default("human"),
    champion: t.string().default(""),
    connected: t.boolean().default(false),
    handCount: t.uint8().default(0),
  },
  "SeatState",
);
export type SeatState = InstanceType<typeof SeatState>;

export const GameRoomState = schema(
  {
    gameId: t.string().default(""),
    ruleset: t.string().default("classic"),
    /** waiting | active | finished */
    status: t.string().default("waiting"),
    turn: t.string().default(""),
    firstPlayer: t.string().default(""),
    moveCount: t.uint8().default(0),
    lastMove: t.string().default(""),
    pile: t.uint8().default(0),
    scoreA: t.uint8().default(0),
    scoreB: t.uint8().default(0),
    /** "A" | "B" | "draw" | "" (none yet or aborted) */
    winner: t.string().default(""),
    decidedBy: t.string().default(""),
    commitment: t.string().default(""),
    /** Epoch milliseconds; 0 when no clock runs. */
    lastMoveAt: t.number().default(0),
    turnDeadline: t.number().default(0),
    /** "A" and "B", once the seat exists. */
    seats: t.map(SeatState),
    /** Square ("b3") -> id of the card on it ("E7"). */
    board: t.map("string"),
    /** Square -> the seat owning its card ("A" | "B"); a capture changes only this entry. */
    owners: t.map("string"),
    /** Chess tiles: square -> piece. */
    chessTiles: t.map("string"),
    /** With the elemental mutator: square -> element. */
    elements: t.map("string"),
    mutators: t.array("string"),
  },
  "GameRoomState",
);
export type GameRoomState = InstanceType<typeof GameRoomState>;
