// One view model for the game page, built either from the live room state (WebSocket) or from the REST
// game record (a finished game whose room has been released). The renderer only reads this model.
import type { GameRoomState, SeatState } from "../../../rooms/game-state";
import type { SeatHand } from "../../../rooms/messages";
import { cardById } from "../../../src/engine/champions";
import type { GameRecord } from "./api-types";

export type Seat = "A" | "B";

export interface CardView {
  id: string;
  name: string;
  element: string;
  n: number;
  e: number;
  s: number;
  w: number;
  champion: string;
  tier: number;
}
export interface SeatModel {
  name: string;
  playerId: string;
  kind: string;
  champion: string;
  handCount: number;
  connected: boolean;
}
export interface Tile {
  square: string;
  kind: string;
}

export interface ViewModel {
  status: string;
  turn: string;
  ruleset: string;
  moveCount: number;
  /** The seat of the first placement; seats alternate from it. "" before the game starts. */
  firstPlayer: string;
  lastMove: string;
  pile: number;
  score: Record<Seat, number>;
  winner: string | null;
  decidedBy: string;
  /** Epoch ms; 0 when no clock runs. */
  turnDeadline: number;
  seats: Record<Seat, SeatModel>;
  board: Map<string, { owner: Seat; card: CardView }>;
  chessTiles: Tile[];
  elements: Tile[];
  mutators: string[];
  /** The own hand; null for a spectator or a record (a hand is never sent to anyone else). */
  hand: CardView[] | null;
  /** The own legal moves in notation ("E7@b3") while it is the own turn, else []. */
  legal: string[];
}

export const SQUARES_TOP_DOWN = [4, 3, 2, 1].flatMap((rank) => ["a", "b", "c", "d"].map((file) => `${file}${rank}`));

const seatOf = (s: SeatState | undefined): SeatModel => ({
  name: s?.name || "",
  playerId: s?.playerId || "",
  kind: s?.kind || "human",
  champion: s?.champion || "",
  handCount: s?.handCount ?? 0,
  connected: Boolean(s?.connected),
});

const tierOf = (id: string) => cardById(id)?.tier ?? 0;

const cardOf = (c: { id: string; name: string; element: string; n: number; e: number; s: number; w: number; champion?: string }): CardView => ({
  id: c.id,
  name: c.name,
  element: c.element,
  n: c.n,
  e: c.e,
  s: c.s,
  w: c.w,
  champion: c.champion || "",
  tier: tierOf(c.id),
});

const asSeat = (s: string): Seat => (s === "B" ? "B" : "A");

/** A card's face from its id: the board in the room state holds ids only. */
const faceOf = (id: string): CardView => {
  const def = cardById(id);
  return cardOf({ id, name: def?.name ?? id, element: def?.element ?? "", ...(def?.ranks ?? { n: 0, e: 0, s: 0, w: 0 }), champion: def?.champion });
};

/**
 * From the Colyseus schema state (public: the same for every client) and the own seat's last `hand`
 * message (null for a spectator, or before the first one arrives).
 */
export function fromRoomState(state: GameRoomState, mine: SeatHand | null): ViewModel {
  const board: ViewModel["board"] = new Map();
  state.board.forEach((id, square) => board.set(square, { owner: asSeat(state.owners.get(square) ?? ""), card: faceOf(id) }));
  return {
    status: state.status,
    turn: state.turn,
    ruleset: state.ruleset,
    moveCount: state.moveCount,
    firstPlayer: state.firstPlayer,
    lastMove: state.lastMove,
    pile: state.pile,
    score: { A: state.scoreA, B: state.scoreB },
    winner: state.winner || null,
    decidedBy: state.decidedBy,
    turnDeadline: state.turnDeadline || 0,
    seats: { A: seatOf(state.seats.get("A")), B: seatOf(state.seats.get("B")) },
    board,
    chessTiles: [...state.chessTiles.entries()].map(([square, kind]) => ({ square, kind })),
    elements: [...state.elements.entries()].map(([square, kind]) => ({ square, kind })),
    mutators: [...state.mutators],
    hand: mine ? mine.cards.map(cardOf) : null,
    legal: mine?.legal ?? [],
  };
}

/** A board cell as the REST record and the replay carry it. */
export interface RestCell {
  square: string;
  owner: string;
  card: string;
  name: string;
  element: string;
  ranks: { n: number; e: number; s: number; w: number };
}

export function boardFromCells(cells: readonly RestCell[]): ViewModel["board"] {
  const board: ViewModel["board"] = new Map();
  for (const c of cells) {
    board.set(c.square, {
      owner: asSeat(c.owner),
      card: cardOf({ id: c.card, name: c.name, element: c.element, ...c.ranks, champion: cardById(c.card)?.champion }),
    });
  }
  return board;
}

/** From GET /games/{id}. */
export function fromRecord(r: GameRecord): ViewModel {
  const seat = (s: Seat): SeatModel => ({
    name: r.players[s]?.name || "",
    playerId: r.players[s]?.id || "",
    kind: r.players[s]?.kind || "human",
    champion: r.champions?.[s] || "",
    handCount: r.hands?.[s] ?? 0,
    connected: false,
  });
  return {
    status: r.status,
    turn: r.turn || "",
    ruleset: r.ruleset,
    moveCount: r.moveCount,
    firstPlayer: r.firstPlayer ?? "",
    lastMove: r.moves.at(-1) || "",
    pile: r.pile ?? 0,
    score: r.score,
    winner: ("winner" in r ? r.winner : null) ?? null,
    decidedBy: ("decidedBy" in r ? r.decidedBy : "") || "",
    turnDeadline: r.turnDeadline ? Date.parse(r.turnDeadline) : 0,
    seats: { A: seat("A"), B: seat("B") },
    board: boardFromCells(r.board),
    chessTiles: r.chessTiles.map((t) => ({ square: t.square, kind: t.piece })),
    elements: r.squareElements.map((t) => ({ square: t.square, kind: t.element })),
    mutators: [...r.mutators],
    hand: null,
    legal: [],
  };
}

/** Card art from the generated assets: champions have their own pictures. */
export const artOf = (card: { id: string; champion: string }): string =>
  card.champion ? `/assets/champions/${card.champion}.svg` : `/assets/cards/${card.id}.svg`;

export const cardText = (c: CardView): string =>
  `${c.name}${c.champion ? ` (champion: ${c.champion})` : ""}, ${c.element}${c.tier && !c.champion ? `, tier ${c.tier}` : ""}, north ${c.n}, east ${c.e}, south ${c.s}, west ${c.w}`;

export const other = (seat: Seat): Seat => (seat === "A" ? "B" : "A");

/** How a game ended, as a clause that reads on its own ("A won, 9–7: the board is full"). */
const DECIDED: Record<string, string> = {
  board_full: "the board is full",
  resignation: "won by resignation",
  timeout: "the turn clock ran out",
  aborted: "aborted, so not rated",
};
export const decidedText = (d: string): string => DECIDED[d] || d || "";
