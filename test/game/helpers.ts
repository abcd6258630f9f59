/**
 * Test helpers: hand-built positions. A position starts from a seeded game and then has its board, hands,
 * tiles and mutators replaced, so each rule can be tested in isolation from the deal.
 */
import { strict as assert } from "node:assert";
import { apply, legalMoves, newGame, type Applied, type ChessTile, type GameState, type Mutator, type Seat, type SquareElement } from "../../src/engine";
import { indexOf } from "../../src/engine/board";

export interface PositionSpec {
  /** square -> "CARD:SEAT", e.g. { b2: "S1:B" } */
  board?: Record<string, string>;
  hands?: Partial<Record<Seat, string[]>>;
  pile?: string[];
  turn?: Seat;
  chessTiles?: ChessTile[];
  mutators?: Mutator[];
  squareElements?: SquareElement[];
}

export function position(spec: PositionSpec): GameState {
  const base = newGame({ ruleset: spec.mutators?.length ? "mutators" : "classic", champions: { A: "knight", B: "bastion" } }, 1, "test");
  const board: GameState["board"] = Array.from({ length: 16 }, () => null);
  for (const [sq, v] of Object.entries(spec.board ?? {})) {
    const [card, owner] = v.split(":");
    board[indexOf(sq)] = { card, owner: owner as Seat };
  }
  const score = { A: 0, B: 0 };
  for (const c of board) if (c) score[c.owner]++;
  return {
    ...base,
    board,
    hands: { A: spec.hands?.A ?? [], B: spec.hands?.B ?? [] },
    pile: spec.pile ?? [],
    turn: spec.turn ?? "A",
    firstPlayer: spec.turn ?? "A",
    chessTiles: spec.chessTiles ?? [],
    mutators: spec.mutators ?? [],
    squareElements: spec.squareElements ?? [],
    score,
  };
}

/** Places `card` on `square` for the seat to move and asserts the placement was accepted. */
export function play(state: GameState, card: string, square: string): Applied {
  const res = apply(state, { kind: "place", card, square });
  if (!res.ok) assert.fail(`refused ${card}@${square}: ${res.code} ${res.detail}`);
  return res;
}

/** Owner of the card on a square, or null. */
export function ownerAt(state: GameState, square: string): Seat | null {
  return state.board[indexOf(square)]?.owner ?? null;
}

/** The capture kinds of an applied placement, square -> by. */
export function capturesOf(res: Applied): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of res.events) if (e.type === "captured") out[e.square] = e.by;
  return out;
}

/** Plays a whole game by a deterministic choice function over the legal moves. */
export function playOut(state: GameState, choose: (n: number, moves: number) => number): GameState {
  let s = state;
  let i = 0;
  while (s.status === "active") {
    const moves = legalMoves(s);
    const m = moves[choose(i++, moves.length) % moves.length];
    s = play(s, m.card, m.square).state;
  }
  return s;
}
