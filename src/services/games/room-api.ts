/**
 * The typed seam between the facade and the rooms: what a game room and a quick-match queue room offer,
 * as interfaces the rooms implement. The facade calls them through RoomAccess' typed proxies, local or
 * remote, so argument and result shapes are checked at every call site and no method is named by a string
 * there. Every method answers an Outcome (never throws): a remote call loses a thrown error.
 */
import type { Seat } from "../../engine";
import type { Outcome } from "../../shared/errors";
import type { PlayerRecord } from "../../store/port";
import type { EventName, OutEvent } from "./game-events";
import type { MoveBody } from "./schemas";
import type { SeatClaim } from "./seats";
import type { MoveAnswer, RecordBody, SyncBody } from "./views";

export interface EventsNow {
  events: OutEvent[];
  moveCount: number;
}

export interface GameRoomApi {
  /** A seat's move, named by the sha256 of its player token. */
  move(tokenHash: string, input: MoveBody): Promise<Outcome<MoveAnswer>>;
  resign(tokenHash: string): Promise<Outcome<RecordBody>>;
  /** A seat's view (or a spectator's, tokenHash null) and every move from `since`. */
  sync(tokenHash: string | null, since: number): Outcome<SyncBody>;
  record(): Outcome<RecordBody>;
  /** The events whose condition already holds for a new subscription. */
  eventsNow(name: EventName, args: Record<string, unknown>): Outcome<EventsNow>;
  /**
   * Claims a seat by its invite code; the game starts when both seats are taken. `guest`, the joining
   * player's new guest profile, is stored with the claim in one write; the refusal is `duplicate` when its
   * id is taken (nothing stored: retry with a fresh id).
   */
  claimSeat(code: string, claim: SeatClaim, guest?: PlayerRecord): Promise<Outcome<{ seat: Seat; status: string }>>;
  /** Aborts a waiting game through its open seat's invite code (a declined bot challenge). */
  declineInvite(code: string): Promise<Outcome<null>>;
  /** Aborts the game when it was never played and the player sits in it or is challenged to it (a revoked bot). */
  withdraw(playerId: string): Promise<Outcome<{ aborted: boolean }>>;
  /** Drops a finished league game's seal (GameRecord.sealed), stored already, from what the room shows. */
  unseal(): Outcome<null>;
}

export interface QueueRoomApi {
  enqueue(ticket: string, seat: SeatClaim): Outcome<{ position: number }>;
  touch(ticket: string): Outcome<{ queued: boolean }>;
  leave(ticket: string): Outcome<{ removed: boolean }>;
  /** Removes every entry of a player (a bot whose key was revoked); answers the REST tickets removed. */
  withdrawPlayer(playerId: string): Outcome<{ tickets: string[] }>;
}

/** The methods of each API, listed once: the proxies are built from these lists. */
export const GAME_ROOM_METHODS = [
  "move",
  "resign",
  "sync",
  "record",
  "eventsNow",
  "claimSeat",
  "declineInvite",
  "withdraw",
  "unseal",
] as const satisfies readonly (keyof GameRoomApi)[];
export const QUEUE_ROOM_METHODS = ["enqueue", "touch", "leave", "withdrawPlayer"] as const satisfies readonly (keyof QueueRoomApi)[];

/** What a caller holds: every method of the API, answering a promise whether the room is local or remote. */
export type RoomProxy<T> = { [K in keyof T]: T[K] extends (...a: infer A) => infer R ? (...a: A) => Promise<Awaited<R>> : never };
