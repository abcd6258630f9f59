/**
 * Projects a GameContext onto the replicated schema state. Only values that differ are written, so a
 * patch carries just what a move changed.
 */
import { cardById, type CardDef, type Seat } from "../src/game";
import type { GameContext } from "../src/games/context";
import { CardState, CellState, GameRoomState, HandState, SeatState, TileState } from "./game-state";

function cardState(def: CardDef): CardState {
  return new CardState({
    id: def.id,
    name: def.name,
    element: def.element,
    n: def.ranks.n,
    e: def.ranks.e,
    s: def.ranks.s,
    w: def.ranks.w,
    champion: def.champion ?? "",
  });
}

function set<T extends object, K extends keyof T>(target: T, key: K, value: T[K]): void {
  if (target[key] !== value) target[key] = value;
}

export function project(state: GameRoomState, ctx: GameContext, connected: Record<Seat, boolean>, deadlineMs: number): void {
  const r = ctx.record;
  const e = ctx.engine;
  set(state, "gameId", r.id);
  set(state, "ruleset", r.ruleset);
  set(state, "status", r.status);
  set(state, "commitment", r.commitment);
  set(state, "turn", e && r.status === "active" ? e.turn : "");
  set(state, "firstPlayer", e?.firstPlayer ?? "");
  set(state, "moveCount", ctx.timeline.length);
  set(state, "lastMove", ctx.timeline.at(-1)?.move.notation ?? "");
  set(state, "pile", e?.pile.length ?? 0);
  set(state, "scoreA", r.score.A);
  set(state, "scoreB", r.score.B);
  set(state, "winner", r.status === "finished" && r.winner ? r.winner : "");
  set(state, "decidedBy", r.status === "finished" ? r.decidedBy ?? "" : "");
  set(state, "lastMoveAt", r.lastMoveAt ? Date.parse(r.lastMoveAt) : 0);
  set(state, "turnDeadline", deadlineMs);

  for (const seat of ["A", "B"] as const) {
    const rec = r.seats[seat];
    if (!rec) continue;
    let s = state.seats.get(seat);
    if (!s) {
      s = new SeatState();
      state.seats.set(seat, s);
    }
    set(s, "name", rec.name);
    set(s, "playerId", rec.playerId);
    set(s, "kind", rec.kind);
    set(s, "champion", e?.champions[seat] ?? rec.champion ?? "");
    set(s, "connected", rec.kind === "house" || connected[seat]);
    set(s, "handCount", e?.hands[seat].length ?? 0);
    projectHand(state, seat, e?.hands[seat] ?? []);
  }

  if (e) {
    for (const cell of ctx.timeline.at(-1)?.move.board ?? []) {
      const existing = state.board.get(cell.square);
      if (!existing) {
        const def = cardById(cell.card);
        if (def) state.board.set(cell.square, new CellState({ square: cell.square, owner: cell.owner, card: cardState(def) }));
      } else {
        set(existing, "owner", cell.owner);
      }
    }
    if (state.chessTiles.length === 0) {
      for (const t of e.chessTiles) state.chessTiles.push(new TileState({ square: t.square, kind: t.piece }));
      for (const t of e.squareElements) state.elements.push(new TileState({ square: t.square, kind: t.element }));
      for (const m of e.mutators) state.mutators.push(m);
    }
  }
}

/** Updates a hand in place: only the cards that left or arrived change, so a move patches two entries. */
function projectHand(state: GameRoomState, seat: Seat, cards: string[]): void {
  let hand = state.hands.get(seat);
  if (!hand) {
    hand = new HandState();
    state.hands.set(seat, hand);
  }
  const wanted = new Set(cards);
  for (let i = hand.cards.length - 1; i >= 0; i--) {
    if (!wanted.has(hand.cards[i].id)) hand.cards.splice(i, 1);
  }
  const present = new Set(hand.cards.map((c) => c.id));
  for (const id of cards) {
    const def = present.has(id) ? undefined : cardById(id);
    if (def) hand.cards.push(cardState(def));
  }
}
