/**
 * One game's move pipeline, free of any transport: the actor owns the authoritative engine state of its
 * game, and every change goes through `perform` in one serial queue, which reads top to bottom: validate,
 * apply (pure engine), persist (the action and the record fields it changes go through the commit port and
 * are durable before anyone is told), announce (the announce port shows the change to whoever watches:
 * the game room projects it and sends its patch), publish (wake long-poll waiters), emit (lifecycle
 * events). Finishing (ratings and the final record in one write), seat claims, aborts and the turn clock
 * run through the same queue. The actor is the only writer of its game's record.
 *
 * The game room (rooms/game-room.ts) is its adapter to Colyseus: clients, seats, hands, the patch, the
 * rematch hold. The actor needs no server: test/games/actor/game-actor.test.ts drives it with plain ports.
 */
import { parseMove, seatView, shownMove, type Action, type Cell, type GameState, type MoveRecord, type Seat } from "../../../engine";
import { fail, type Outcome } from "../../../shared/errors";
import { advance, factsOf, startEngine, step, type GameContext } from "../context";
import { eventsNow, finishedEvent, moveEvent, startedEvent, turnEvent, type EventName, type OutEvent } from "../game-events";
import { keptMoveIn } from "../kept-move";
import type { LocalGameRoom } from "../room-access";
import type { EventsNow } from "../room-api";
import type { SeatClaim } from "../seats";
import type { RoomDeps } from "../ports";
import { recordChanges, recordPatch, seatForClaim, seatOfToken, readableBy } from "../record";
import type { MoveBody } from "../schemas";
import { gameRecordBody, syncFor, type MoveAnswer, type RecordBody, type SyncBody } from "../views";
import type { GameRecord, GameWrite, GameWriteResult, PlayerRecord, PlayerUpdate, StoredAction } from "../../../store/port";
import { traced } from "../../../shared/tracing";
import { GameClock, type ClockHandlers } from "./game-clock";
import type { SeatHand } from "./hand";
import { PLAYED_AFTER_MOVES, resignAction } from "../early-end";

/** Where the actor's writes go: the process's group commit, and the owner fence when one was refused. */
export interface CommitPort {
  commit(write: GameWrite): Promise<GameWriteResult>;
  /** A write was refused by the owner fence (or another owner wrote this index): the game is held elsewhere. */
  moved(gameId: string, epoch: number): void;
}

/**
 * The commit port of an actor opened by a game room: the process's group commit, and its owner fence told
 * of a refused write (which sends the room away). Here rather than in the room: it is the service's, not
 * Colyseus'; one small object per game, without closures.
 */
export class ProcessCommit implements CommitPort {
  constructor(private readonly deps: Pick<RoomDeps, "commit" | "fence">) {}

  commit(write: GameWrite): Promise<GameWriteResult> {
    return this.deps.commit(write);
  }

  moved(gameId: string, epoch: number) {
    this.deps.fence.moved(gameId, epoch);
  }
}

/**
 * Whoever shows the game (the game room): told of each change after it is durable, in the queue's order.
 * `From` is what a move came from (the room's WebSocket client), handed back to `acknowledge`.
 */
export interface AnnouncePort<From> {
  /** The game (or its clock) changed: show it. */
  changed(): void;
  /** The mover's hand for its acknowledgement, before the change is shown (the mover then gets no other). */
  acknowledge(from: From, engine: GameState, seat: Seat): SeatHand;
  /** A finishing action is settled (rated, stored finished), just before the end is shown. */
  finished(): void;
  /** A waiting game was aborted (its invitation expired or was declined). */
  aborted(): void;
  /** The finished game's grace period is over: nothing more will happen in it. */
  released(): void;
}

/** What the actor needs of the service besides its two ports. */
export type ActorDeps = Pick<
  RoomDeps,
  | "players"
  | "metrics"
  | "events"
  | "listens"
  | "publishChange"
  | "decide"
  | "onFinished"
  | "log"
  | "baseUrl"
  | "houseDelayMs"
  | "waitingGameTtlS"
  | "finishedGraceMs"
  | "afterTurn"
>;

/**
 * What an accepted action gives its caller: the move it made, and when the game it finished is settled
 * (rated, stored as finished and shown so); at once for an action that does not finish the game.
 */
