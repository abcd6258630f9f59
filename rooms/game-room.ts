/**
 * One game, one room actor. The room owns the authoritative engine state of its game; every change goes
 * through `perform`, which reads top to bottom: validate, apply (pure engine), persist (the action and the
 * record fields it changes go into the process's group commit and are durable before anyone is told),
 * project (schema state, one patch), publish (wake long-poll waiters), emit (lifecycle events); a move
 * publishes and emits after the turn's socket writes (afterThisTurn), so its acknowledgement leaves first. The room is
 * the only writer of its game's record. REST and MCP reach it through GameRoomApi (src/games/room-api.ts).
 *
 * The room sends patches only when something changed (no patch timer), so an idle game costs no CPU, and
 * builds its replicated state only once a WebSocket client joins (a game nobody watches keeps none). The
 * state is public (one encoding for every client); each seat's hand goes to its own clients as a message.
 */
import { Room, ServerError, type AuthContext, type Client, type Serializer } from "@colyseus/core";
import { parseMove, seatView, shownMove, type Action, type MoveRecord, type Seat } from "../src/game";
import { fail, type ErrorCode, type Outcome } from "../src/errors";
import { commit, factsOf, rebuildContext, startEngine, step, type GameContext } from "../src/games/context";
import { eventsNow, finishedEvent, moveEvent, startedEvent, turnEvent, type EventName, type OutEvent } from "../src/games/game-events";
import type { EventsNow, GameRoomApi, SeatClaim } from "../src/games/room-api";
import type { RoomDeps } from "../src/games/ports";
import { recordChanges, recordPatch, seatOfToken } from "../src/games/record";
import type { MoveBody } from "../src/games/schemas";
import { sha256Hex } from "../src/games/secrets";
import { gameRecordBody, syncFor, type MoveAnswer, type RecordBody, type SyncBody } from "../src/games/views";
import type { GameRecord, PlayerUpdate, StoredAction } from "../src/store/port";
import { detachListing, GAME_MOVED_CODE, type HeldRoom } from "../src/cluster";
import { corkForThisTurn } from "../src/transport";
import { traced } from "../src/tracing";
import { Admission, ADMIT_ALL, type AdmissionLimits } from "./admission";
import { GameRoomState } from "./game-state";
import { GameClock, type ClockHandlers } from "./game-clock";
import { acknowledgedHand, deliverHands, type HandHolder } from "./hands";
import { parseGameIn, send, type GameIn, type SeatHand } from "./messages";
import { Projector } from "./projection";
import { withSharedHandshake } from "./state-serializer";
import { PLAYED_AFTER_MOVES, resignAction } from "../src/games/early-end";
import { followRematch, noRematch } from "./rematch";

/**
 * The record of a finishing action as stored before the ratings: without its end (status, winner, how and
 * when it was decided), so the stored game is still active and a restart finishes it again.
 */
function beforeFinish(patch: Partial<GameRecord>): Partial<GameRecord> {
  const { status: _status, winner: _winner, decidedBy: _decidedBy, finishedAt: _finishedAt, ...active } = patch;
  return active;
}

/**
 * What an accepted action gives its caller: the move it made, and when the game it finished is settled
 * (rated, stored as finished and shown so); at once for an action that does not finish the game.
 */
interface Performed { move?: MoveRecord; settled: Promise<void>; hand?: SeatHand }
const SETTLED: Promise<void> = Promise.resolve();
const NO_HAND: SeatHand = { cards: [], legal: [] };

/**
 * What an accepted move owes to others than its clients (its metrics, waking long-polls, its events), run
 * after the current turn, so that the turn's socket writes (the patch and the mover's acknowledgement, uncorked
 * at its end) are not held up by it. In order and never dropped: the queue is drained by one setImmediate,
 * and an event that must be durable is recorded by the dispatcher as before (src/events).
 */
const afterTurn: Array<() => void> = [];

function afterThisTurn(fn: () => void): void {
  if (afterTurn.length === 0) setImmediate(runAfterTurn);
  afterTurn.push(fn);
}

