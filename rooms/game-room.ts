/**
 * One game's room: the Colyseus adapter of its game actor (src/services/games/actor/game-actor.ts). The actor owns the game
 * and its move pipeline (serial queue, perform, settle, claim, abort, clock); the room claims the game for
 * this process, opens the actor on it with the process's group commit and owner fence (ProcessCommit), turns
 * WebSocket frames (rooms/game-inbox.ts) and the facade's calls (GameRoomApi: REST and MCP through
 * src/services/games/room-api.ts) into the actor's actions, and is its announce port: a change is projected into the
 * schema state and leaves as one patch, with each seat's hand to its own clients, in one write per client.
 * What it keeps per client is in rooms/seat-clients.ts, when it closes in rooms/room-hold.ts.
 *
 * The room sends patches only when something changed (no patch timer), so an idle game costs no CPU, and
 * builds its replicated state only once a WebSocket client joins (a game nobody watches keeps none). The
 * state is public (one encoding for every client); each seat's hand goes to its own clients as a message.
 */
import { Room, ServerError, type AuthContext, type Client, type Serializer } from "@colyseus/core";
import type { GameState, Seat } from "../src/engine";
import { ROOM_CODES, type Outcome } from "../src/shared/errors";
import { rebuildContext } from "../src/services/games/context";
import type { EventName } from "../src/services/games/game-events";
import type { LocalGameRoom } from "../src/services/games/room-access";
import type { EventsNow } from "../src/services/games/room-api";
import type { SeatClaim } from "../src/services/games/seats";
import type { RoomDeps } from "../src/services/games/ports";
import { seatOfToken } from "../src/services/games/record";
import type { MoveBody } from "../src/services/games/schemas";
import { sha256Hex } from "../src/shared/secrets";
import type { MoveAnswer, RecordBody, SyncBody } from "../src/services/games/views";
import type { PlayerRecord } from "../src/store/port";
import { detachListing, GAME_MOVED_CODE, type HeldRoom } from "../src/services/cluster";
import { corkForThisTurn } from "../src/edges/transport";
import { Admission, ADMIT_ALL, type AdmissionLimits } from "./admission";
import { GameActor, ProcessCommit, type AnnouncePort } from "../src/services/games/actor/game-actor";
import { answerFrame } from "./game-inbox";
import { GameRoomState } from "./game-state";
import { acknowledgedHand, deliverHands } from "./hands";
import { parseGameIn, send, type SeatHand } from "./messages";
import { Projector } from "./projection";
import { RoomHold, type HoldingRoom } from "./room-hold";
import { dataOf, MESSAGES_PER_SECOND, newClientData, withinWindow, type ClientData } from "./seat-clients";
import { withSharedHandshake } from "./state-serializer";

/** setInterval's largest delay: the patch timer then never fires; patches are sent on change. */
export const NO_PATCH_TIMER = 2 ** 31 - 1;