export interface Performed {
  move?: MoveRecord;
  /** The board after the move (its state's): the answer shows it, and the engine keeps no board per move. */
  after?: readonly Cell[];
  settled: Promise<void>;
  hand?: SeatHand;
}
const SETTLED: Promise<void> = Promise.resolve();

/** A write refused because one of its profiles changed since it was read (GameWrite.players): read again. */
const STALE = fail("unavailable", "a player's profile changed meanwhile; retry");
/** A finish whose profiles keep changing under it is rated on its own after this many tries (storeFinish). */
const FINISH_ATTEMPTS = 5;

/** A seat claim whose new guest profile's id is taken (GameWrite.guests): nothing stored; retried with a fresh id. */
export const GUEST_TAKEN = fail("conflict", "the new player's id is taken; retry");
/** A write refused by the owner fence: nothing was stored, the client retries on the new owner. */
const MOVED = fail("unavailable", "this game moved to another process; retry in a moment", { retryAfter: 1 });

/**
 * The record of a finishing action as stored before the ratings: without its end (status, winner, how and
 * when it was decided), so the stored game is still active and a restart finishes it again.
 */
function beforeFinish(patch: Partial<GameRecord>): Partial<GameRecord> {
  const { status: _status, winner: _winner, decidedBy: _decidedBy, finishedAt: _finishedAt, ...active } = patch;
  return active;
}

export class GameActor<From = never> implements LocalGameRoom, ClockHandlers {
  private chain: Promise<unknown> = Promise.resolve();
  private readonly clock: GameClock;
  /**
   * Set once a finishing action is stored. Until its ratings and final record are (settleFinish), the actor
   * still shows the game before that action, but takes no further action: one queued meanwhile (a frame
   * sent right behind a resignation, a turn clock) would be applied to the game as shown and collide with
   * the stored finishing action at the same index.
   */
  settling = false;

  /** `epoch`: the owner epoch the game was claimed with; every durable write carries it (src/services/cluster). */
  constructor(
    readonly gameId: string,
    private readonly epoch: number,
    private game: GameContext,
    private readonly deps: ActorDeps,
    private readonly store: CommitPort,
    private readonly on: AnnouncePort<From>,
  ) {
    this.clock = new GameClock(deps, this);
  }

  /** The game as the actor holds it now (read it, never keep it: every change replaces it). */
  get ctx(): GameContext {
    return this.game;
  }

  /** Epoch ms when the seat to move runs out of time; 0 when no turn clock runs. */
  get deadlineMs(): number {
    return this.clock.deadlineMs;
  }

  status() {
    return factsOf(this.game).status;
  }

  /** Whether the game takes no more actions: finished, or its finishing action stored and being settled. */
  over(): boolean {
    return this.settling || this.status() === "finished";
  }

  /** Arms the clocks and shows the game: once the actor is opened (after reconcile). */
  start(): void {
    this.afterChange();
  }

  /** No clock fires any more (the room is closing). */
  stop(): void {
    this.clock.stop();
  }

  // ---- GameRoomApi ---------------------------------------------------------------------------------

  async move(tokenHash: string, input: MoveBody): Promise<Outcome<MoveAnswer>> {
    const seat = seatOfToken(this.game.record, tokenHash);
    if (!seat) return fail("unauthorized", "wrong player token for this game");
    const out = await this.play(seat, input);
    if (!out.ok) return out;
    // A REST answer shows the game as everyone else sees it: finished only once it is rated and stored.
    await out.value.settled;
    return { ok: true, value: { move: shownMove(out.value.move, out.value.after!), view: seatView(this.game.engine!, seat), status: this.status() } };
  }

  async resign(tokenHash: string): Promise<Outcome<RecordBody>> {
    const seat = seatOfToken(this.game.record, tokenHash);
    if (!seat) return fail("unauthorized", "wrong player token for this game");
    const out = await this.resignAs(seat);
    if (!out.ok) return out;
    await out.value.settled;
    return { ok: true, value: gameRecordBody(this.game, this.deps.baseUrl) };
  }

  sync(tokenHash: string | null, since: number): Outcome<SyncBody> {
    return syncFor(this.game, tokenHash, since, this.deps.baseUrl);
  }

  record(): Outcome<RecordBody> {
    return { ok: true, value: gameRecordBody(this.game, this.deps.baseUrl) };
  }

  readableBy(tokenHash: string | null): boolean {
    return readableBy(this.game.record, tokenHash);
  }

