/**
 * A game as the service knows it: the record as created (with its seats and timestamps), the engine state
 * once both seats are present, and when each placement was played, which the engine does not keep. What a
 * placement did (its events) and the public state after it follow from the engine's actions: they are
 * derived when a rare read shows them (`placementDetails`), not kept by every live game. The engine state is the truth of a live game: status, score,
 * winner and move count are derived from it (`factsOf`), never copied and kept in step. A context is rebuilt
 * from the store's (record, actions) alone, which is what makes every game resumable on any process.
 */
import {
  apply,
  boardCells,
  newGame,
  type Action,
  type ApplyResult,
  type GameEvent,
  type GameState,
  type MoveRecord,
  type Seat,
  type SpectatorView,
  UNVERSIONED,
} from "../../engine";
import type { Cell, DecidedBy, Winner } from "../../engine/types";
import type { GameRecord, GameStatus, StoredAction } from "../../store/port";

/** Public state after a move: what a spectator could see at that moment. */
export type PublicSnapshot = Pick<SpectatorView, "board" | "score" | "turn" | "hands" | "pile" | "status" | "winner" | "decidedBy">;

/** A snapshot without the board, which an answer expands from the board after the move (PlacementDetail.board). */
export type KeptSnapshot = Omit<PublicSnapshot, "board">;

/** What a placement did and the public state it left, besides the engine's own MoveRecord. */
export interface PlacementDetail {
  events: GameEvent[];
  state: KeptSnapshot;
  /** The engine's board after it (cells shared, never changed). */
  board: readonly Cell[];
}

export interface GameContext {
  record: GameRecord;
  engine: GameState | null;
  /** When each placement was played (ISO timestamps): engine.moves[i] was played at timeline[i]. */
  timeline: string[];
  /** Events of non-placement actions (resign, timeout, abort) in order. */
  endEvents: GameEvent[];
}

/** The facts of a game that follow from its engine state (from the record only before the engine exists). */
export interface GameFacts {
  status: GameStatus;
  score: Record<Seat, number>;
  winner: Winner;
  decidedBy?: DecidedBy;
  moveCount: number;
  moves: readonly MoveRecord[];
}

const NO_MOVES: readonly MoveRecord[] = [];

export function factsOf(ctx: GameContext): GameFacts {
  const e = ctx.engine;
  const r = ctx.record;
  if (!e) return { status: r.status, score: r.score, winner: r.status === "finished" ? r.winner : null, decidedBy: r.decidedBy, moveCount: 0, moves: NO_MOVES };
  const finished = e.status === "finished";
  return {
    status: finished ? "finished" : "active",
    score: e.score,
    winner: finished ? e.winner : null,
    decidedBy: finished ? e.decidedBy : undefined,
    moveCount: e.moves.length,
    moves: e.moves,
  };
}

/**
 * The public snapshot of a state without its board, built from just the fields it holds (a spectator view
 * would also copy the tiles, mutators, champions and history on every move).
 */
function keptSnapshotOf(state: GameState): KeptSnapshot {
  return {
    score: { ...state.score },
    turn: state.turn,
    hands: { A: state.hands.A.length, B: state.hands.B.length },
    pile: state.pile.length,
    status: state.status,
    winner: state.winner,
    ...(state.decidedBy ? { decidedBy: state.decidedBy } : {}),
  };
}

/**
 * The events and public state of each placement from index `from` on, derived by replaying the engine's
 * actions from the game's start (a few microseconds a placement): only the rare reads that show past
 * placements (a sync since a move, a replay) pay for them, instead of every live game keeping them.
 */
export function placementDetails(ctx: GameContext, from: number): PlacementDetail[] {
  const engine = ctx.engine;
  const count = engine?.moves.length ?? 0;
  if (!engine || from >= count) return [];
  // The engine's own start (its options, seed and salt): the state its actions were applied to.
  let state = newGame({ ...engine.options, ruleset: engine.ruleset }, engine.seed, engine.salt);
  const out: PlacementDetail[] = [];
  let placed = 0;
  for (const action of engine.actions) {
    const r = apply(state, action);
    if (!r.ok) throw new Error(`game ${ctx.record.id}: its action ${JSON.stringify(action)} does not replay: ${r.detail}`);
    state = r.state;
    if (!r.move) continue;
    if (placed >= from) out.push({ events: r.events, state: keptSnapshotOf(state), board: state.board });
    if (++placed === count) break;
  }
  return out;
}

/** The public snapshot after move `index` of a context: the derived snapshot with the move's board expanded. */
export function snapshotAfter(ctx: GameContext, index: number): PublicSnapshot {
  const d = placementDetails(ctx, index)[0];
  return { board: boardCells(d.board), ...d.state };
}

/** The engine's board after move `index`: the current board for the last move, replayed for an earlier one. */
export function boardAfter(ctx: GameContext, index: number): readonly Cell[] {
  const engine = ctx.engine!;
  return index === engine.moves.length - 1 ? engine.board : placementDetails(ctx, index)[0].board;
}

/** Creates the engine state for a record whose two seats are present. */
export function startEngine(record: GameRecord): GameState {
  const champions: Partial<Record<Seat, NonNullable<GameRecord["seats"]["A"]>["champion"]>> = {};
  for (const seat of ["A", "B"] as const) {
    const c = record.seats[seat]?.champion;
    if (c) champions[seat] = c;
  }
  const options = { ruleset: record.ruleset, rulesVersion: record.rulesVersion ?? UNVERSIONED, champions: champions as GameState["options"]["champions"] };
  return newGame(options, record.seed, record.salt);
}

/** Applies one action to a context's engine; the context itself is not changed. */
export function step(ctx: GameContext, action: Action): ApplyResult {
  if (!ctx.engine) return { ok: false, code: "bad_request", detail: "the game has not started: it waits for its second player" };
  return apply(ctx.engine, action);
}

/** Returns a new context with an applied action recorded in the timeline. */
export function advance(ctx: GameContext, result: Extract<ApplyResult, { ok: true }>, at: string): GameContext {
  // Contexts are values (a room keeps showing the previous one while a finishing action settles), so the
  // list an action extends is copied; the other one is shared.
  if (result.move) {
    const timeline = [...ctx.timeline, at];
    return { record: ctx.record, engine: result.state, timeline, endEvents: ctx.endEvents };
  }
  return { record: ctx.record, engine: result.state, timeline: ctx.timeline, endEvents: [...ctx.endEvents, ...result.events] };
}

/** Rebuilds a context from the store. Throws if the stored actions do not replay (corruption). */
export function rebuildContext(record: GameRecord, actions: StoredAction[]): GameContext {
  let ctx: GameContext = { record, engine: null, timeline: [], endEvents: [] };
  // A game that never started (waiting, or aborted while waiting) has no engine: its record holds its facts.
  if (!record.startedAt && actions.length === 0) return ctx;
  if (!record.seats.A || !record.seats.B) return ctx;
  ctx = { ...ctx, engine: startEngine(record) };
  for (const a of actions) {
    const r = step(ctx, a.action);
    if (!r.ok) throw new Error(`game ${record.id}: stored action ${a.index} does not replay: ${r.detail}`);
    ctx = advance(ctx, r, a.at);
  }
  return ctx;
}
