/** Record fields derived from the engine state, and seat lookup by token hash. */
import type { Seat } from "../game";
import type { GameRecord } from "../store/port";
import type { GameContext } from "./context";
import { sameHash } from "./secrets";

/** The part of a GameRecord that follows from its engine state after an action taken at `at`. */
export function recordPatch(ctx: GameContext, at: string): Partial<GameRecord> {
  const e = ctx.engine;
  if (!e) return {};
  const finished = e.status === "finished";
  return {
    moveCount: ctx.timeline.length,
    score: { ...e.score },
    lastMoveAt: ctx.timeline.at(-1)?.at ?? ctx.record.lastMoveAt,
    status: finished ? "finished" : "active",
    winner: finished ? e.winner : null,
    ...(finished ? { decidedBy: e.decidedBy, finishedAt: ctx.record.finishedAt ?? at } : {}),
  };
}

/** Which seat a token hash belongs to (constant-time per seat), or null. */
export function seatOfToken(record: GameRecord, tokenHash: string): Seat | null {
  for (const seat of ["A", "B"] as const) {
    if (sameHash(record.seats[seat]?.tokenHash, tokenHash)) return seat;
  }
  return null;
}
