/**
 * Projects a GameContext onto the replicated schema state. Only values that differ are written, so a
 * patch carries just what a move changed; the room projects once per accepted action, join or leave and
 * sends one patch for it. Hands are not projected: they go to their seat as messages (rooms/hands.ts).
 */
import { SQUARES, type Seat } from "../src/engine";
import { factsOf, type GameContext } from "../src/services/games/context";
import { type GameRoomState, SeatState } from "./game-state";

/** Top-level and seat fields as plain values, in the shapes the schema state holds them. */
type Top = Pick<
  GameRoomState,
  | "gameId"
  | "ruleset"
  | "status"
  | "commitment"
  | "turn"
  | "firstPlayer"
  | "moveCount"
  | "lastMove"
  | "pile"
  | "scoreA"
  | "scoreB"
  | "winner"
  | "decidedBy"
  | "lastMoveAt"
  | "turnDeadline"
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

/**
 * The room's writer of its schema state: the only code that writes it. It keeps what it last wrote as
 * plain values (fields, each board square's owner), so a projection compares plain values and touches the
 * schema only where something changed: a move patches its square, the flipped owners and a few counters.
 */
export class Projector {
  private readonly top: Partial<Top> = {};
  private readonly seats: Record<Seat, Partial<SeatFields>> = { A: {}, B: {} };
  /** Per board index, the owner last written; undefined while the square is empty. */
  private readonly owners: (Seat | undefined)[] = [];
  private tiles = false;

  constructor(private readonly state: GameRoomState) {}

  project(ctx: GameContext, connected: Record<Seat, boolean>, deadlineMs: number): void {
    const { state } = this;
    const r = ctx.record;
    const e = ctx.engine;
    const f = factsOf(ctx);
    assignChanged<Top>(state, this.top, {
      gameId: r.id,
      ruleset: r.ruleset,
      status: f.status,
      commitment: r.commitment,
      turn: e && f.status === "active" ? e.turn : "",
      firstPlayer: e?.firstPlayer ?? "",
      moveCount: f.moveCount,
      lastMove: f.moves.at(-1)?.notation ?? "",
      pile: e?.pile.length ?? 0,
      scoreA: f.score.A,
      scoreB: f.score.B,
      winner: f.winner ?? "",
      decidedBy: f.status === "finished" ? (f.decidedBy ?? "") : "",
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
      assignChanged<SeatFields>(s, this.seats[seat], {
        name: rec.name,
        playerId: rec.playerId,
        kind: rec.kind,
        champion: e?.champions[seat] ?? rec.champion ?? "",
        connected: rec.kind === "house" || connected[seat],
        handCount: e?.hands[seat].length ?? 0,
      });
    }

    if (!e) return;
    // The engine's own board (16 squares): a card never leaves the board, only its owner changes.
    for (let i = 0; i < e.board.length; i++) {
      const cell = e.board[i];
      if (!cell || this.owners[i] === cell.owner) continue;
      const square = SQUARES[i];
      if (this.owners[i] === undefined) state.board.set(square, cell.card);
      state.owners.set(square, cell.owner);
      this.owners[i] = cell.owner;
    }
    if (!this.tiles) {
      this.tiles = true;
      for (const t of e.chessTiles) state.chessTiles.set(t.square, t.piece);
      for (const t of e.squareElements) state.elements.set(t.square, t.element);
      for (const m of e.mutators) state.mutators.push(m);
    }
  }
}