  /**
   * The answer to a move this seat already made, from the game's own moves, once everything queued before it
   * is done: a finishing move is answered when it is settled (shown finished), as its first answer was.
   */
  keptMove(tokenHash: string, input: MoveBody): Promise<MoveAnswer | null> {
    return this.serial(async () => keptMoveIn(this.game, tokenHash, input));
  }

  unseal(): Outcome<null> {
    // Only a finished game is unsealed; a game still being played keeps its seal.
    if (this.status() === "finished" && this.game.record.sealed) {
      const { sealed: _sealed, ...record } = this.game.record;
      this.game = { ...this.game, record };
    }
    return { ok: true, value: null };
  }

  eventsNow(name: EventName, args: Record<string, unknown>): Outcome<EventsNow> {
    return { ok: true, value: eventsNow(this.game, name, args, this.deps.baseUrl) };
  }

  /**
   * Claims a seat by its invite code; the game starts when both seats are taken. The joining player's new
   * guest profile, when it has one, is stored with the claim: one durable write.
   */
  claimSeat(code: string, claim: SeatClaim, guest?: PlayerRecord): Promise<Outcome<{ seat: Seat; status: string }>> {
    return this.serial(async () => {
      const r = this.game.record;
      const claimable = seatForClaim(r, code);
      if (!claimable.ok) return claimable;
      const seat = claimable.value;
      // Past its waiting time a game is over even before its clock (armed when the actor opened) aborts it.
      if (this.waitedOut()) return fail("code_expired", "this game is no longer waiting for players");
      const seats = { ...r.seats, [seat]: { ...r.seats[seat]!, ...claim } };
      let record = { ...r, seats };
      const starting = Boolean(seats.A?.tokenHash && seats.B?.tokenHash);
      let engine = null;
      if (starting) {
        engine = startEngine(record);
        const at = new Date().toISOString();
        record = { ...record, status: "active", startedAt: at, firstPlayer: engine.firstPlayer, score: engine.score };
      }
      const patch = { seats, status: record.status, startedAt: record.startedAt, firstPlayer: record.firstPlayer, score: record.score };
      const stored = await this.write([], patch, undefined, guest ? [guest] : undefined);
      if (!stored.ok) return stored === STALE ? GUEST_TAKEN : stored;
      this.game = { ...this.game, record, engine };
      this.afterChange();
      this.publish();
      if (engine) {
        this.deps.metrics.gamesStarted.inc({ opponent: record.opponent });
        const ctx = this.game;
        this.emit("game.started", () => startedEvent(ctx, this.deps.baseUrl));
        this.emit("game.turn", () => turnEvent(ctx, engine.turn, this.deps.baseUrl));
      }
      return { ok: true, value: { seat, status: record.status } };
    });
  }

  /** Declines a bot challenge: its open seat's code aborts the waiting game, as its expiry would. */
  declineInvite(code: string): Promise<Outcome<null>> {
    return this.serial(async () => {
      const r = this.game.record;
      const seat = (["A", "B"] as const).find((s) => r.seats[s]?.code === code);
      if (!seat) return fail("not_found", "no seat has this invite code");
      if (r.seats[seat]!.tokenHash) return fail("already_joined", "this challenge was accepted: its game has begun");
      if (r.status !== "waiting" || this.waitedOut()) return fail("code_expired", "this challenge is no longer waiting for an answer");
      return this.abortNow();
    });
  }

  /**
   * Withdraws a player whose bot key was revoked: a game it sits in (or is challenged to) that was never played
   * is ended now, unplayed. A waiting one, or any other, is aborted (unrated; a league's void), except a
   * tournament game, which the withdrawn seat forfeits, as a no-show does (docs/TOURNAMENTS.md, "No-shows"):
   * an abort would count there as a draw. A game both seats have moved in goes on, and its clock ends it.
   * Answers whether this call ended the game.
   */
  async withdraw(playerId: string): Promise<Outcome<{ aborted: boolean }>> {
    const r = this.game.record;
    const seat = (["A", "B"] as const).find((s) => r.seats[s]?.playerId === playerId);
    if ((!seat && r.challengedBot !== playerId) || this.over()) return { ok: true, value: { aborted: false } };
    if (r.status === "waiting") {
      const out = await this.serial(() => this.abortNow());
      return out.ok ? { ok: true, value: { aborted: true } } : out;
    }
    const engine = this.game.engine;
    if (!seat || !engine || engine.moves.length >= PLAYED_AFTER_MOVES) return { ok: true, value: { aborted: false } };
    const out = await this.perform(r.tournamentId ? { kind: "resign", seat } : { kind: "abort" });
    // Played meanwhile (the engine refuses an abort then), or finished by another action: left as it is.
    if (!out.ok) return { ok: true, value: { aborted: false } };
    await out.value.settled;
    return { ok: true, value: { aborted: true } };
  }

