/**
 * One game's room: the Colyseus adapter of its game actor (rooms/game-actor.ts). The actor owns the game
 * and its move pipeline (serial queue, perform, settle, claim, abort, clock); the room claims the game for
 * this process, opens the actor on it, turns WebSocket frames and the facade's calls (GameRoomApi: REST and
 * MCP through src/games/room-api.ts) into the actor's actions, and is its commit port (the process's group
 * commit and owner fence) and its announce port: a change is projected into the schema state and leaves as
 * one patch, with each seat's hand to its own clients, in one write per client.
 *
 * The room sends patches only when something changed (no patch timer), so an idle game costs no CPU, and
 * builds its replicated state only once a WebSocket client joins (a game nobody watches keeps none). The
 * state is public (one encoding for every client); each seat's hand goes to its own clients as a message.
 */
import { Room, ServerError, type AuthContext, type Client, type Serializer } from "@colyseus/core";
import type { GameState, Seat } from "../src/game";
import { fail, ROOM_CODES, type ErrorCode, type Outcome } from "../src/errors";
import { DEFAULTS } from "../src/config";
import { rebuildContext } from "../src/games/context";
import type { EventName } from "../src/games/game-events";
import type { LocalGameRoom } from "../src/games/room-access";
import type { EventsNow } from "../src/games/room-api";
import type { SeatClaim } from "../src/games/seats";
import type { RoomDeps } from "../src/games/ports";
import { seatOfToken } from "../src/games/record";
import type { MoveBody } from "../src/games/schemas";
import { sha256Hex } from "../src/secrets";
import type { MoveAnswer, RecordBody, SyncBody } from "../src/games/views";
import type { GameWrite, GameWriteResult, PlayerRecord } from "../src/store/port";
import { detachListing, GAME_MOVED_CODE, type HeldRoom } from "../src/cluster";
import { corkForThisTurn } from "../src/transport";
import { Admission, ADMIT_ALL, type AdmissionLimits } from "./admission";
import { GameActor, type AnnouncePort, type CommitPort } from "./game-actor";
import { GameRoomState } from "./game-state";
import { acknowledgedHand, deliverHands, type HandHolder } from "./hands";
import { parseGameIn, send, type GameIn, type SeatHand } from "./messages";
import { Projector } from "./projection";
import { withSharedHandshake } from "./state-serializer";
import { noRematch } from "../src/games/rematch";
import { followRematch } from "./rematch";

const NO_HAND: SeatHand = { cards: [], legal: [] };

/** setInterval's largest delay: the patch timer then never fires; patches are sent on change. */
export const NO_PATCH_TIMER = 2 ** 31 - 1;

/** `token`: a seat's own player token, as it joined; its seat in a rematch is reserved with it (rooms/rematch.ts). */
interface ClientData extends HandHolder { windowStart: number; messages: number; token?: string }

/** Room messages per second per client, unless the server passes its frame budget (WS_FRAMES_PER_SECOND). */
const MESSAGES_PER_SECOND = DEFAULTS.wsFramesPerSecond;

/** How long a finished room waits for a rematch between two seats that stay connected. */
const REMATCH_HOLD_MS = 10 * 60_000;

export class GameRoom extends Room<{ state: GameRoomState }> implements LocalGameRoom, HeldRoom, CommitPort, AnnouncePort<Client> {
  private deps!: RoomDeps;
  private actor!: GameActor<Client>;
  private connected: Record<Seat, boolean> = { A: false, B: false };
  /** Set once the room is being closed (released, or the server shutting down): nobody is waited for. */
  private closing = false;
  private admission!: Admission;
  /** Writes the replicated state; made with it, when the first client joins. */
  private projector: Projector | null = null;
  private messagesPerSecond = MESSAGES_PER_SECOND;
  /** A waiting game's room closes when nobody has been connected for a while (closeWhenIdle). */
  private idle?: NodeJS.Timeout;
  /** Set while a finished game's seats are told of its rematch (followRematch); the room's release waits for them. */
  private rematchFollowed?: () => void;
  private releaseDeferred = false;
  /** Two tabs left open hold the room at most this long after its grace period (REMATCH_HOLD_MS). */
  private rematchHold?: NodeJS.Timeout;

