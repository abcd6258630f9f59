/**
 * Projects a GameContext onto the replicated schema state. Only values that differ are written, so a
 * patch carries just what a move changed; the room projects once per accepted action, join or leave and
 * sends one patch for it.
 */
import { cardById, type CardDef, type Seat } from "../src/game";
import { factsOf, type GameContext } from "../src/games/context";
import { CardState, CellState, type GameRoomState, HandState, SeatState, TileState } from "./game-state";

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
  const f = factsOf(ctx);
  const last = f.moves.at(-1);
  set(state, "gameId", r.id);
  set(state, "ruleset", r.ruleset);
  set(state, "status", f.status);
  set(state, "commitment", r.commitment);
  set(state, "turn", e && f.status === "active" ? e.turn : "");
  set(state, "firstPlayer", e?.firstPlayer ?? "");
  set(state, "moveCount", f.moveCount);
  set(state, "lastMove", last?.notation ?? "");
  set(state, "pile", e?.pile.length ?? 0);
  set(state, "scoreA", f.score.A);
  set(state, "scoreB", f.score.B);
  set(state, "winner", f.winner ?? "");
  set(state, "decidedBy", f.status === "finished" ? f.decidedBy ?? "" : "");
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
    for (const cell of last?.board ?? []) {
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
  // Most projections leave a hand as it is (the other seat's move, a join): nothing to compare then.
  if (hand.cards.length === cards.length && cards.every((id, i) => hand.cards[i]?.id === id)) return;
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
