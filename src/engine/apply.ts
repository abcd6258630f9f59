/**
 * The reducer: apply(state, action) returns a new state and the public events, or a typed refusal.
 * It never mutates its input and never throws for bad input; unknown or malformed actions are `bad_request`.
 */
import { CELLS, indexOf, squareOf } from "./board";
import { card, cardById } from "./champions";
import { notationOf, refuse, splitNotation } from "./notation";
import { resolvePlacement, scoreOf } from "./rules";
import { rulesOf } from "./versions";
import type { Action, ApplyResult, BoardCell, Cell, DecidedBy, GameEvent, GameState, MoveRecord, Refusal, Seat, ShownMove, Square } from "./types";
import { otherSeat } from "./seats";

const isSeat = (s: unknown): s is Seat => s === "A" || s === "B";

/** The whole board as public cells, in square order a1, b1, c1, d1, a2, ... (empty squares left out). */
export function boardCells(board: readonly Cell[]): BoardCell[] {
  const out: BoardCell[] = [];
  for (let i = 0; i < CELLS; i++) {
    const c = board[i];
    if (!c) continue;
    const def = card(c.card);
    out.push({ square: squareOf(i), owner: c.owner, card: c.card, name: def.name, element: def.element, ranks: { ...def.ranks } });
  }
  return out;
}

/** A move as replays, events and answers show it: with the public cells of the board after it, `after`. */
export function shownMove(m: MoveRecord, after: readonly Cell[]): ShownMove {
  return {
    n: m.n,
    seat: m.seat,
    card: m.card,
    square: m.square,
    name: m.name,
    notation: m.notation,
    captures: m.captures,
    score: { ...m.score },
    board: boardCells(after),
  };
}

function finish(state: GameState, winner: GameState["winner"], decidedBy: DecidedBy, events: GameEvent[]): void {
  state.status = "finished";
  state.winner = winner;
  state.decidedBy = decidedBy;
  events.push({ type: "ended", winner, decidedBy, score: { ...state.score } });
}

/** The winner of a full board: the higher score; equal scores are a draw, or the first mover's from version 2. */
function boardWinner(state: GameState): GameState["winner"] {
  const { A, B } = state.score;
  if (A !== B) return A > B ? "A" : "B";
  return rulesOf(state.rulesVersion).tieGoesToFirstMover ? state.firstPlayer : "draw";
}

/** Checks a placement without applying it: the canonical card and square, or why it is refused. */
export function checkPlacement(state: GameState, cardText: unknown, squareText: unknown): { card: string; square: Square; index: number } | Refusal {
  if (typeof cardText !== "string" || typeof squareText !== "string") return refuse("bad_request", "a placement needs a card code and a square");
  if (state.status !== "active") return refuse("game_over", "the game has finished");
  const index = indexOf(squareText);
  if (index < 0) return refuse("illegal_move", `${squareText} is not a square of the board (a1..d4)`);
  const id = cardText.toUpperCase();
  if (!state.hands[state.turn].includes(id)) {
    return refuse("illegal_move", cardById(id) ? `${id} is not in the hand of seat ${state.turn}` : `${cardText.slice(0, 12)} is not a card`);
  }
  if (state.board[index] !== null) return refuse("illegal_move", `${squareOf(index)} is already taken`);
  return { card: id, square: squareOf(index), index };
}

function place(state: GameState, action: { card: unknown; square: unknown; seat?: unknown }): ApplyResult {
  if (action.seat !== undefined && !isSeat(action.seat)) return refuse("bad_request", "seat must be A or B");
  if (state.status !== "active") return refuse("game_over", "the game has finished");
  if (action.seat !== undefined && action.seat !== state.turn) return refuse("not_your_turn", `it is seat ${state.turn}'s turn`);
  const checked = checkPlacement(state, action.card, action.square);
  if ("ok" in checked) return checked;

  const mover = state.turn;
  const placedBoard = state.board.slice();
  placedBoard[checked.index] = { card: checked.card, owner: mover };
  // From version 3 the last placement, which nothing can answer, may be resolved without some mutators.
  const without = rulesOf(state.rulesVersion).lastPlacementWithout;
  const last = without.length > 0 && placedBoard.every((c) => c !== null);
  const ctx = last ? { ...state, mutators: state.mutators.filter((m) => !without.includes(m)) } : state;
  const { board, captures } = resolvePlacement(placedBoard, ctx, checked.index, mover);

  const hand = state.hands[mover].slice();
  hand.splice(hand.indexOf(checked.card), 1);
  const pile = state.pile.slice();
  const wanted = card(checked.card).champion === "herald" ? 2 : 1;
  let drawn = 0;
  while (drawn < wanted && pile.length > 0) {
    hand.push(pile.shift()!);
    drawn++;
  }

  const def = card(checked.card);
  const score = scoreOf(board);
  const move: MoveRecord = {
    n: state.moves.length + 1,
    seat: mover,
    card: checked.card,
    square: checked.square,
    name: def.name,
    notation: notationOf(checked.card, checked.square, captures.length),
    captures: captures.length,
    score,
  };
  const events: GameEvent[] = [{ type: "placed", seat: mover, card: checked.card, square: checked.square }];
  for (const c of captures) {
    events.push({ type: "captured", square: squareOf(c.index), card: board[c.index]!.card, from: otherSeat(mover), to: mover, by: c.by });
  }
  if (drawn > 0) events.push({ type: "drew", seat: mover, count: drawn });

  const next: GameState = {
    ...state,
    board,
    hands: { ...state.hands, [mover]: hand },
    pile,
    moves: [...state.moves, move],
    actions: [...state.actions, { kind: "place", card: checked.card, square: checked.square }],
    score,
    turn: otherSeat(mover),
  };
  if (board.every((c) => c !== null)) finish(next, boardWinner(next), "board_full", events);
  return { ok: true, state: next, events, move };
}

