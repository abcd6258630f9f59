/** The record fields a listing or profile queries, derived from the engine state; seat lookup by token hash. */
import type { Seat } from "../../engine";
import type { GameRecord, PlayerRecord, PlayerSeatKind } from "../../store/port";
import { factsOf, type GameContext } from "./context";
import { sameHash } from "../../shared/secrets";
import { AppError, fail, type Outcome } from "../../shared/errors";

/**
 * What the store keeps queryable of a game after an action taken at `at` (status, score, winner and the
 * rest lists and profiles read), written with the action in one transaction. Derived, never edited.
 */
export function recordPatch(ctx: GameContext, at: string): Partial<GameRecord> {
  if (!ctx.engine) return {};
  const f = factsOf(ctx);
  const finished = f.status === "finished";
  return {
    moveCount: f.moveCount,
    score: { ...f.score },
    lastMoveAt: ctx.timeline.at(-1) ?? ctx.record.lastMoveAt,
    status: f.status,
    winner: f.winner,
    ...(finished ? { decidedBy: f.decidedBy, finishedAt: ctx.record.finishedAt ?? at } : {}),
  };
}

/**
 * The part of recordPatch(next) that the action from `prev` changed, which is what its write stores: status
 * and winner only when they changed. The store's status is an indexed column, and an UPDATE that assigns it
 * rewrites its index entry even to the same value (a page of WAL on every move).
 */
export function recordChanges(prev: GameContext, next: GameContext, at: string): Partial<GameRecord> {
  const patch = recordPatch(next, at);
  const before = factsOf(prev);
  if (patch.status === before.status) delete patch.status;
  if (patch.winner === before.winner) delete patch.winner;
  return patch;
}

/** Which seat a token hash belongs to (constant-time per seat), or null. */
/**
 * The seat an invite code claims in this record, or why it cannot be claimed: no seat has the code, the seat is
 * taken, or the game no longer waits. A stored record answers for the live game too when it refuses: a claimed
 * seat stays claimed and a game that stopped waiting never waits again (its actor adds the waiting time).
 */
export function seatForClaim(record: Pick<GameRecord, "seats" | "status">, code: string): Outcome<Seat> {
  const seat = (["A", "B"] as const).find((s) => record.seats[s]?.code === code);
  if (!seat) return fail("not_found", "no seat has this invite code");
  if (record.seats[seat]!.tokenHash) return fail("already_joined", "this invite has already been used");
  if (record.status !== "waiting") return fail("code_expired", "this game is no longer waiting for players");
  return { ok: true, value: seat };
}

export function seatOfToken(record: Pick<GameRecord, "seats">, tokenHash: string): Seat | null {
  for (const seat of ["A", "B"] as const) {
    if (sameHash(record.seats[seat]?.tokenHash, tokenHash)) return seat;
  }
  return null;
}

/**
 * Who may read a game: anyone a public game, only its two seats (the sha256 of a seat's player token) a
 * private one. The one rule every read of a game's content follows (records, sync, replay, review, streams,
 * subscriptions, log proofs, spectator joins); a caller it refuses is answered as for an unknown game, so a
 * private game's existence is not revealed either.
 */
export function readableBy(record: Pick<GameRecord, "public" | "seats">, tokenHash: string | null): boolean {
  return record.public !== false || (tokenHash !== null && seatOfToken(record, tokenHash) !== null);
}

/** The refusal of a game that does not exist, or that the caller may not read (readableBy): the same to both. */
export const noSuchGame = (gameId: string): AppError => new AppError("not_found", `no game with id ${gameId}`);

/** The kind a seat taken by this profile carries: "bot" for a bot's profile, "human" otherwise. */
export const seatKindOf = (player: Pick<PlayerRecord, "kind">): PlayerSeatKind => player.kind ?? "human";