  override async onCreate(options: { gameId: string; deps: RoomDeps; admission?: AdmissionLimits; framesPerSecond?: number }) {
    this.deps = options.deps;
    this.admission = new Admission(options.admission);
    this.messagesPerSecond = options.framesPerSecond ?? MESSAGES_PER_SECOND;
    this.roomId = options.gameId;
    this.autoDispose = false;
    this.patchRate = NO_PATCH_TIMER;
    this.maxClients = ADMIT_ALL; // spectators are capped by `admission`, so a seat is never locked out
    const record = await this.deps.store.getGame(options.gameId);
    if (!record) throw new ServerError(ROOM_CODES.close.not_found, `no game ${options.gameId}`);
    // Claim before reading the log: a write of the previous owner is then either in the log or refused.
    const epoch = await this.deps.fence.claim(record, this);
    if (epoch === null) throw new ServerError(ROOM_CODES.close.conflict, `game ${record.id} was claimed by another room meanwhile`);
    const actions = await this.deps.store.listActions(record.id);
    this.actor = new GameActor<Client>(record.id, epoch, rebuildContext(record, actions), this.deps, this, this);
    if (!(await this.actor.reconcile(actions.at(-1)?.at))) throw new ServerError(ROOM_CODES.close.unavailable, `game ${record.id} could not be brought up to date; retry`);
    // One handler for every frame: parsed into a GameIn at the boundary (rooms/messages.ts).
    this.onMessage("*", (client, type, message) => this.withinLimit(client) && void this.onClientIn(client, parseGameIn(type, message)));
    this.actor.start();
    this.closeWhenIdle();
  }

  // ---- WebSocket clients -------------------------------------------------------------------------

  override onAuth(client: Client, options: { playerToken?: unknown }, context?: AuthContext) {
    // A seat reserved just before the room began closing would otherwise hold the closing room open.
    if (this.closing) throw new ServerError(ROOM_CODES.close.unavailable, "this game's room is closing; join again in a moment");
    const token = options?.playerToken;
    if (token === undefined || token === null || token === "") {
      this.admission.spectator(this.clients, client, context?.ip);
      return { seat: null };
    }
    const seat = typeof token === "string" ? seatOfToken(this.actor.ctx.record, sha256Hex(token)) : null;
    if (!seat) throw new ServerError(ROOM_CODES.close.unauthorized, "unauthorized: wrong player token for this game");
    return { seat, token };
  }

  override onJoin(client: Client<{ userData: ClientData }>, _options: unknown, auth: ClientData) {
    client.userData = { seat: auth.seat, token: auth.token, windowStart: Date.now(), messages: 0 };
    if (!this.state) {
      // Until a client joins nobody reads the replicated state, so the room has none: a game played or left
      // idle over REST keeps its engine state only, without the schema state, its change trees and Colyseus'
      // encoder. The first client's join builds it, before Colyseus answers the join (whose handshake names
      // the state's serializer) and sends this client its full state.
      this.state = new GameRoomState();
      this.projector = new Projector(this.state);
      this.changed();
    }
    if (auth.seat) {
      this.connected[auth.seat] = true;
      this.followRematch();
      // Also sends this client its hand (it has received none yet), queued by Colyseus behind its full state.
      this.changed();
    }
  }

  override async onDrop(client: Client<{ userData: ClientData }>) {
    const seat = client.userData?.seat;
    if (!seat) return;
    this.connected[seat] = false;
    this.changed();
    this.releaseHeld();
    // A client cut off by our own closing is not waited for: its seat resumes wherever the game is re-opened.
    if (this.closing) return;
    await this.allowReconnection(client, this.deps.reconnectSeconds).catch(() => undefined);
  }

  override onReconnect(client: Client<{ userData: ClientData }>) {
    const data = client.userData;
    if (data?.seat) {
      this.connected[data.seat] = true;
      // A reconnected client may have missed hand messages while away: it gets its hand again.
      data.handKey = undefined;
      this.changed();
    }
  }

