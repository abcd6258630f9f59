/**
 * A game as the service knows it: the stored record, the engine state (once both seats are present) and a
 * public timeline of placements with the events and public state after each. A context is rebuilt from the
 * store's (record, actions) alone, which is what makes every game resumable on any process.
 */
import {
  apply,
  newGame,
  spectatorView,
  type Action,
  type ApplyResult,
  type GameEvent,
  type GameState,
  type MoveRecord,
  type Seat,
  type SpectatorView,
  UNVERSIONED,
} from "../game";
import type { GameRecord, StoredAction } from "../store/port";

/** Public state after a move: what a spectator could see at that moment. */
export type PublicSnapshot = Pick<SpectatorView, "board" | "score" | "turn" | "hands" | "pile" | "status" | "winner" | "decidedBy">;

export interface TimelineEntry {
  /** 0-based move index (the move's `n` is index + 1). */
  index: number;
  move: MoveRecord;
  events: GameEvent[];
  state: PublicSnapshot;
  at: string;
}

export interface GameContext {
  record: GameRecord;
  engine: GameState | null;
  timeline: TimelineEntry[];
  /** Events of non-placement actions (resign, timeout, abort) in order. */
  endEvents: GameEvent[];
}

export function snapshotOf(state: GameState): PublicSnapshot {
  const v = spectatorView(state);
  return { board: v.board, score: v.score, turn: v.turn, hands: v.hands, pile: v.pile, status: v.status, winner: v.winner, decidedBy: v.decidedBy };
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
export function commit(ctx: GameContext, result: Extract<ApplyResult, { ok: true }>, at: string): GameContext {
  const timeline = ctx.timeline.slice();
  const endEvents = ctx.endEvents.slice();
  if (result.move) {
    timeline.push({ index: result.move.n - 1, move: result.move, events: result.events, state: snapshotOf(result.state), at });
  } else {
    endEvents.push(...result.events);
  }
  return { record: ctx.record, engine: result.state, timeline, endEvents };
}

/** Rebuilds a context from the store. Throws if the stored actions do not replay (corruption). */
export function rebuildContext(record: GameRecord, actions: StoredAction[]): GameContext {
  let ctx: GameContext = { record, engine: null, timeline: [], endEvents: [] };
  if (record.status === "waiting" && actions.length === 0) return ctx;
  if (!record.seats.A || !record.seats.B) return ctx;
  ctx = { ...ctx, engine: startEngine(record) };
  for (const a of actions) {
    const r = step(ctx, a.action);
    if (!r.ok) throw new Error(`game ${record.id}: stored action ${a.index} does not replay: ${r.detail}`);
    ctx = commit(ctx, r, a.at);
  }
  return ctx;
}