/**
 * Applies one action. Refusals: `bad_request` (malformed), `game_over`, `not_your_turn` (a placement with a
 * seat that is not to move, a timeout for the seat not to move), `illegal_move` (card, square, late abort).
 */
export function apply(state: GameState, action: Action): ApplyResult {
  const a = action as unknown;
  if (typeof a !== "object" || a === null || typeof (a as { kind?: unknown }).kind !== "string") {
    return refuse("bad_request", "an action is an object with a kind: place, resign, timeout or abort");
  }
  const act = a as Record<string, unknown>;
  switch (act.kind) {
    case "place":
      return place(state, act as { card: unknown; square: unknown; seat?: unknown });
    case "resign":
    case "timeout": {
      const seat = act.seat;
      if (!isSeat(seat)) return refuse("bad_request", "seat must be A or B");
      if (state.status !== "active") return refuse("game_over", "the game has finished");
      if (act.kind === "timeout" && seat !== state.turn) return refuse("not_your_turn", `only seat ${state.turn}, the seat to move, can run out of time`);
      const next: GameState = { ...state, actions: [...state.actions, { kind: act.kind, seat }] };
      const events: GameEvent[] = [act.kind === "resign" ? { type: "resigned", seat } : { type: "timed_out", seat }];
      finish(next, otherSeat(seat), act.kind === "resign" ? "resignation" : "timeout", events);
      return { ok: true, state: next, events };
    }
    case "abort": {
      if (state.status !== "active") return refuse("game_over", "the game has finished");
      if (state.moves.length >= 2) return refuse("illegal_move", "a game can be aborted only before both seats have moved");
      const next: GameState = { ...state, actions: [...state.actions, { kind: "abort" }] };
      const events: GameEvent[] = [{ type: "aborted" }];
      finish(next, null, "aborted", events);
      return { ok: true, state: next, events };
    }
    default:
      return refuse("bad_request", `unknown action kind ${String(act.kind).slice(0, 20)}`);
  }
}

/**
 * Visits every legal placement of the seat to move: each card of its hand once (at its first copy's place; a
 * hand may hold two copies), then every empty square in square order; none once the game is over. The one
 * enumeration behind every legal list (legalMoves here, the seat's lists in views.ts).
 */
export function eachLegalPlacement(state: GameState, visit: (card: string, cell: number) => void): void {
  if (state.status !== "active") return;
  const hand = state.hands[state.turn];
  for (let k = 0; k < hand.length; k++) {
    if (hand.indexOf(hand[k]) !== k) continue;
    for (let i = 0; i < CELLS; i++) if (state.board[i] === null) visit(hand[k], i);
  }
}

/** Every legal placement of the seat to move, hand order then square order; [] once the game is over. */
export function legalMoves(state: GameState): Array<{ card: string; square: Square }> {
  const out: Array<{ card: string; square: Square }> = [];
  eachLegalPlacement(state, (card, i) => out.push({ card, square: squareOf(i) }));
  return out;
}

/** Parses notation ("E7@b3", "E7@b3x2") against the state; a stated capture count must be the real one. */
export function parseMove(state: GameState, text: string): { card: string; square: Square } | Refusal {
  const parts = splitNotation(text);
  if (!parts) return refuse("bad_request", "a move is written like E7@b3 or E7@b3x2");
  const checked = checkPlacement(state, parts.card, parts.square);
  if ("ok" in checked) return checked;
  if (parts.captures !== null) {
    const res = apply(state, { kind: "place", card: checked.card, square: checked.square });
    const real = res.ok ? res.move!.captures : 0;
    if (real !== parts.captures) return refuse("illegal_move", `${checked.card}@${checked.square} captures ${real}, not ${parts.captures}`);
  }
  return { card: checked.card, square: checked.square };
}