export class GameRoom extends Room<{ state: GameRoomState }> implements LocalGameRoom, HeldRoom, HoldingRoom, AnnouncePort<Client> {
  private deps!: RoomDeps;
  private actor!: GameActor<Client>;
  /** Whether each seat has a client connected: shown in the state, and read by the rematch hold. */
  readonly connected: Record<Seat, boolean> = { A: false, B: false };
  /** Set once the room is being closed (released, or the server shutting down): nobody is waited for. */
  closing = false;
  private admission!: Admission;
  /** The waiting game's idle close and the finished game's rematch hold (rooms/room-hold.ts). */
  private hold!: RoomHold;
  /** Writes the replicated state; made with it, when the first client joins. */
  private projector: Projector | null = null;
  private messagesPerSecond = MESSAGES_PER_SECOND;

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
    this.actor = new GameActor<Client>(record.id, epoch, rebuildContext(record, actions), this.deps, new ProcessCommit(this.deps), this);
    if (!(await this.actor.reconcile(actions.at(-1)?.at)))
      throw new ServerError(ROOM_CODES.close.unavailable, `game ${record.id} could not be brought up to date; retry`);
    this.hold = new RoomHold(this, this.actor, this.deps);
    // One handler for every frame: parsed into a GameIn at the boundary (rooms/messages.ts).
    this.onMessage("*", (client, type, message) => this.withinLimit(client) && void this.onFrame(client, type, message));
    this.actor.start();
    this.hold.closeWhenIdle();
  }

  // ---- WebSocket clients -------------------------------------------------------------------------

  override onAuth(client: Client, options: { playerToken?: unknown }, context?: AuthContext) {
    // A seat reserved just before the room began closing would otherwise hold the closing room open.
    if (this.closing) throw new ServerError(ROOM_CODES.close.unavailable, "this game's room is closing; join again in a moment");
    const token = options?.playerToken;
    if (token === undefined || token === null || token === "") {
      // A private game has no spectators: refused as a game that does not exist (its existence stays hidden).
      if (!this.actor.readableBy(null)) throw new ServerError(ROOM_CODES.close.not_found, `no game with id ${this.roomId}`);
      this.admission.spectator(this.clients, client, context?.ip);
      return { seat: null };
    }
    const seat = typeof token === "string" ? seatOfToken(this.actor.ctx.record, sha256Hex(token)) : null;
    if (!seat) throw new ServerError(ROOM_CODES.close.unauthorized, "unauthorized: wrong player token for this game");
    return { seat, token };
  }

  override onJoin(client: Client<{ userData: ClientData }>, _options: unknown, auth: ClientData) {
    client.userData = newClientData(auth.seat, auth.token);
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
      this.hold.followRematch();
      // Also sends this client its hand (it has received none yet), queued by Colyseus behind its full state.
      this.changed();
    }
  }

  override async onDrop(client: Client<{ userData: ClientData }>) {
    const seat = client.userData?.seat;
    if (!seat) return;
    this.connected[seat] = false;
    this.changed();
    this.hold.releaseHeld();
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
    if (seat && !this.clients.some((c) => c !== client && dataOf(c)?.seat === seat)) {
      this.connected[seat] = false;
      this.changed();
    }
    this.hold.releaseHeld();
    this.hold.closeWhenIdle();
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
    this.hold?.dispose();
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

  /** Closes the room: released, or aborted with nobody to show it to (RoomHold). */
  closeRoom() {
    this.closing = true;
    void this.disconnect().catch(() => undefined);
  }

  /** A frame, parsed at the boundary, is answered (rooms/game-inbox.ts) by at most one message to its sender. */
  private async onFrame(client: Client, type: string | number, message: unknown) {
    const answer = await answerFrame(this.actor, this.deps.rematches, client, dataOf(client)?.seat ?? null, parseGameIn(type, message));
    if (answer) send(client, answer);
  }

  /** A client past its message window (rooms/seat-clients.ts) is disconnected. */
  private withinLimit(client: Client): boolean {
    if (withinWindow(dataOf(client)!, this.messagesPerSecond)) return true;
    client.leave(ROOM_CODES.policy, "too many messages per second");
    return false;
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

  readableBy(tokenHash: string | null): boolean {
    return this.actor.readableBy(tokenHash);
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

  withdraw(playerId: string): Promise<Outcome<{ aborted: boolean }>> {
    return this.actor.withdraw(playerId);
  }

  /** Asked of a room in this process only (LocalGameRoom). */
  keptMove(tokenHash: string, input: MoveBody): Promise<MoveAnswer | null> {
    return this.actor.keptMove(tokenHash, input);
  }

  declineInvite(code: string): Promise<Outcome<null>> {
    return this.actor.declineInvite(code);
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
    this.hold.followRematch();
  }

  aborted() {
    // Opened only to abort (the waiting sweep, a declined challenge), with nobody to show the end to: no grace period.
    if (this.clients.length === 0) this.hold.released();
  }

  released() {
    this.hold.released();
  }
}
