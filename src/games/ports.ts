/**
 * What a game room needs from the rest of the service, passed in by the composition root.
 */
import type { Level, SeatView } from "../game";
import type { Logger } from "../logger";
import type { Metrics } from "../metrics";
import type { PlayerService } from "../players/service";
import type { GameRecord, Store } from "../store/port";
import type { EventSink } from "./game-events";
import type { GameFence } from "../cluster";

export type HouseLevel = Exclude<Level, "random">;

export interface RoomDeps {
  store: Store;
  /** Claims the game for this process and fences every durable write of the room by its owner epoch. */
  fence: GameFence;
  events: EventSink;
  players: PlayerService;
  /** The house opponent: decides from its seat view only. */
  decide(view: SeatView, level: HouseLevel): Promise<{ card: string; square: string }>;
  /** Wakes long-poll waiters on every process (presence pub/sub). */
  publishChange(gameId: string, change: GameChange): void;
  /** Called once when a game finishes (after it is stored), e.g. to settle an agent challenge. */
  onFinished(record: GameRecord): Promise<void>;
  log: Logger;
  metrics: Metrics;
  baseUrl: string;
  houseDelayMs: number;
  waitingGameTtlS: number;
  /** How long a finished game's room stays up so connected clients see the end. */
  finishedGraceMs: number;
  /** Seconds a dropped seat may take to reconnect. */
  reconnectSeconds: number;
}

export interface GameChange { moveCount: number; status: GameRecord["status"] }

export const changeChannel = (gameId: string): string => `game-change:${gameId}`;