function runAfterTurn(): void {
  const due = afterTurn.splice(0);
  for (const fn of due) fn();
}

/** setInterval's largest delay: the patch timer then never fires; patches are sent on change. */
export const NO_PATCH_TIMER = 2 ** 31 - 1;

/** `token`: a seat's own player token, as it joined; its seat in a rematch is reserved with it (rooms/rematch.ts). */
interface ClientData extends HandHolder { windowStart: number; messages: number; token?: string }

/** Room messages per second per client, unless the server passes its frame budget (WS_FRAMES_PER_SECOND). */
const MESSAGES_PER_SECOND = 20;

/** How long a finished room waits for a rematch between two seats that stay connected. */
const REMATCH_HOLD_MS = 10 * 60_000;

/** A write refused because one of its profiles changed since it was read (GameWrite.players): read again. */
const STALE = fail("unavailable", "a player's profile changed meanwhile; retry");
/** A finish whose profiles keep changing under it is rated on its own after this many tries (storeFinish). */
const FINISH_ATTEMPTS = 5;

/** A write refused by the owner fence: nothing was stored, the client retries on the new owner. */
const MOVED = fail("unavailable", "this game moved to another process; retry in a moment", { retryAfter: 1 });

export class GameRoom extends Room<{ state: GameRoomState }> implements GameRoomApi, HeldRoom, ClockHandlers {
  private deps!: RoomDeps;
  private ctx!: GameContext;
  private chain: Promise<unknown> = Promise.resolve();
  private timers!: GameClock;
  private connected: Record<Seat, boolean> = { A: false, B: false };
  /** Set once the room is being closed (released, or the server shutting down): nobody is waited for. */
  private closing = false;
  private admission!: Admission;
  /** Writes the replicated state; made with it, when the first client joins. */
  private projector: Projector | null = null;
  private messagesPerSecond = MESSAGES_PER_SECOND;
  /** The owner epoch this room claimed its game with; every durable write carries it (src/cluster). */
  private epoch = 0;
  /**
   * Set once a finishing action is stored. Until its ratings and final record are (settleFinish), the room
   * still shows the game before that action, but takes no further action: one queued meanwhile (a frame
   * sent right behind a resignation, a turn clock) would be applied to the game as shown and collide with
   * the stored finishing action at the same index.
   */
  private settling = false;
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
    this.timers = new GameClock(this.deps, this);
    this.roomId = options.gameId;
    this.autoDispose = false;
    this.patchRate = NO_PATCH_TIMER;
    this.maxClients = ADMIT_ALL; // spectators are capped by `admission`, so a seat is never locked out
    const record = await this.deps.store.getGame(options.gameId);
    if (!record) throw new ServerError(4404, `no game ${options.gameId}`);
    // Claim before reading the log: a write of the previous owner is then either in the log or refused.
    const epoch = await this.deps.fence.claim(record, this);
    if (epoch === null) throw new ServerError(4409, `game ${record.id} was claimed by another room meanwhile`);
    this.epoch = epoch;
    const actions = await this.deps.store.listActions(record.id);
    this.ctx = rebuildContext(record, actions);
    await this.reconcile(actions.at(-1)?.at);
    // One handler for every frame: parsed into a GameIn at the boundary (rooms/messages.ts).
    this.onMessage("*", (client, type, message) => this.withinLimit(client) && void this.onClientIn(client, parseGameIn(type, message)));
    this.afterChange();
    this.closeWhenIdle();
  }

  // ---- WebSocket clients -------------------------------------------------------------------------

  override onAuth(client: Client, options: { playerToken?: unknown }, context?: AuthContext) {
    // A seat reserved just before the room began closing would otherwise hold the closing room open.
    if (this.closing) throw new ServerError(4503, "this game's room is closing; join again in a moment");
    const token = options?.playerToken;
    if (token === undefined || token === null || token === "") {
      this.admission.spectator(this.clients, client, context?.ip);
      return { seat: null };
    }
    const seat = typeof token === "string" ? seatOfToken(this.ctx.record, sha256Hex(token)) : null;
    if (!seat) throw new ServerError(4401, "unauthorized: wrong player token for this game");
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
      this.refresh();
    }
    if (auth.seat) {
      this.connected[auth.seat] = true;
      this.followRematch();
      // Also sends this client its hand (it has received none yet), queued by Colyseus behind its full state.
      this.refresh();
    }
  }

  override async onDrop(client: Client<{ userData: ClientData }>) {
    const seat = client.userData?.seat;
    if (!seat) return;
    this.connected[seat] = false;
    this.refresh();
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
      this.refresh();
    }
  }

  override onLeave(client: Client<{ userData: ClientData }>) {
    const seat = client.userData?.seat;
    if (seat && !this.clients.some((c) => c !== client && (c.userData as ClientData | undefined)?.seat === seat)) {
      this.connected[seat] = false;
      this.refresh();
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
    this.timers.stop();
    this.deps.released(this.roomId);
    this.deps.fence.release(this.roomId, this);
  }

  /** The game moved to another process (this one stalled and was taken over): close without writing. */
  sendAway(reason: string) {
    if (this.closing) return;
    this.closing = true;
    this.timers.stop();
    this.deps.log.warn({ gameId: this.roomId, reason }, "closing a room whose game moved");
    detachListing(this);
    void this.disconnect(GAME_MOVED_CODE).catch(() => undefined);
  }

  private async onClientIn(client: Client, message: GameIn) {
    const seat = (client.userData as ClientData | undefined)?.seat ?? null;
    switch (message.type) {
      case "move": {
        const out = await this.playAs(seat, message.body, client);
        if (!out.ok) this.refuse(client, out.code, out.detail);
        else send(client, { type: "moved", notation: out.value.move.notation, n: out.value.move.n, hand: out.value.hand ?? NO_HAND });
        return;
      }
      case "resign": {
        const out = seat ? await this.perform(resignAction(this.ctx.engine, seat)) : fail("unauthorized", "spectators cannot resign");
        if (!out.ok) this.refuse(client, out.code, out.detail);
        return;
      }
      case "rematch":
      case "declineRematch": {
        const tokenHash = seat ? this.ctx.record.seats[seat]?.tokenHash ?? null : null;
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
    client.leave(4008, "too many messages per second");
    return false;
  }

  private refuse(client: Client, code: ErrorCode, detail: string) {
    send(client, { type: "refused", code, detail });
  }

  // ---- GameRoomApi: what the facade calls, locally or remotely (arguments and results are JSON) -----

  async move(tokenHash: string, input: MoveBody): Promise<Outcome<MoveAnswer>> {
    const seat = seatOfToken(this.ctx.record, tokenHash);
    if (!seat) return fail("unauthorized", "wrong player token for this game");
    const out = await this.playAs(seat, input);
    if (!out.ok) return out;
    // A REST answer shows the game as everyone else sees it: finished only once it is rated and stored.
    await out.value.settled;
    return { ok: true, value: { move: shownMove(out.value.move), view: seatView(this.ctx.engine!, seat), status: this.status() } };
  }

  async resign(tokenHash: string): Promise<Outcome<RecordBody>> {
    const seat = seatOfToken(this.ctx.record, tokenHash);
    if (!seat) return fail("unauthorized", "wrong player token for this game");
    const out = await this.perform(resignAction(this.ctx.engine, seat));
    if (!out.ok) return out;
    await out.value.settled;
    return { ok: true, value: gameRecordBody(this.ctx, this.deps.baseUrl) };
  }

  sync(tokenHash: string | null, since: number): Outcome<SyncBody> {
    return syncFor(this.ctx, tokenHash, since, this.deps.baseUrl);
  }

  record(): Outcome<RecordBody> {
    return { ok: true, value: gameRecordBody(this.ctx, this.deps.baseUrl) };
  }

  unseal(): Outcome<null> {
    // Only a finished game is unsealed; a room of a game still being played keeps its seal.
    if (this.status() === "finished" && this.ctx.record.sealed) {
      const { sealed: _sealed, ...record } = this.ctx.record;
      this.ctx = { ...this.ctx, record };
    }
    return { ok: true, value: null };
  }

  eventsNow(name: EventName, args: Record<string, unknown>): Outcome<EventsNow> {
    return { ok: true, value: eventsNow(this.ctx, name, args, this.deps.baseUrl) };
  }

  /** Claims a seat by its invite code; the game starts when both seats are taken. */
  claimSeat(code: string, claim: SeatClaim): Promise<Outcome<{ seat: Seat; status: string }>> {
    return this.serial(async () => {
      const r = this.ctx.record;
      const seat = (["A", "B"] as const).find((s) => r.seats[s]?.code === code);
      if (!seat) return fail("not_found", "no seat has this invite code");
      if (r.seats[seat]!.tokenHash) return fail("already_joined", "this invite has already been used");
      // Past its waiting time a game is over even before its clock (armed when the room opened) aborts it.
      if (r.status !== "waiting" || this.waitedOut()) return fail("code_expired", "this game is no longer waiting for players");
      const seats = { ...r.seats, [seat]: { ...r.seats[seat]!, ...claim } };
      let record = { ...r, seats };
      const starting = Boolean(seats.A?.tokenHash && seats.B?.tokenHash);
      let engine = null;
      if (starting) {
        engine = startEngine(record);
        const at = new Date().toISOString();
        record = { ...record, status: "active", startedAt: at, firstPlayer: engine.firstPlayer, score: engine.score };
      }
      const stored = await this.write([], { seats, status: record.status, startedAt: record.startedAt, firstPlayer: record.firstPlayer, score: record.score });
      if (!stored.ok) return stored;
      this.ctx = { ...this.ctx, record, engine };
      this.afterChange();
      this.publish();
      if (engine) {
        this.deps.metrics.gamesStarted.inc({ opponent: record.opponent });
        const { ctx } = this;
        this.emit("game.started", () => startedEvent(ctx, this.deps.baseUrl));
        this.emit("game.turn", () => turnEvent(ctx, engine.turn, this.deps.baseUrl));
      }
      return { ok: true, value: { seat, status: record.status } };
    });
  }

  // ---- The one path every change takes -----------------------------------------------------------

  /** A seat's move from any transport (`from`: the WebSocket client it came from); refusals are counted by code. */
  private async playAs(seat: Seat | null, input: MoveBody, from?: Client): Promise<Outcome<Performed & { move: MoveRecord }>> {
    const out = await this.tryPlay(seat, input, from);
    if (!out.ok) this.deps.metrics.refusals.inc({ code: out.code });
    return out;
  }

  private tryPlay(seat: Seat | null, input: MoveBody, from?: Client): Promise<Outcome<Performed & { move: MoveRecord }>> {
    if (!seat) return Promise.resolve(fail("unauthorized", "spectators cannot move; join with a player token"));
    const engine = this.ctx.engine;
    if (this.over()) return Promise.resolve(fail("game_over", "the game has finished"));
    if (!engine) return Promise.resolve(fail("not_your_turn", "the game waits for its second player"));
    if (engine.turn !== seat) return Promise.resolve(fail("not_your_turn", `it is ${engine.turn}'s turn`));
    let action: Action;
    if ("move" in input) {
      const parsed = parseMove(engine, input.move);
      if ("ok" in parsed) return Promise.resolve(fail(parsed.code, parsed.detail));
      action = { kind: "place", ...parsed };
    } else {
      action = { kind: "place", card: input.card, square: input.square.toLowerCase() };
    }
    return this.perform(action, seat, from) as Promise<Outcome<Performed & { move: MoveRecord }>>;
  }

  /** `from`, the client that sent the action, gets the mover's hand in its acknowledgement (`hand`). */
  private perform(action: Action, expectTurn?: Seat, from?: Client): Promise<Outcome<Performed>> {
    // Traced (when tracing is on) from the call: the span's "dequeued" event shows the wait in the queue.
    return traced("game.action", { "game.id": this.roomId, "game.action": action.kind }, (span) => this.serial(async () => {
      span.addEvent("dequeued");
      // 1. validate (again, inside the queue: an earlier action may have changed the turn)
      if (this.over()) return fail("game_over", "the game has finished");
      if (expectTurn && this.ctx.engine?.turn !== expectTurn) return fail("not_your_turn", "it is not your turn");
      // 2. apply
      const started = process.hrtime.bigint();
      const result = traced("engine.step", {}, () => step(this.ctx, action));
      if (!result.ok) return fail(result.code, result.detail);
      // 3. persist: the action and the record fields it changes go into this turn's group commit, and are
      // durable before anyone is told. Nothing of the room changes unless the write is stored.
      const at = new Date().toISOString();
      const index = this.ctx.engine!.actions.length;
      const next = commit(this.ctx, result, at);
      const patch = recordChanges(this.ctx, next, at);
      const finishing = patch.status === "finished";
      // The record says "finished" only with its ratings (storeFinish: one commit on SQLite, after them on
      // MongoDB): if the process dies before, the resumed room finishes the game again (reconcile), and rating
      // is idempotent per game.
      const stored = await this.write([{ gameId: this.roomId, index, action, at }], finishing ? beforeFinish(patch) : patch);
      if (!stored.ok) return stored;
      // The engine holds the game's facts; the record keeps only the times they happened.
      const updated = { ...next, record: { ...next.record, lastMoveAt: patch.lastMoveAt, ...(finishing ? { finishedAt: patch.finishedAt } : {}) } };
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      this.later(() => this.count(action, seconds, updated));
      // Before anything is projected: the sender's client then gets no separate `hand` for this move.
      const hand = from && expectTurn ? acknowledgedHand(from, updated.engine!, expectTurn) : undefined;
      if (finishing) {
        this.settling = true;
        // The finishing action is durable, so its sender is answered now, like any other action. The game is
        // shown finished (patch, sync, record, events) once its ratings and final record are stored: until
        // then the room keeps showing the game before that action, since a reader told "finished" goes on to
        // what only a finished game has in the store (its replay, the players' ratings). That is queued next,
        // ahead of anything that arrives later, and a crash before it is finished again by reconcile.
        const settled = this.serial(() => this.settleFinish(updated, patch, result.move));
        return { ok: true, value: { move: result.move, settled, hand } };
      }
      this.ctx = updated;
      // 4. project (with the new clocks): the patch leaves with the acknowledgement. 5. publish and 6. emit
      // wait until this turn's socket writes are done: nobody waits on them for this move's answer.
      traced("room.announce", {}, () => this.afterChange());
      this.later(() => {
        this.publishOf(updated);
        this.emitAfter(result.move, updated);
      });
      return { ok: true, value: { move: result.move, settled: SETTLED, hand } };
    }));
  }

  /** The rest of a finishing action: ratings and the record marked finished, then the room shows it to everyone. */
  private async settleFinish(finished: GameContext, patch: Partial<GameRecord>, move: MoveRecord | undefined): Promise<void> {
    // Not stored (already logged by write): the log holds the finishing action and the engine is the game's
    // truth, so the room still shows the end, and whichever process opens the game next stores it (reconcile).
    await this.storeFinish(finished, patch);
    this.ctx = finished;
    this.followRematch();
    this.announce(move);
    await this.finish();
  }

  /** Steps 4 to 6 of every change: project (with the new clocks), publish, emit. */
  private announce(move: MoveRecord | undefined) {
    this.afterChange();
    this.publish();
    this.emitAfter(move);
  }

  /**
   * The record marked finished and the seats' ratings in one write of the group commit (GameWrite.players),
   * the profiles read again when one changed meanwhile (another game of the same player finishing). A rating
   * that cannot be computed is logged and the game is finished without it, as a failed rating always was.
   */
  private async storeFinish(finished: GameContext, patch: Partial<GameRecord>): Promise<void> {
    for (let attempt = 0; attempt < FINISH_ATTEMPTS; attempt++) {
      let players: PlayerUpdate[] = [];
      if (finished.engine) {
        try {
          players = await this.deps.players.resultUpdates(this.asStored(finished), finished.engine.champions);
        } catch (e) {
          this.deps.log.error({ err: e }, "rating update failed");
        }
      }
      if ((await this.write([], patch, players)) !== STALE) return;
    }
    // Kept meeting newer profiles: the ratings on their own (retried from fresh reads), then the record.
    await this.rate(finished);
    await this.write([], patch);
  }

  /** Stores actions and record fields through the process's group commit; a refusal when not stored. */
  private async write(actions: StoredAction[], patch: Partial<GameRecord>, players?: PlayerUpdate[]): Promise<Outcome<null>> {
    try {
      const write = { gameId: this.roomId, actions, patch, ownerEpoch: this.epoch, ...(players?.length ? { players } : {}) };
      const result = await traced("store.commit", { "store.actions": actions.length }, () => this.deps.commit(write));
      if (result === "committed") return { ok: true, value: null };
      if (result === "stale") return STALE;
      // The fence refused it (or another room wrote this index): the game is held elsewhere now.
      this.deps.fence.moved(this.roomId, this.epoch);
      return MOVED;
    } catch (e) {
      this.deps.log.error({ err: e, gameId: this.roomId }, "game write failed; refused");
    }
    return fail("unavailable", "the change could not be stored, so it was not made; retry");
  }

  private emitAfter(move: MoveRecord | undefined, ctx: GameContext = this.ctx) {
    const { baseUrl } = this.deps;
    if (move) this.emit("game.move", () => moveEvent(ctx, move.n - 1));
    if (factsOf(ctx).status === "finished") {
      this.emit("game.finished", () => finishedEvent(ctx, baseUrl));
      for (const seat of ["A", "B"] as const) if (ctx.record.seats[seat] && ctx.record.seats[seat].kind !== "house") this.emit("game.turn", () => turnEvent(ctx, seat, baseUrl));
    } else if (move && ctx.engine) {
      const turn = ctx.engine.turn;
      this.emit("game.turn", () => turnEvent(ctx, turn, baseUrl));
    }
  }

  /** Emits an event, unless nobody subscribed to events of its name for this game: then it is not built. */
  private emit<N extends EventName>(name: N, build: () => OutEvent & { name: N }) {
    if (this.deps.listens(this.roomId, name)) this.deps.events.emit(build());
  }

  /** Counts an accepted action of `ctx`, the context it produced, which took `seconds` from its dequeue to its store. */
  private count(action: Action, seconds: number, ctx: GameContext) {
    const { metrics } = this.deps;
    metrics.moveSeconds.observe(seconds);
    if (action.kind === "place") metrics.moves.inc({ player: ctx.record.seats[ctx.engine?.moves.at(-1)?.seat ?? "A"]?.kind ?? "human" });
    const f = factsOf(ctx);
    if (f.status === "finished") metrics.gamesFinished.inc({ decided_by: f.decidedBy ?? "unknown" });
  }

  // ---- Lifecycle: finishing, clocks, the house opponent ------------------------------------------

  private async rate(ctx: GameContext = this.ctx) {
    if (!ctx.engine) return; // no game was played: only a started game is finished
    await this.deps.players.recordResult(this.asStored(ctx), ctx.engine.champions).catch((e) => this.deps.log.error({ err: e }, "rating update failed"));
  }

  /** After a finished game is stored: the finish hook (agent challenges); the room is released later. */
  private async finish() {
    await this.deps.onFinished(this.asStored()).catch((e) => this.deps.log.error({ err: e }, "finish hook failed"));
  }

  /** Repairs a record that lags its action log (a crash between append and record update). */
  private async reconcile(lastActionAt: string | undefined) {
    const { record, engine } = this.ctx;
    if (!engine || record.status === "finished") return;
    const patch = recordPatch(this.ctx, lastActionAt ?? record.startedAt ?? record.createdAt);
    if (record.moveCount === patch.moveCount && patch.status === record.status) return;
    this.ctx = { ...this.ctx, record: { ...record, lastMoveAt: patch.lastMoveAt, finishedAt: patch.finishedAt } };
    if (patch.status === "finished") await this.rate();
    const stored = await this.write([], patch);
    if (!stored.ok) throw new ServerError(4503, `game ${record.id} could not be brought up to date; retry`);
    if (patch.status === "finished") {
      this.emitAfter(undefined);
      await this.finish();
    }
  }

  /** Re-arms the clocks from the new state and shows the new turn deadline. */
  private afterChange() {
    this.timers.arm(this.ctx);
    this.refresh();
  }

  // The clock's handlers are the room's own methods: a game keeps no closures for its timers.

  onTurnTimeout() {
    this.onClock();
  }

  onWaitingExpired() {
    this.abortWaiting();
  }

  onHouseTurn(seat: Seat) {
    void this.houseMove(seat);
  }

  onReleased() {
    // A finished game whose two seats are both still here stays open for their rematch.
    this.releaseDeferred = this.holdForRematch();
    if (this.releaseDeferred) {
      this.rematchHold ??= setTimeout(() => this.stopHolding(), REMATCH_HOLD_MS);
      return;
    }
    this.closing = true;
    void this.disconnect().catch(() => undefined);
  }

  private onClock() {
    const engine = this.ctx.engine;
    if (!engine || this.settling || this.status() !== "active") return;
    // A tournament game is a pairing its seats were given, not one they chose: a seat that does not move in
    // time loses it even before the game counts as played (a no-show forfeit), rather than both drawing.
    const early = engine.moves.length < PLAYED_AFTER_MOVES && !this.ctx.record.tournamentId;
    const action: Action = early ? { kind: "abort" } : { kind: "timeout", seat: engine.turn };
    void this.perform(action);
  }

  private async houseMove(seat: Seat) {
    const engine = this.ctx.engine;
    if (!engine || engine.turn !== seat || this.settling || this.status() !== "active") return;
    let choice: { card: string; square: string };
    try {
      choice = await this.deps.decide(seatView(engine, seat), this.ctx.record.level ?? "normal");
    } catch (err) {
      // Only when the server is closing (the pool falls back to deciding inline otherwise); a restart resumes the turn.
      this.deps.log.warn({ err, gameId: this.roomId }, "house move not decided");
      return;
    }
    // The search ran off the event loop: the game may have moved on meanwhile (a resignation, a timeout),
    // or be ending (a resignation stored, its ratings not yet).
    if (this.ctx.engine !== engine || this.settling) return;
    const out = await this.perform({ kind: "place", ...choice }, seat);
    if (!out.ok) this.deps.log.error({ gameId: this.roomId, out }, "house move refused");
  }

  private abortWaiting() {
    void this.serial(() => this.abortNow());
  }

  /** Declines a bot challenge: its open seat's code aborts the waiting game, as its expiry would. */
  declineInvite(code: string): Promise<Outcome<null>> {
    return this.serial(async () => {
      const r = this.ctx.record;
      const seat = (["A", "B"] as const).find((s) => r.seats[s]?.code === code);
      if (!seat) return fail("not_found", "no seat has this invite code");
      if (r.seats[seat]!.tokenHash) return fail("already_joined", "this challenge was accepted: its game has begun");
      if (r.status !== "waiting" || this.waitedOut()) return fail("code_expired", "this challenge is no longer waiting for an answer");
      return this.abortNow();
    });
  }

  /** Aborts a waiting game (unrated: it never began); call inside `serial`. */
  private async abortNow(): Promise<Outcome<null>> {
    if (this.ctx.record.status !== "waiting") return { ok: true, value: null };
    const at = new Date().toISOString();
    const patch = { status: "finished" as const, winner: null, decidedBy: "aborted" as const, finishedAt: at };
    const stored = await this.write([], patch);
    if (!stored.ok) return stored;
    this.ctx = { ...this.ctx, record: { ...this.ctx.record, ...patch } };
    this.afterChange();
    this.publish();
    this.deps.metrics.gamesFinished.inc({ decided_by: "aborted" });
    this.emitAfter(undefined);
    // Opened only to abort (the waiting sweep, a declined challenge), with nobody to show the end to: no grace period.
    if (this.clients.length === 0) this.onReleased();
    return stored;
  }

  private waitedOut(): boolean {
    return Date.parse(this.ctx.record.createdAt) + this.deps.waitingGameTtlS * 1000 <= Date.now();
  }

  /**
   * A waiting game needs no room while nobody is connected: its store record answers for it, and a claim
   * or a watcher opens a room again (GameService.open). So once its last client has left (or none came), the
   * room closes after `waitingRoomIdleMs`, giving up its ownership so that the next room, on any process,
   * may claim the game. A seat reserved meanwhile is taken within Colyseus' reservation time, which is shorter.
   */
  private closeWhenIdle() {
    clearTimeout(this.idle);
    if (this.ctx.record.status !== "waiting" || this.clients.length > 0) return;
    this.idle = setTimeout(() => void this.releaseIdle(), this.deps.waitingRoomIdleMs);
  }

  private releaseIdle() {
    return this.serial(async () => {
      if (this.closing || this.ctx.record.status !== "waiting") return;
      if (this.clients.length > 0) return this.closeWhenIdle();
      if (!(await this.write([], { owner: undefined })).ok) return;
      this.onReleased();
    });
  }

  // ---- Rematch (rooms/rematch.ts) -----------------------------------------------------------------

  /** Once the game has finished with a rematch to offer, its seats' clients are told of it. */
  private followRematch() {
    if (this.rematchFollowed || this.status() !== "finished" || noRematch(this.asStored())) return;
    this.rematchFollowed = followRematch(this.deps.rematches, this.roomId, () => this.clients);
  }

  /**
   * A release held for a rematch happens once a seat has gone (a closed tab, or moved on to the new game):
   * from its drop too, without waiting out the seat's reconnection time.
   */
  private releaseHeld() {
    if (this.releaseDeferred && !this.holdForRematch()) this.onReleased();
  }

  /** The hold is over: the room closes, and the seats' pages go on over REST (the offer is kept there). */
  private stopHolding() {
    this.rematchFollowed?.();
    this.rematchFollowed = undefined;
    this.onReleased();
  }

  /** Whether the finished room stays open: both seats connected, a rematch on offer, not yet started. */
  private holdForRematch(): boolean {
    return !this.closing && this.connected.A && this.connected.B && this.rematchFollowed !== undefined && this.deps.rematches.open(this.roomId);
  }

  // ---- plumbing ----------------------------------------------------------------------------------

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(fn, fn);
    this.chain = run.catch(() => undefined);
    return run;
  }

  private refresh() {
    if (!this.projector) return; // nobody has joined yet (onJoin)
    this.projector.project(this.ctx, this.connected, this.timers.deadlineMs);
    // Corked before anything is sent: a seat's `hand`, the patch and the mover's `moved` (sent later in this
    // turn) leave in one write per client.
    corkForThisTurn(this.clients);
    // While a finishing action settles the room shows the game before it: hands wait for the end.
    if (!this.settling || this.status() === "finished") deliverHands(this.ctx.engine, this.clients);
    this.broadcastPatch();
  }

  private publish() {
    this.publishOf(this.ctx);
  }

  /** Runs `fn` after this turn's socket writes (afterThisTurn); a failure is logged, the others still run. */
  private later(fn: () => void) {
    afterThisTurn(() => {
      try {
        fn();
      } catch (err) {
        this.deps.log.error({ err, gameId: this.roomId }, "work after a move failed");
      }
    });
  }

  private publishOf(ctx: GameContext) {
    const f = factsOf(ctx);
    this.deps.publishChange(this.roomId, { moveCount: f.moveCount, status: f.status });
  }

  private status() {
    return factsOf(this.ctx).status;
  }

  /** Whether the game takes no more actions: finished, or its finishing action stored and being settled. */
  private over(): boolean {
    return this.settling || this.status() === "finished";
  }

  /** The record as the store keeps it: the facts derived from the engine written into it. */
  private asStored(ctx: GameContext = this.ctx): GameRecord {
    return { ...ctx.record, ...recordPatch(ctx, ctx.record.finishedAt ?? new Date().toISOString()) };
  }
}
