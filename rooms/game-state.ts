/**
 * The schema state a game room replicates to WebSocket clients. It is a projection of the engine state:
 * the room rewrites it after every change and never reads game facts back from it. Hands are behind a
 * per-client StateView: a seat's client has only its own hand added to its view; spectators have none.
 */
import { schema, t } from "@colyseus/schema";

export const CardState = schema(
  {
    id: t.string(),
    name: t.string(),
    element: t.string(),
    n: t.uint8(),
    e: t.uint8(),
    s: t.uint8(),
    w: t.uint8(),
    champion: t.string().default(""),
  },
  "CardState",
);
export type CardState = InstanceType<typeof CardState>;

export const CellState = schema(
  {
    square: t.string(),
    owner: t.string(),
    card: t.ref(CardState),
  },
  "CellState",
);
export type CellState = InstanceType<typeof CellState>;

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

export const HandState = schema({ cards: t.array(CardState) }, "HandState");
export type HandState = InstanceType<typeof HandState>;

export const TileState = schema({ square: t.string(), kind: t.string() }, "TileState");
export type TileState = InstanceType<typeof TileState>;

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
    seats: t.map(SeatState),
    board: t.map(CellState),
    /** Chess tiles (kind = piece) and, with the elemental mutator, element squares (kind = element). */
    chessTiles: t.array(TileState),
    elements: t.array(TileState),
    mutators: t.array("string"),
    /** Seat -> hand; each client's view holds only its own seat's entry. */
    hands: t.map(HandState).view(),
  },
  "GameRoomState",
);
export type GameRoomState = InstanceType<typeof GameRoomState>;
