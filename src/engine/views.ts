/**
 * Views: what a seat or a spectator may see. Built field by field (never by copying the state and deleting),
 * so a field added to the state later cannot leak the seed, the salt, the pile order or the other hand.
 */
import { boardCells, eachLegalPlacement } from "./apply";
import { SQUARES } from "./board";
import { card } from "./champions";
import { notationOf } from "./notation";
import type { GameState, PublicView, Seat, SeatView, SpectatorView, Square } from "./types";

function publicView(state: GameState): PublicView {
  return {
    ruleset: state.ruleset,
    rulesVersion: state.rulesVersion,
    status: state.status,
    turn: state.turn,
    firstPlayer: state.firstPlayer,
    moveCount: state.moves.length,
    board: boardCells(state.board),
    chessTiles: state.chessTiles.map((t) => ({ ...t })),
    mutators: [...state.mutators],
    squareElements: state.squareElements.map((e) => ({ ...e })),
    champions: { ...state.champions },
    hands: { A: state.hands.A.length, B: state.hands.B.length },
    pile: state.pile.length,
    score: { ...state.score },
    winner: state.winner,
    ...(state.decidedBy ? { decidedBy: state.decidedBy } : {}),
    commitment: state.commitment,
    history: state.moves.map((m) => m.notation),
  };
}

/** The view of one seat: the public view plus its own hand as full card definitions. */
export function seatView(state: GameState, seat: Seat): SeatView {
  const hand = state.hands[seat].map((id) => {
    const c = card(id);
    return { ...c, ranks: { ...c.ranks } };
  });
  return { ...publicView(state), seat, hand };
}

/** The spectator's view: counts only for both hands and the pile. */
export function spectatorView(state: GameState): SpectatorView {
  return publicView(state);
}

/** A legal move as a bot reads it: the notation to send and its parts. */
export interface LegalMove {
  move: string;
  card: string;
  square: Square;
}

/**
 * A card's placement on each square in notation ("E7@b3"), built once per card and shared: a seat's legal
 * list is sent after every turn, and building it string by string was the largest allocation of a move.
 */
const placements = new Map<string, readonly string[]>();

function placementsOf(card: string): readonly string[] {
  let row = placements.get(card);
  if (!row) {
    row = SQUARES.map((square) => notationOf(card, square, 0));
    placements.set(card, row);
  }
  return row;
}

/** The moves `seat` may make now: every legal placement on its turn, none otherwise (or once the game is over). */
export function legalMovesFor(state: GameState, seat: Seat): LegalMove[] {
  const out: LegalMove[] = [];
  if (state.turn === seat) eachLegalPlacement(state, (card, i) => out.push({ move: placementsOf(card)[i], card, square: SQUARES[i] }));
  return out;
}

/** `legalMovesFor(state, seat)`'s notation alone, in the same order, without an object per move. */
export function legalNotationsFor(state: GameState, seat: Seat): string[] {
  const out: string[] = [];
  if (state.turn === seat) eachLegalPlacement(state, (card, i) => out.push(placementsOf(card)[i]));
  return out;
}
