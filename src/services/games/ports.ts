/**
 * What a game room needs from the rest of the service, passed in by the composition root.
 */
import type { Level, SeatView } from "../../engine";
import type { Logger } from "../../shared/logger";
import type { Metrics } from "../metrics";
import type { PlayerService } from "../players/service";
import type { GameRecord, GameWrite, GameWriteResult, GamesPort } from "../../store/port";
import type { EventName, EventSink } from "./game-events";
import type { GameFence } from "../cluster";
import type { Rematches } from "./rematch";
import type { AfterTurn } from "./actor/after-turn";

export type HouseLevel = Exclude<Level, "random">;

export interface RoomDeps {
  /** Reads only: a room loads its game here and writes it through `commit`. */
  store: Pick<GamesPort, "getGame" | "listActions">;
  /** The process's group commit: the only way a room writes its game (actions and record). */
  commit(write: GameWrite): Promise<GameWriteResult>;
  /** Called when the room is disposed (what was kept for it, such as its subscriptions, can go). */
  released(gameId: string): void;
  /** Claims the game for this process and tells the room when its game moved (src/services/cluster/ownership.ts). */
  fence: GameFence;
  events: EventSink;
  /**
   * False when it is known that no subscription is for this game's events of `name` (the room then
   * neither builds nor emits them); true otherwise.
   */
  listens(gameId: string, name: EventName): boolean;
  players: PlayerService;
  /** The house opponent: decides from its seat view only. */
  decide(view: SeatView, level: HouseLevel): Promise<{ card: string; square: string }>;
  /** Wakes long-poll waiters on every process (presence pub/sub). */
  publishChange(gameId: string, change: GameChange): void;
  /** Called once when a game finishes (after it is stored), e.g. to settle an agent challenge. */
  onFinished(record: GameRecord): Promise<void>;
  /** Rematches of finished games, shared with REST and MCP (./rematch.ts). */
  rematches: Rematches;
  log: Logger;
  metrics: Metrics;
  baseUrl: string;
  houseDelayMs: number;
  /** The process's queue of work owed after a turn's socket writes (./actor/after-turn.ts). */
  afterTurn: AfterTurn;
  waitingGameTtlS: number;
  /** How long a waiting game's room stays open with nobody connected (it opens again when needed). */
  waitingRoomIdleMs: number;
  /** How long a finished game's room stays up so connected clients see the end. */
  finishedGraceMs: number;
  /** Seconds a dropped seat may take to reconnect. */
  reconnectSeconds: number;
}

export interface GameChange {
  moveCount: number;
  status: GameRecord["status"];
}

export const changeChannel = (gameId: string): string => `game-change:${gameId}`;
