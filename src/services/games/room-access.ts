/**
 * The one way the facade reaches a room. A room in this process is called directly; a room in another
 * process through Colyseus' remote room calls (JSON in, JSON out); a game whose room exists nowhere (after
 * a restart, or released) gets its room re-created from the store first. Callers hold typed proxies
 * (src/services/games/room-api.ts); room methods return Outcomes rather than throwing, because a remote call loses
 * the thrown error.
 */
import { matchMaker } from "@colyseus/core";
import { AppError, fail, type Outcome } from "../../shared/errors";
import type { Logger } from "../../shared/logger";
import type { GamesPort } from "../../store/port";
import { GAME_ROOM_METHODS, QUEUE_ROOM_METHODS, type GameRoomApi, type QueueRoomApi, type RoomProxy } from "./room-api";
import type { MoveBody } from "./schemas";
import type { MoveAnswer } from "./views";

export const GAME_ROOM = "game";
export const QUEUE_ROOM = "quick";
export const queueRoomId = (ruleset: string): string => `quick-${ruleset}`;
const REMOTE_TIMEOUT_MS = 8000;

/** What Colyseus' matchmaking answers and `client.consumeSeatReservation` takes. */
export type SeatReservation = matchMaker.ISeatReservation;

/**
 * A game's room in this process, called directly: GameRoomApi, and what only a room at hand is asked (never
 * across processes, where the store answers instead).
 */
export interface LocalGameRoom extends GameRoomApi {
  /**
   * The answer to a move this seat already made, asked again (GamePlay.move, on a refusal that may hide
   * it), from the room's own moves; null when the room holds no such move (src/services/games/kept-move.ts).
   */
  keptMove(tokenHash: string, input: MoveBody): Promise<MoveAnswer | null>;
  /** Whether a caller holding this token hash (null: none) may read the game (readableBy, src/services/games/record.ts). */
  readableBy(tokenHash: string | null): boolean;
}

/**
 * The room of this process with that id, if any. Colyseus keeps its local rooms in a plain object, so an id
 * such as "toString" or "__proto__" would otherwise find an Object.prototype member instead of nothing.
 */
const localRoom = (roomId: string) => {
  const room = matchMaker.getLocalRoomById(roomId) as { roomId?: unknown } | undefined;
  return room && typeof room === "object" && room.roomId === roomId ? room : undefined;
};

/** Builds a typed proxy whose every method is `call(name, args)`: the one place a method travels as a name. */
function proxy<T>(methods: readonly (keyof T & string)[], call: (method: string, args: unknown[]) => Promise<unknown>): RoomProxy<T> {
  const out: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const m of methods) out[m] = (...args: unknown[]) => call(m, args);
  return out as RoomProxy<T>;
}

export class RoomAccess {
  private creating = new Map<string, Promise<void>>();

  constructor(
    private readonly store: Pick<GamesPort, "getGame">,
    private readonly log: Logger,
  ) {}

  /**
   * The game's room, wherever it lives; it is created (from the store) when it exists nowhere. A room in
   * another process that does not answer within `timeoutMs` gives `unavailable` with a Retry-After (its
   * process may be dead and about to be taken over).
   */
  game(gameId: string, timeoutMs = REMOTE_TIMEOUT_MS): RoomProxy<GameRoomApi> {
    return proxy<GameRoomApi>(GAME_ROOM_METHODS, (method, args) => this.callRoom(gameId, method, args, () => this.ensure(gameId), timeoutMs));
  }

  /** The game's room if it lives in this process (no I/O), called directly. */
  localGame(gameId: string): LocalGameRoom | undefined {
    return localRoom(gameId) as (LocalGameRoom & object) | undefined;
  }

  /** The quick-match queue room of a ruleset, created when needed. */
  queue(ruleset: string): RoomProxy<QueueRoomApi> {
    const roomId = queueRoomId(ruleset);
    return proxy<QueueRoomApi>(QUEUE_ROOM_METHODS, (method, args) =>
      this.callRoom(roomId, method, args, () => this.ensureRoom(roomId, QUEUE_ROOM, { ruleset })),
    );
  }

