/**
 * When a game's room closes, besides the server's own shutdown: a waiting game's room once nobody has been
 * connected for a while, and a finished game's room once its grace period is over, unless both of its seats
 * are still connected with a rematch on offer (then once a seat goes, or after REMATCH_HOLD_MS). It reads
 * the room's clients and seats through `HoldingRoom` and owns the timers and the rematch subscription, so
 * that the room (rooms/game-room.ts) only forwards Colyseus' events to it.
 */
import type { Client } from "@colyseus/core";
import type { Seat } from "../src/engine";
import type { RoomDeps } from "../src/services/games/ports";
import { noRematch } from "../src/services/games/rematch";
import type { GameActor } from "../src/services/games/actor/game-actor";
import { followRematch } from "./rematch";

/** How long a finished room waits for a rematch between two seats that stay connected. */
const REMATCH_HOLD_MS = 10 * 60_000;

/** The part of a game room its hold reads, and how it closes it. */
export interface HoldingRoom {
  readonly roomId: string;
  readonly clients: readonly Client[];
  /** Whether each seat has a client connected. */
  readonly connected: Readonly<Record<Seat, boolean>>;
  /** Set once the room is being closed (released, or the server shutting down): nobody is waited for. */
  readonly closing: boolean;
  /** Closes the room now; its clients are disconnected. */
  closeRoom(): void;
}

export class RoomHold {
  /** A waiting game's room closes when nobody has been connected for a while (closeWhenIdle). */
  private idle?: NodeJS.Timeout;
  /** Set while a finished game's seats are told of its rematch (followRematch); the room's release waits for them. */
  private rematchFollowed?: () => void;
  private releaseDeferred = false;
  /** Two tabs left open hold the room at most this long after its grace period (REMATCH_HOLD_MS). */
  private rematchHold?: NodeJS.Timeout;

  constructor(
    private readonly room: HoldingRoom,
    private readonly actor: GameActor<Client>,
    private readonly deps: Pick<RoomDeps, "rematches" | "waitingRoomIdleMs">,
  ) {}

  /**
   * A waiting game needs no room while nobody is connected: its store record answers for it, and a claim
   * or a watcher opens a room again (GameCreation.open). So once its last client has left (or none came), the
   * room closes after `waitingRoomIdleMs`, giving up its ownership so that the next room, on any process,
   * may claim the game. A seat reserved meanwhile is taken within Colyseus' reservation time, which is shorter.
   */
  closeWhenIdle() {
    clearTimeout(this.idle);
    if (this.actor.ctx.record.status !== "waiting" || this.room.clients.length > 0) return;
    this.idle = setTimeout(() => void this.releaseIdle(), this.deps.waitingRoomIdleMs);
  }

  /** Once the game has finished with a rematch to offer, its seats' clients are told of it. */
  followRematch() {
    if (this.rematchFollowed || this.actor.status() !== "finished" || noRematch(this.actor.asStored())) return;
    this.rematchFollowed = followRematch(this.deps.rematches, this.room.roomId, () => this.room.clients);
  }

  /** The game's grace period is over (or it was aborted with nobody to show it to): the room closes, or is held for a rematch. */
  released() {
    // A finished game whose two seats are both still here stays open for their rematch.
    this.releaseDeferred = this.holdForRematch();
    if (this.releaseDeferred) {
      this.rematchHold ??= setTimeout(() => this.stopHolding(), REMATCH_HOLD_MS);
      return;
    }
    this.room.closeRoom();
  }

  /**
   * A release held for a rematch happens once a seat has gone (a closed tab, or moved on to the new game):
   * from its drop too, without waiting out the seat's reconnection time.
   */
  releaseHeld() {
    if (this.releaseDeferred && !this.holdForRematch()) this.released();
  }

  /** The room is disposed: no timer fires and the rematch is no longer followed. */
  dispose() {
    clearTimeout(this.idle);
    clearTimeout(this.rematchHold);
    this.rematchFollowed?.();
  }

  private async releaseIdle() {
    if (this.room.closing) return;
    const out = await this.actor.releaseWaiting(() => !this.room.closing && this.room.clients.length === 0);
    if (out === "busy" && !this.room.closing) this.closeWhenIdle();
    else if (out === "released") this.released();
  }

  /** The hold is over: the room closes, and the seats' pages go on over REST (the offer is kept there). */
  private stopHolding() {
    this.rematchFollowed?.();
    this.rematchFollowed = undefined;
    this.released();
  }

  /** Whether the finished room stays open: both seats connected, a rematch on offer, not yet started. */
  private holdForRematch(): boolean {
    const { closing, connected, roomId } = this.room;
    return !closing && connected.A && connected.B && this.rematchFollowed !== undefined && this.deps.rematches.open(roomId);
  }
}
