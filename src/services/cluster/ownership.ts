/**
 * Game ownership with fencing. A game room claims its game in the store when it is created (a conditional
 * update that bumps the owner epoch), and every durable write of the room carries that epoch (the group
 * commit checks it: GameWrite.ownerEpoch). A room that was taken over (its process stalled past the
 * dead-after time and came back) finds its writes refused: it closes without acknowledging anything and
 * sends its clients to the new owner.
 */
import { ROOM_CODES } from "../../shared/errors";
import type { Logger } from "../../shared/logger";
import type { GamesPort, GameRecord } from "../../store/port";

/** Close code sent to WebSocket clients of a room whose game moved to another process: rejoin by game id. */
export const GAME_MOVED_CODE = ROOM_CODES.gameMoved;

/** What a game room needs to hold its game: claim it, write under its epoch, and be sent away. */
export interface GameFence {
  /** Claims the game for this process; null when another room claimed it first (this room must not start). */
  claim(record: GameRecord, room: HeldRoom): Promise<number | null>;
  /** The room is gone (disposed): forget it. */
  release(gameId: string, room: HeldRoom): void;
  /** A write of the room under `epoch` was refused by the fence: the game moved, the room is sent away. */
  moved(gameId: string, epoch: number): void;
}

/** The part of a game room the fence drives. */
export interface HeldRoom {
  /** Closes the room without writing anything and tells its clients to rejoin (GAME_MOVED_CODE). */
  sendAway(reason: string): void;
}

/** What the game service needs to store a new game already claimed by this process (Ownership.own). */
export interface GameOwner {
  own(record: GameRecord): void;
}

export class Ownership implements GameFence, GameOwner {
  private readonly held = new Map<string, { epoch: number; room: HeldRoom }>();
  /**
   * New games stored already owned by this process (`own`), whose first room here claims them without a
   * write of its own. An entry lives from the game's creation to its room's claim (a room whose creation
   * failed leaves one behind until the game is opened again).
   */
  private readonly born = new Set<string>();
  /** Games whose claim by a room of this process is under way. */
  private readonly claiming = new Set<string>();
  private isLive: (processId: string) => boolean = () => false;

  /**
   * `processId` is read at each claim: Colyseus assigns it while the server starts. `roomsHere`: every room
   * is created in this process (no shared presence, so the matchmaker knows no other), which lets a new game
   * be stored already claimed (`own`).
   */
  constructor(
    private readonly store: Pick<GamesPort, "getGame" | "updateGameIf">,
    private readonly processId: () => string,
    private readonly log: Logger,
    private readonly roomsHere = false,
  ) {}

  /**
   * Makes a new record, not yet stored, owned by this process at epoch 1, when its room is about to be
   * opened here: the game's creation is then also its claim, one durable write instead of two, and the
   * room's claim (`claim`) writes nothing. Only when rooms are always created in this process: scaled out,
   * the matchmaker may open the room on another process, which must claim the game with a write of its own.
   */
  own(record: GameRecord): void {
    if (!this.roomsHere || record.ownerEpoch !== undefined) return;
    record.owner = this.processId();
    record.ownerEpoch = 1;
    this.born.add(record.id);
  }

  /** Liveness of peers, from the process registry (until it is set, every other process counts as gone). */
  setLiveness(isLive: (processId: string) => boolean): void {
    this.isLive = isLive;
  }

  async claim(record: GameRecord, room: HeldRoom): Promise<number | null> {
    // A game is taken only from a process that is gone: a live owner's room may merely be unlisted for a
    // moment (still in onCreate, or dropped by a missed health check) and would keep serving stale reads.
    const me = this.processId();
    if (record.owner && record.owner !== me && this.isLive(record.owner)) return null;
    // One room per game in this process too, counting a claim still under way: its store update is visible
    // before it resolves (the write waits for its fsync), so a second room reading the record meanwhile
    // would see this process as the owner with nobody held, and claim the game again over the first room.
    if (this.held.has(record.id) || this.claiming.has(record.id)) return null;
    // Stored owned by this process at its creation (`own`) and held by no room since: already claimed. The
    // entry is dropped either way, so only the first room of a new game can skip the write.
    if (this.born.delete(record.id) && record.owner === me && record.ownerEpoch === 1) {
      this.held.set(record.id, { epoch: 1, room });
      return 1;
    }
    this.claiming.add(record.id);
    try {
      const epoch = (record.ownerEpoch ?? 0) + 1;
      const won = await this.store.updateGameIf(record.id, { ownerEpoch: record.ownerEpoch }, { owner: me, ownerEpoch: epoch });
      if (!won) return null;
      if (record.owner && record.owner !== me) this.log.info({ gameId: record.id, from: record.owner, epoch }, "game taken over");
      this.held.set(record.id, { epoch, room });
      return epoch;
    } finally {
      this.claiming.delete(record.id);
    }
  }

  release(gameId: string, room: HeldRoom): void {
    if (this.held.get(gameId)?.room === room) this.held.delete(gameId);
  }

  /** Games whose room lives here, with the epoch each claimed. */
  heldGames(): Array<{ gameId: string; epoch: number }> {
    return [...this.held].map(([gameId, h]) => ({ gameId, epoch: h.epoch }));
  }

  /**
   * After a stall: every held game whose stored epoch is no longer this room's is sent away; resolves with
   * the rooms that still hold their game (their listings were dropped by the peer that declared this
   * process dead, so the caller lists them again). Reads the store once per held game, which happens only
   * when this process learns it was declared dead.
   */
  async verifyAll(): Promise<HeldRoom[]> {
    const kept: HeldRoom[] = [];
    for (const { gameId, epoch } of this.heldGames()) {
      const g = await this.store.getGame(gameId);
      if (!g || g.ownerEpoch !== epoch) this.moved(gameId, epoch);
      else kept.push(this.held.get(gameId)!.room);
    }
    return kept;
  }

  moved(gameId: string, epoch: number): void {
    const h = this.held.get(gameId);
    if (!h || h.epoch !== epoch) return;
    this.held.delete(gameId);
    this.log.warn({ gameId, epoch }, "game moved to another process; closing this room");
    h.room.sendAway("this game moved to another process; rejoin it by its id");
  }
}
