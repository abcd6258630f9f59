/**
 * The shapes the events context shares with its callers (the game rooms, the agent challenges and the
 * composition root). Kept apart so that callers can import them without pulling in the HTTP machinery.
 */
import type { Seat } from "../../engine/types";
import type { EventName } from "./catalog";

/** The part of a pino Logger this context uses (a pino Logger satisfies it). */
export interface EventsLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** One domain event as a room reports it. */
export interface EmittedEvent {
  name: EventName;
  /**
   * Stored subscription arguments the event is for; a subscription matches when its arguments include every
   * pair: `{game_id}` (every subscriber of the game), `{game_id, seat}` (one seat's game.turn), `{token}`.
   */
  match: Record<string, unknown>;
  /** The delivery's `data`, shaped as the catalog's data schema of `name`. */
  data: Record<string, unknown>;
  /**
   * Position in the game's stream: the game's move count once this event happened (the first move is 1).
   * Sent to subscribers as the delivery's `cursor`; for game.move, events at or before a subscription's
   * cursor are skipped (they were already played when it subscribed, or were already sent).
   */
  sequence?: number;
}

/** An event to deliver to one known subscription (the "fires at once" events of a new subscription). */
export type InitialEvent = Pick<EmittedEvent, "data" | "sequence">;

/**
 * Maps a game.turn player token to its seat: the seat for a valid token, null for a wrong one; throws
 * `AppError("not_found")` for an unknown game.
 */
/**
 * The seat of a player token (or of none: null) in a game, null when it holds none; rejects with not_found, as
 * for an unknown game, when the caller may not read the game (a private game's, without a seat's token).
 */
export type ResolveSeat = (gameId: string, playerToken: string | undefined) => Promise<Seat | null>;

/** Subscription arguments as stored: never a player token (game.turn keeps game_id and seat). */
export type StoredArguments = Record<string, string>;

export interface CurrentStateResult {
  /**
   * Where the subscription starts in the game's stream: the game's current move count for game.move and
   * game.turn, null for events without a stream.
   */
  cursor: number | null;
  /** Events whose condition already holds (its turn now, game already finished, challenge already played). */
  events: InitialEvent[];
}

/**
 * The state an event's condition depends on, at subscribe time. May throw `AppError("not_found")` for an
 * unknown game or challenge, which fails the subscribe.
 */
export type CurrentState = (name: EventName, args: StoredArguments) => Promise<CurrentStateResult>;