  // ---- The one path every change takes -----------------------------------------------------------

  /** A seat's move from any transport (`from`: whom to acknowledge it to, with its hand); refusals are counted by code. */
  async play(seat: Seat | null, input: MoveBody, from?: From): Promise<Outcome<Performed & { move: MoveRecord }>> {
    const out = await this.tryPlay(seat, input, from);
    if (!out.ok) this.deps.metrics.refusals.inc({ code: out.code });
    return out;
  }

  /** A seat resigns (before its game has counted as played, that aborts it). */
  resignAs(seat: Seat): Promise<Outcome<Performed>> {
    return this.perform(resignAction(this.game.engine, seat));
  }

  private tryPlay(seat: Seat | null, input: MoveBody, from?: From): Promise<Outcome<Performed & { move: MoveRecord }>> {
    if (!seat) return Promise.resolve(fail("unauthorized", "spectators cannot move; join with a player token"));
    const engine = this.game.engine;
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

  /** `from`, whom the action came from, gets the mover's hand in its acknowledgement (`hand`). */
  private perform(action: Action, expectTurn?: Seat, from?: From): Promise<Outcome<Performed>> {
    // Traced (when tracing is on) from the call: the span's "dequeued" event shows the wait in the queue.
    return traced("game.action", { "game.id": this.gameId, "game.action": action.kind }, (span) =>
      this.serial(async () => {
        span.addEvent("dequeued");
        // 1. validate (again, inside the queue: an earlier action may have changed the turn)
        if (this.over()) return fail("game_over", "the game has finished");
        if (expectTurn && this.game.engine?.turn !== expectTurn) return fail("not_your_turn", "it is not your turn");
        // 2. apply
        const started = process.hrtime.bigint();
        const result = traced("engine.step", {}, () => step(this.game, action));
        if (!result.ok) return fail(result.code, result.detail);
        // 3. persist: the action and the record fields it changes go into this turn's group commit, and are
        // durable before anyone is told. Nothing of the game changes unless the write is stored.
        const at = new Date().toISOString();
        const index = this.game.engine!.actions.length;
        const next = advance(this.game, result, at);
        const patch = recordChanges(this.game, next, at);
        const finishing = patch.status === "finished";
        // The record says "finished" only with its ratings (storeFinish: one commit on SQLite, after them on
        // MongoDB): if the process dies before, the resumed actor finishes the game again (reconcile), and rating
        // is idempotent per game.
        const stored = await this.write([{ gameId: this.gameId, index, action, at }], finishing ? beforeFinish(patch) : patch);
        if (!stored.ok) return stored;
        // The engine holds the game's facts; the record keeps only the times they happened.
        const updated = { ...next, record: { ...next.record, lastMoveAt: patch.lastMoveAt, ...(finishing ? { finishedAt: patch.finishedAt } : {}) } };
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        this.later(() => this.count(action, seconds, updated));
        // Before anything is shown: the mover then gets no separate `hand` for this move.
        const hand = from !== undefined && expectTurn ? this.on.acknowledge(from, updated.engine!, expectTurn) : undefined;
        if (finishing) {
          this.settling = true;
          // The finishing action is durable, so its sender is answered now, like any other action. The game is
          // shown finished (patch, sync, record, events) once its ratings and final record are stored: until
          // then the actor keeps showing the game before that action, since a reader told "finished" goes on to
          // what only a finished game has in the store (its replay, the players' ratings). That is queued next,
          // ahead of anything that arrives later, and a crash before it is finished again by reconcile.
          const settled = this.serial(() => this.settleFinish(updated, patch, result.move));
          return { ok: true, value: { move: result.move, after: updated.engine!.board, settled, hand } };
        }
        this.game = updated;
        // 4. announce (with the new clocks): the patch leaves with the acknowledgement. 5. publish and 6. emit
        // wait until this turn's socket writes are done: nobody waits on them for this move's answer.
        traced("room.announce", {}, () => this.afterChange());
        this.later(() => {
          this.publishOf(updated);
          this.emitAfter(result.move, updated);
        });
        return { ok: true, value: { move: result.move, after: updated.engine!.board, settled: SETTLED, hand } };
      }),
    );
  }

  /** The rest of a finishing action: ratings and the record marked finished, then the end is shown to everyone. */
  private async settleFinish(finished: GameContext, patch: Partial<GameRecord>, move: MoveRecord | undefined): Promise<void> {
    // Not stored (already logged by write): the log holds the finishing action and the engine is the game's
    // truth, so the actor still shows the end, and whichever process opens the game next stores it (reconcile).
    await this.storeFinish(finished, patch);
    this.game = finished;
    this.on.finished();
    this.announce(move);
    await this.finish();
  }

  /** Steps 4 to 6 of every change: announce (with the new clocks), publish, emit. */
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

  /** Stores actions and record fields through the commit port; a refusal when not stored. */
  private async write(actions: StoredAction[], patch: Partial<GameRecord>, players?: PlayerUpdate[], guests?: PlayerRecord[]): Promise<Outcome<null>> {
    try {
      const write = {
        gameId: this.gameId,
        actions,
        patch,
        ownerEpoch: this.epoch,
        ...(players?.length ? { players } : {}),
        ...(guests?.length ? { guests } : {}),
      };
      const result = await traced("store.commit", { "store.actions": actions.length }, () => this.store.commit(write));
      if (result === "committed") return { ok: true, value: null };
      if (result === "stale") return STALE;
      // The fence refused it (or another room wrote this index): the game is held elsewhere now.
      this.store.moved(this.gameId, this.epoch);
      return MOVED;
    } catch (e) {
      this.deps.log.error({ err: e, gameId: this.gameId }, "game write failed; refused");
    }
    return fail("unavailable", "the change could not be stored, so it was not made; retry");
  }

  private emitAfter(move: MoveRecord | undefined, ctx: GameContext = this.game) {
    const { baseUrl } = this.deps;
    if (move) this.emit("game.move", () => moveEvent(ctx, move.n - 1));
    if (factsOf(ctx).status === "finished") {
      this.emit("game.finished", () => finishedEvent(ctx, baseUrl));
      for (const seat of ["A", "B"] as const)
        if (ctx.record.seats[seat] && ctx.record.seats[seat].kind !== "house") this.emit("game.turn", () => turnEvent(ctx, seat, baseUrl));
    } else if (move && ctx.engine) {
      const turn = ctx.engine.turn;
      this.emit("game.turn", () => turnEvent(ctx, turn, baseUrl));
    }
  }

  /** Emits an event, unless nobody subscribed to events of its name for this game: then it is not built. */
  private emit<N extends EventName>(name: N, build: () => OutEvent & { name: N }) {
    if (this.deps.listens(this.gameId, name)) this.deps.events.emit(build());
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

  private async rate(ctx: GameContext = this.game) {
    if (!ctx.engine) return; // no game was played: only a started game is finished
    await this.deps.players.recordResult(this.asStored(ctx), ctx.engine.champions).catch((e) => this.deps.log.error({ err: e }, "rating update failed"));
  }

  /** After a finished game is stored: the finish hook (agent challenges); the room is released later. */
  private async finish() {
    await this.deps.onFinished(this.asStored()).catch((e) => this.deps.log.error({ err: e }, "finish hook failed"));
  }

  /**
   * Repairs a record that lags its action log (a crash between append and record update); false when that
   * could not be stored (the game is then not opened).
   */
  async reconcile(lastActionAt: string | undefined): Promise<boolean> {
    const { record, engine } = this.game;
    if (!engine || record.status === "finished") return true;
    const patch = recordPatch(this.game, lastActionAt ?? record.startedAt ?? record.createdAt);
    if (record.moveCount === patch.moveCount && patch.status === record.status) return true;
    this.game = { ...this.game, record: { ...record, lastMoveAt: patch.lastMoveAt, finishedAt: patch.finishedAt } };
    if (patch.status === "finished") await this.rate();
    const stored = await this.write([], patch);
    if (!stored.ok) return false;
    if (patch.status === "finished") {
      this.emitAfter(undefined);
      await this.finish();
    }
    return true;
  }

  /** Re-arms the clocks from the new state and shows the change with the new turn deadline. */
  private afterChange() {
    this.clock.arm(this.game);
    this.on.changed();
  }

  // The clock's handlers are the actor's own methods: a game keeps no closures for its timers.

  onTurnTimeout() {
    const engine = this.game.engine;
    if (!engine || this.settling || this.status() !== "active") return;
    // A tournament game is a pairing its seats were given, not one they chose: a seat that does not move in
    // time loses it even before the game counts as played (a no-show forfeit), rather than both drawing.
    const early = engine.moves.length < PLAYED_AFTER_MOVES && !this.game.record.tournamentId;
    const action: Action = early ? { kind: "abort" } : { kind: "timeout", seat: engine.turn };
    void this.perform(action);
  }

  onWaitingExpired() {
    void this.serial(() => this.abortNow());
  }

  onHouseTurn(seat: Seat) {
    void this.houseMove(seat);
  }

  onReleased() {
    this.on.released();
  }

  private async houseMove(seat: Seat) {
    const engine = this.game.engine;
    if (!engine || engine.turn !== seat || this.settling || this.status() !== "active") return;
    let choice: { card: string; square: string };
    try {
      choice = await this.deps.decide(seatView(engine, seat), this.game.record.level ?? "normal");
    } catch (err) {
      // Only when the server is closing (the pool falls back to deciding inline otherwise); a restart resumes the turn.
      this.deps.log.warn({ err, gameId: this.gameId }, "house move not decided");
      return;
    }
    // The search ran off the event loop: the game may have moved on meanwhile (a resignation, a timeout),
    // or be ending (a resignation stored, its ratings not yet).
    if (this.game.engine !== engine || this.settling) return;
    const out = await this.perform({ kind: "place", ...choice }, seat);
    if (!out.ok) this.deps.log.error({ gameId: this.gameId, out }, "house move refused");
  }

  /** Aborts a waiting game (unrated: it never began); call inside `serial`. */
  private async abortNow(): Promise<Outcome<null>> {
    if (this.game.record.status !== "waiting") return { ok: true, value: null };
    const at = new Date().toISOString();
    const patch = { status: "finished" as const, winner: null, decidedBy: "aborted" as const, finishedAt: at };
    const stored = await this.write([], patch);
    if (!stored.ok) return stored;
    this.game = { ...this.game, record: { ...this.game.record, ...patch } };
    this.afterChange();
    this.publish();
    this.deps.metrics.gamesFinished.inc({ decided_by: "aborted" });
    this.emitAfter(undefined);
    this.on.aborted();
    return stored;
  }

  private waitedOut(): boolean {
    return Date.parse(this.game.record.createdAt) + this.deps.waitingGameTtlS * 1000 <= Date.now();
  }

  /**
   * Gives up the game's ownership while it waits and `idle()` still holds (in the queue, after whatever
   * came first): "released" once stored; "busy" when it is no longer idle; "kept" otherwise.
   */
  releaseWaiting(idle: () => boolean): Promise<"released" | "busy" | "kept"> {
    return this.serial(async () => {
      if (this.game.record.status !== "waiting") return "kept";
      if (!idle()) return "busy";
      return (await this.write([], { owner: undefined })).ok ? "released" : "kept";
    });
  }

  // ---- plumbing ----------------------------------------------------------------------------------

  /** Runs `fn` after everything queued before it, whether that succeeded or failed. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(fn, fn);
    this.chain = run.catch(() => undefined);
    return run;
  }

  private publish() {
    this.publishOf(this.game);
  }

  /** Runs `fn` after this turn's socket writes (the process's AfterTurn); a failure is logged, the others still run. */
  private later(fn: () => void) {
    this.deps.afterTurn.run(() => {
      try {
        fn();
      } catch (err) {
        this.deps.log.error({ err, gameId: this.gameId }, "work after a move failed");
      }
    });
  }

  private publishOf(ctx: GameContext) {
    const f = factsOf(ctx);
    this.deps.publishChange(this.gameId, { moveCount: f.moveCount, status: f.status });
  }

  /** The record as the store keeps it: the facts derived from the engine written into it. */
  asStored(ctx: GameContext = this.game): GameRecord {
    return { ...ctx.record, ...recordPatch(ctx, ctx.record.finishedAt ?? new Date().toISOString()) };
  }
}
