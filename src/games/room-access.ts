/**
 * The one way the facade reaches a room. A room in this process is called directly; a room in another
 * process through Colyseus' remote room calls (JSON in, JSON out); a game whose room exists nowhere (after
 * a restart, or released) gets its room re-created from the store first. Room methods return Outcomes
 * rather than throwing, because a remote call loses the thrown error.
 */
import { matchMaker } from "@colyseus/core";
import { AppError, fail, type Outcome } from "../errors";
import type { Logger } from "../logger";
import type { Store } from "../store/port";

export const GAME_ROOM = "game";
export const QUEUE_ROOM = "quick";
export const queueRoomId = (ruleset: string): string => `quick-${ruleset}`;
const REMOTE_TIMEOUT_MS = 8000;

/**
 * The room of this process with that id, if any. Colyseus keeps its local rooms in a plain object, so an id
 * such as "toString" or "__proto__" would otherwise find an Object.prototype member instead of nothing.
 */
const localRoom = (roomId: string) => {
  const room = matchMaker.getLocalRoomById(roomId) as { roomId?: unknown } | undefined;
  return room && typeof room === "object" && room.roomId === roomId ? room : undefined;
};

export class RoomAccess {
  private creating = new Map<string, Promise<void>>();

  constructor(private readonly store: Store, private readonly log: Logger) {}

  /**
   * Calls `method` on the game's room, creating the room when it exists nowhere. A room in another process
   * that does not answer within `timeoutMs` gives `unavailable` with a Retry-After (its process may be dead
   * and about to be taken over).
   */
  call<T>(gameId: string, method: string, args: unknown[] = [], timeoutMs = REMOTE_TIMEOUT_MS): Promise<Outcome<T>> {
    return this.callRoom<T>(gameId, method, args, () => this.ensure(gameId), timeoutMs);
  }

  /** Calls `method` on the room if it lives in this process; undefined otherwise (no I/O). */
  async callLocal<T>(roomId: string, method: string, args: unknown[] = []): Promise<Outcome<T> | undefined> {
    const local = localRoom(roomId) as unknown as Record<string, (...a: unknown[]) => unknown> | undefined;
    return local ? ((await local[method](...args)) as Outcome<T>) : undefined;
  }

  /** Calls `method` on the quick-match queue room of a ruleset, creating it when needed. */
  callQueue<T>(ruleset: string, method: string, args: unknown[] = []): Promise<Outcome<T>> {
    const roomId = queueRoomId(ruleset);
    return this.callRoom<T>(roomId, method, args, () => this.ensureRoom(roomId, QUEUE_ROOM, { ruleset }));
  }

  /** Creates the game's room unless it exists (in any process). */
  async ensure(gameId: string): Promise<void> {
    return this.ensureRoom(gameId, GAME_ROOM, { gameId }, async () => {
      if (!(await this.store.getGame(gameId))) throw new AppError("not_found", `no game with id ${gameId}`);
    });
  }

  private async callRoom<T>(roomId: string, method: string, args: unknown[], ensure: () => Promise<void>, timeoutMs = REMOTE_TIMEOUT_MS): Promise<Outcome<T>> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const local = await this.callLocal<T>(roomId, method, args);
      if (local) return local;
      if (await matchMaker.getRoomById(roomId)) {
        try {
          return (await matchMaker.remoteRoomCall(roomId, method as never, args, timeoutMs)) as Outcome<T>;
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