  override onLeave(client: Client<{ userData: ClientData }>) {
    const seat = client.userData?.seat;
    if (seat && !this.clients.some((c) => c !== client && (c.userData as ClientData | undefined)?.seat === seat)) {
      this.connected[seat] = false;
      this.changed();
    }
    this.releaseHeld();
    this.closeWhenIdle();
  }

  /** Colyseus makes a plain SchemaSerializer whenever the state is set; the game rooms share their handshake. */
  override setSerializer(serializer: Serializer<GameRoomState>) {
    super.setSerializer(withSharedHandshake(serializer));
  }

  override onBeforeShutdown() {
    this.closing = true;
    super.onBeforeShutdown();
  }

  override onDispose() {
    clearTimeout(this.idle);
    clearTimeout(this.rematchHold);
    this.rematchFollowed?.();
    this.actor?.stop();
    this.deps.released(this.roomId);
    this.deps.fence.release(this.roomId, this);
  }

  /** The game moved to another process (this one stalled and was taken over): close without writing. */
  sendAway(reason: string) {
    if (this.closing) return;
    this.closing = true;
    this.actor.stop();
    this.deps.log.warn({ gameId: this.roomId, reason }, "closing a room whose game moved");
    detachListing(this);
    void this.disconnect(GAME_MOVED_CODE).catch(() => undefined);
  }

  private async onClientIn(client: Client, message: GameIn) {
    const seat = (client.userData as ClientData | undefined)?.seat ?? null;
    switch (message.type) {
      case "move": {
        const out = await this.actor.play(seat, message.body, client);
        if (!out.ok) this.refuse(client, out.code, out.detail);
        else send(client, { type: "moved", notation: out.value.move.notation, n: out.value.move.n, hand: out.value.hand ?? NO_HAND });
        return;
      }
      case "resign": {
        const out = seat ? await this.actor.resignAs(seat) : fail("unauthorized", "spectators cannot resign");
        if (!out.ok) this.refuse(client, out.code, out.detail);
        return;
      }
      case "rematch":
      case "declineRematch": {
        const tokenHash = seat ? this.actor.ctx.record.seats[seat]?.tokenHash ?? null : null;
        const { rematches } = this.deps;
        const out = message.type === "rematch" ? await rematches.offer(this.roomId, tokenHash) : await rematches.decline(this.roomId, tokenHash);
        if (!out.ok) this.refuse(client, out.code, out.detail);
        return;
      }
      case "unexpected":
        return this.refuse(client, "bad_request", message.detail);
    }
  }

  /**
   * At most MESSAGES_PER_SECOND messages per client; a client past it is disconnected (a turn-based client
   * never needs more). Colyseus' own `maxMessagesPerSecond` reads the room clock, which this room does not
   * tick, so the window is kept here with the wall clock.
   */
  private withinLimit(client: Client): boolean {
    const data = client.userData as ClientData;
    const now = Date.now();
    if (now - data.windowStart >= 1000) {
      data.windowStart = now;
      data.messages = 0;
    }
    if (++data.messages <= this.messagesPerSecond) return true;
    client.leave(ROOM_CODES.policy, "too many messages per second");
    return false;
  }

  private refuse(client: Client, code: ErrorCode, detail: string) {
    send(client, { type: "refused", code, detail });
  }

  // ---- GameRoomApi: what the facade calls, locally or remotely (arguments and results are JSON) -----

  move(tokenHash: string, input: MoveBody): Promise<Outcome<MoveAnswer>> {
    return this.actor.move(tokenHash, input);
  }

  resign(tokenHash: string): Promise<Outcome<RecordBody>> {
    return this.actor.resign(tokenHash);
  }

  sync(tokenHash: string | null, since: number): Outcome<SyncBody> {
    return this.actor.sync(tokenHash, since);
  }

  record(): Outcome<RecordBody> {
    return this.actor.record();
  }

  unseal(): Outcome<null> {
    return this.actor.unseal();
  }

  eventsNow(name: EventName, args: Record<string, unknown>): Outcome<EventsNow> {
    return this.actor.eventsNow(name, args);
  }

  claimSeat(code: string, claim: SeatClaim, guest?: PlayerRecord): Promise<Outcome<{ seat: Seat; status: string }>> {
    return this.actor.claimSeat(code, claim, guest);
  }