  /**
   * Reserves a seat in the game's room for a player token, wherever the room lives: what Colyseus'
   * matchmaking request (`joinById`) answers, made here so that the REST request that handed out the token
   * also hands out the reservation, and the client connects its WebSocket without a matchmaking request of
   * its own (`client.consumeSeatReservation`). The token is checked when the client connects (the room's
   * onAuth), as with joinById; an unused reservation lapses after Colyseus' seat reservation time.
   */
  async reserveSeat(gameId: string, playerToken: string): Promise<SeatReservation> {
    // A waiting game has no room until someone needs one (GameCreation.open): this seat does.
    await this.ensure(gameId);
    const listing = await matchMaker.getRoomById(gameId);
    try {
      if (listing) return await matchMaker.reserveSeatFor(listing, { playerToken });
    } catch (e) {
      this.log.warn({ err: e, gameId }, "seat reservation failed");
    }
    throw new AppError("unavailable", "the seat could not be reserved; join the room by its id (joinById) instead", { retryAfter: 1 });
  }

  /** Creates the game's room unless it exists (in any process); `not_found` when the store has no such game. */
  async ensure(gameId: string): Promise<void> {
    return this.ensureRoom(gameId, GAME_ROOM, { gameId }, async () => {
      if (!(await this.store.getGame(gameId))) throw new AppError("not_found", `no game with id ${gameId}`);
    });
  }

  /** Creates the room of a game the caller has just stored: `ensure` without reading the record back to see that it exists. */
  async openStored(gameId: string): Promise<void> {
    return this.ensureRoom(gameId, GAME_ROOM, { gameId });
  }

  /**
   * Opens the room of an unfinished game that has none, for a client joining it by id (a watcher, or a seat
   * over WebSocket); never throws: the join is then answered as it would have been. A finished game's room
   * is not re-opened for a join (its replay is the way to look at it).
   */
  async openForJoin(gameId: string): Promise<void> {
    try {
      if (localRoom(gameId) || (await matchMaker.getRoomById(gameId))) return;
      const game = await this.store.getGame(gameId);
      if (game && game.status !== "finished") await this.openStored(gameId);
    } catch (err) {
      this.log.debug({ err, gameId }, "room not opened for a join");
    }
  }

  private async callRoom(
    roomId: string,
    method: string,
    args: unknown[],
    ensure: () => Promise<void>,
    timeoutMs = REMOTE_TIMEOUT_MS,
  ): Promise<Outcome<unknown>> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const local = localRoom(roomId) as unknown as Record<string, (...a: unknown[]) => Outcome<unknown> | Promise<Outcome<unknown>>> | undefined;
      if (local) return local[method](...args);
      if (await matchMaker.getRoomById(roomId)) {
        try {
          return (await matchMaker.remoteRoomCall(roomId, method, args, timeoutMs)) as Outcome<unknown>;
        } catch (e) {
          this.log.warn({ err: e, roomId, method }, "remote room call failed");
          return fail("unavailable", "the process holding this game did not answer; it is being moved to a live process, retry shortly", { retryAfter: 1 });
        }
      }
      await ensure();
    }
    return fail("unavailable", "the room could not be started; retry shortly");
  }

  /** Concurrent callers in this process share one creation; across processes the driver keeps one. */
  private async ensureRoom(roomId: string, roomName: string, options: Record<string, unknown>, check?: () => Promise<void>): Promise<void> {
    if (localRoom(roomId) || (await matchMaker.getRoomById(roomId))) return;
    // A creation by another caller of this process may have finished while the lookup above was under way.
    if (localRoom(roomId)) return;
    let pending = this.creating.get(roomId);
    if (!pending) {
      pending = (async () => {
        await check?.();
        try {
          await matchMaker.createRoom(roomName, options);
        } catch (e) {
          // Another process may have created it first; that is success.
          if (await matchMaker.getRoomById(roomId)) return;
          if (e instanceof AppError) throw e;
          // The room refused to start: its game is held by a live process (shutting down, or whose room
          // is being listed), or another room claimed it a moment ago. Both pass within a heartbeat.
          this.log.debug({ err: e, roomId }, "room not created here");
          throw new AppError("unavailable", "this game is moving between server processes; retry shortly", { retryAfter: 1 });
        }
      })().finally(() => this.creating.delete(roomId));
      this.creating.set(roomId, pending);
    }
    return pending;
  }
}
