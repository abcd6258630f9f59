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

/** Top-level and seat fields as plain values, in the shapes the schema state holds them. */
type Top = Pick<
  GameRoomState,
  "gameId" | "ruleset" | "status" | "commitment" | "turn" | "firstPlayer" | "moveCount" | "lastMove" | "pile" | "scoreA" | "scoreB" | "winner" | "decidedBy" | "lastMoveAt" | "turnDeadline"
>;
type SeatFields = Pick<SeatState, "name" | "playerId" | "kind" | "champion" | "connected" | "handCount">;

/**
 * Writes the fields of `want` that differ from what was last written (`written`, plain values), and
 * remembers them. Comparing against plain values instead of the schema instance reads no schema getters,
 * and a field is only set (and so patched) when it changed.
 */
function assignChanged<T extends object>(target: T, written: Partial<T>, want: T): void {
  for (const key in want) {
    const value = want[key];
    if (written[key] !== value) {
      target[key] = value;
      written[key] = value;
    }
  }
}

const sameCards = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id, i) => b[i] === id);

/**
 * The room's writer of its schema state: the only code that writes it. It keeps what it last wrote as
 * plain values (fields, each hand's card ids, each board square's owner), so a projection compares plain
 * values and touches the schema only where something changed: a move patches its cell, the flips, the
 * mover's hand (one card out, one drawn) and a few counters.
 */
export class Projector {
  private readonly top: Partial<Top> = {};
  private readonly seats: Record<Seat, Partial<SeatFields>> = { A: {}, B: {} };
  private readonly hands: Record<Seat, readonly string[] | null> = { A: null, B: null };
  private readonly owners = new Map<string, string>();
  private tiles = false;

  constructor(private readonly state: GameRoomState) {}

  project(ctx: GameContext, connected: Record<Seat, boolean>, deadlineMs: number): void {
    const { state } = this;
    const r = ctx.record;
    const e = ctx.engine;
    const f = factsOf(ctx);
    const last = f.moves.at(-1);
    assignChanged<Top>(state, this.top, {
      gameId: r.id,
      ruleset: r.ruleset,
      status: f.status,
      commitment: r.commitment,
      turn: e && f.status === "active" ? e.turn : "",
      firstPlayer: e?.firstPlayer ?? "",
      moveCount: f.moveCount,
      lastMove: last?.notation ?? "",
      pile: e?.pile.length ?? 0,
      scoreA: f.score.A,
      scoreB: f.score.B,
      winner: f.winner ?? "",
      decidedBy: f.status === "finished" ? f.decidedBy ?? "" : "",
      lastMoveAt: r.lastMoveAt ? Date.parse(r.lastMoveAt) : 0,
      turnDeadline: deadlineMs,
    });

    for (const seat of ["A", "B"] as const) {
      const rec = r.seats[seat];
      if (!rec) continue;
      let s = state.seats.get(seat);
      if (!s) {
        s = new SeatState();
        state.seats.set(seat, s);
      }
      const cards = e?.hands[seat] ?? [];
      assignChanged<SeatFields>(s, this.seats[seat], {
        name: rec.name,
        playerId: rec.playerId,
        kind: rec.kind,
        champion: e?.champions[seat] ?? rec.champion ?? "",
        connected: rec.kind === "house" || connected[seat],
        handCount: cards.length,
      });
      // Most projections leave a hand as it is (the other seat's move, a join): nothing to compare then.
      const written = this.hands[seat];
      if (!written || !sameCards(written, cards)) this.hands[seat] = projectHand(state, seat, written ?? [], cards);
    }

    if (e) {
      for (const cell of last?.board ?? []) {
        const owner = this.owners.get(cell.square);
        if (owner === cell.owner) continue;
        if (owner === undefined) {
          const def = cardById(cell.card);
          if (!def) continue;
          state.board.set(cell.square, new CellState({ square: cell.square, owner: cell.owner, card: cardState(def) }));
        } else {
          state.board.get(cell.square)!.owner = cell.owner;
        }
        this.owners.set(cell.square, cell.owner);
      }
      if (!this.tiles) {
        this.tiles = true;
        for (const t of e.chessTiles) state.chessTiles.push(new TileState({ square: t.square, kind: t.piece }));
        for (const t of e.squareElements) state.elements.push(new TileState({ square: t.square, kind: t.element }));
        for (const m of e.mutators) state.mutators.push(m);
      }
    }
  }
}

/**
 * Updates a hand in place from the ids last written to the ids wanted: only the cards that left or arrived
 * change, so a move patches two entries. Returns the ids the hand holds now, in its order (kept cards,
 * then arrivals), which is what the next projection compares against.
 */
function projectHand(state: GameRoomState, seat: Seat, written: readonly string[], cards: readonly string[]): string[] {
  let hand = state.hands.get(seat);
  if (!hand) {
    hand = new HandState();
    state.hands.set(seat, hand);
  }
  const wanted = new Set(cards);
  for (let i = written.length - 1; i >= 0; i--) {
    if (!wanted.has(written[i])) hand.cards.splice(i, 1);
  }
  const now = written.filter((id) => wanted.has(id));
  const present = new Set(written);
  for (const id of cards) {
    const def = present.has(id) ? undefined : cardById(id);
    if (def) {
      hand.cards.push(cardState(def));
      now.push(id);
    }
  }
  return now;
}