  /** Asked of a room in this process only (LocalGameRoom). */
  keptMove(tokenHash: string, input: MoveBody): Promise<MoveAnswer | null> {
    return this.actor.keptMove(tokenHash, input);
  }

  declineInvite(code: string): Promise<Outcome<null>> {
    return this.actor.declineInvite(code);
  }

  // ---- CommitPort: the process's group commit and owner fence --------------------------------------

  commit(write: GameWrite): Promise<GameWriteResult> {
    return this.deps.commit(write);
  }

  moved(gameId: string, epoch: number) {
    this.deps.fence.moved(gameId, epoch);
  }

  // ---- AnnouncePort: the actor's changes shown to the room's clients -------------------------------

  /** Projects the game (with its clocks) into the schema state; the hands and the patch leave in one write per client. */
  changed() {
    if (!this.projector) return; // nobody has joined yet (onJoin)
    this.projector.project(this.actor.ctx, this.connected, this.actor.deadlineMs);
    // Corked before anything is sent: a seat's `hand`, the patch and the mover's `moved` (sent later in this
    // turn) leave in one write per client.
    corkForThisTurn(this.clients);
    // While a finishing action settles the room shows the game before it: hands wait for the end.
    if (!this.actor.settling || this.actor.status() === "finished") deliverHands(this.actor.ctx.engine, this.clients);
    this.broadcastPatch();
  }

  acknowledge(from: Client, engine: GameState, seat: Seat): SeatHand {
    return acknowledgedHand(from, engine, seat);
  }

  finished() {
    this.followRematch();
  }

  aborted() {
    // Opened only to abort (the waiting sweep, a declined challenge), with nobody to show the end to: no grace period.
    if (this.clients.length === 0) this.released();
  }

  released() {
    // A finished game whose two seats are both still here stays open for their rematch.
    this.releaseDeferred = this.holdForRematch();
    if (this.releaseDeferred) {
      this.rematchHold ??= setTimeout(() => this.stopHolding(), REMATCH_HOLD_MS);
      return;
    }
    this.closing = true;
    void this.disconnect().catch(() => undefined);
  }

  // ---- Waiting games and rematches (rooms/rematch.ts) -----------------------------------------------

  /**
   * A waiting game needs no room while nobody is connected: its store record answers for it, and a claim
   * or a watcher opens a room again (GameService.open). So once its last client has left (or none came), the
   * room closes after `waitingRoomIdleMs`, giving up its ownership so that the next room, on any process,
   * may claim the game. A seat reserved meanwhile is taken within Colyseus' reservation time, which is shorter.
   */
  private closeWhenIdle() {
    clearTimeout(this.idle);
    if (this.actor.ctx.record.status !== "waiting" || this.clients.length > 0) return;
    this.idle = setTimeout(() => void this.releaseIdle(), this.deps.waitingRoomIdleMs);
  }

  private async releaseIdle() {
    if (this.closing) return;
    const out = await this.actor.releaseWaiting(() => !this.closing && this.clients.length === 0);
    if (out === "busy" && !this.closing) this.closeWhenIdle();
    else if (out === "released") this.released();
  }

  /** Once the game has finished with a rematch to offer, its seats' clients are told of it. */
  private followRematch() {
    if (this.rematchFollowed || this.actor.status() !== "finished" || noRematch(this.actor.asStored())) return;
    this.rematchFollowed = followRematch(this.deps.rematches, this.roomId, () => this.clients);
  }

  /**
   * A release held for a rematch happens once a seat has gone (a closed tab, or moved on to the new game):
   * from its drop too, without waiting out the seat's reconnection time.
   */
  private releaseHeld() {
    if (this.releaseDeferred && !this.holdForRematch()) this.released();
  }

  /** The hold is over: the room closes, and the seats' pages go on over REST (the offer is kept there). */
  private stopHolding() {
    this.rematchFollowed?.();
    this.rematchFollowed = undefined;
    this.released();
  }

  /** Whether the finished room stays open: both seats connected, a rematch on offer, not yet started. */
  private holdForRematch(): boolean {
    return !this.closing && this.connected.A && this.connected.B && this.rematchFollowed !== undefined && this.deps.rematches.open(this.roomId);
  }
}
