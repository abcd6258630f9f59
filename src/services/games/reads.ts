/**
 * Reading games: what REST, MCP, the bots' streams and the webhooks ask of a game once it exists, translated into
 * store reads and room calls, each checked against who may read the game (readableBy). It holds no game state of
 * its own; live games are answered by their rooms, finished games from the store (their contexts, reviews and a
 * league deal's unsealing kept here).
 */
import type { Presence } from "@colyseus/core";
import type { AiPool } from "../ai/pool";
import type { Review } from "../ai/review";
import type { Seat } from "../../engine";
import { AppError, unwrap, type Outcome } from "../../shared/errors";
import type { PlayerService } from "../players/service";
import type { GameRecord, GamesPort, LogPort } from "../../store/port";
import { rebuildContext, type GameContext } from "./context";
import { eventsNow, type EventName } from "./game-events";
import { noSuchGame, readableBy, seatOfToken } from "./record";
import { changeChannel } from "./ports";
import type { RoomAccess } from "./room-access";
import type { GameRoomApi, RoomProxy } from "./room-api";
import { sha256Hex } from "../../shared/secrets";
import { gameRecordBody, linksFor, replayBody, syncFor, type RecordBody, type SyncBody } from "./views";
import { subscribeOnce, Wakeups } from "./waiter";
import { noRematch, rematchView, type RematchView } from "./rematch";

/** One question to a game's room, asked the same way of a local room and of a remote one's proxy. */
export type Ask<T> = (room: GameRoomApi | RoomProxy<GameRoomApi>) => Outcome<T> | Promise<Outcome<T>>;

/** Reviews kept in memory: a finished game never changes, so its review is computed once. */
const REVIEW_CACHE = 256;

/**
 * How long a read waits for a room in another process before it is answered from the store (public
 * reads) or refused as `unavailable` with Retry-After (a seat's sync): the process may be dead, and its
 * games are being moved. Moves wait longer (play.ts), since a live room stores the move before it answers.
 */
const PUBLIC_READ_TIMEOUT_MS = 700;
const SEAT_READ_TIMEOUT_MS = 2000;

/**
 * Who reads a game (readableBy): a caller, by the sha256 of the player token it sent (null: none), or the
 * service itself, on behalf of a caller it has checked already (a subscription's arguments: SubscriptionService).
 */
export type Reader = { tokenHash: string | null } | "service";

const readerOf = (token: string | undefined): Reader => ({ tokenHash: token ? sha256Hex(token) : null });

export class GameReads {
  private finished = new Map<string, GameContext>();
  private reviews = new Map<string, Promise<Review>>();
  /** Long-poll wake-ups of this process, a few per turn of the event loop (waiter.ts). */
  private readonly wakeups = new Wakeups();

  constructor(
    private readonly store: { games: Pick<GamesPort, "getGame" | "updateGameIf" | "listGames" | "listActions">; log: Pick<LogPort, "addLogPending"> },
    private readonly rooms: RoomAccess,
    private readonly players: Pick<PlayerService, "profile">,
    private readonly presence: Presence,
    private readonly baseUrl: string,
    private readonly ai: Pick<AiPool, "review">,
  ) {}

  /**
   * Seat of a token in a game, for event subscriptions (null when the token is absent or not a seat's);
   * not_found, as for an unknown game, when the caller may not read the game (readableBy).
   */
  async seatOf(gameId: string, token: string | undefined): Promise<Seat | null> {
    const reader = readerOf(token);
    const game = await this.readable(gameId, reader);
    return reader !== "service" && reader.tokenHash ? seatOfToken(game, reader.tokenHash) : null;
  }

  /**
   * The game's stored record when `reader` may read it (readableBy); otherwise not_found, the same answer as
   * for a game that does not exist. A finished game's cached context answers without a store read.
   */
  async readable(gameId: string, reader: Reader): Promise<GameRecord> {
    const game = this.finished.get(gameId)?.record ?? (await this.store.games.getGame(gameId));
    if (!game || !mayRead(game, reader)) throw noSuchGame(gameId);
    return game;
  }

  /**
   * Unseals finished league games (both games of a deal, once both have finished): their records show the
   * reveal and their replays and reviews exist from now on, and they are marked for the public log, which
   * their finish writes left to this (a sealed game's entry would carry the seed). Idempotent; a game not
   * finished, or not stored, is left alone. A room still holding one of them in this process is told, since
   * reads ask it first; a room in another process is not asked (a finished game is read there from the store).
   */
  async unseal(gameIds: readonly string[]): Promise<void> {
    for (const id of gameIds) {
      // The seal goes first, then the mark, so the log never sees a marked game still sealed. A crash between
      // the two leaves a finished, unsealed game unmarked: the log's catch-up at the next start marks it; a
      // failed mark fails the league's count, whose next run unseals, and marks, again.
      if (await this.store.games.updateGameIf(id, { status: "finished" }, { sealed: undefined })) await this.store.log.addLogPending([id]);
      this.finished.delete(id);
      this.rooms.localGame(id)?.unseal();
    }
  }

  /** Whether a caller holding `token` (or none) may read the game: false too when there is no such game. */
  async canRead(gameId: string, token: string | undefined): Promise<boolean> {
    const game = this.finished.get(gameId)?.record ?? (await this.store.games.getGame(gameId));
    return game !== null && readableBy(game, token ? sha256Hex(token) : null);
  }

  /**
   * Whether a WebSocket join of room `roomId` by id, with `playerToken` (or none), may reserve a seat there:
   * false for a game the caller may not read (readableBy: a private game's watcher). A room that is not a
   * stored game (a tournament's, a queue's) is not this rule's to refuse.
   */
  async admitsJoin(roomId: string, playerToken: unknown): Promise<boolean> {
    const tokenHash = typeof playerToken === "string" && playerToken !== "" ? sha256Hex(playerToken) : null;
    // The store, not a local room: a room of this id may be a tournament's or a queue's (no readableBy).
    const game = this.finished.get(roomId)?.record ?? (await this.store.games.getGame(roomId));
    return !game || readableBy(game, tokenHash);
  }

  /** Sync with long-poll: waits up to `timeoutS` seconds for a move past `since` or a status change. */
  async sync(gameId: string, token: string | undefined, since: number, timeoutS: number): Promise<SyncBody> {
    const tokenHash = token ? sha256Hex(token) : null;
    const reader: Reader = { tokenHash };
    const waiter = timeoutS > 0 ? await subscribeOnce(this.presence, changeChannel(gameId), this.wakeups) : null;
    try {
      const fromStore = (ctx: GameContext) => syncFor(ctx, tokenHash, since, this.baseUrl);
      const ask: Ask<SyncBody> = (room) => room.sync(tokenHash, since);
      const first = await this.withRematch(await this.read(gameId, reader, ask, fromStore));
      // Nothing to wait for: new moves, a finished game, or (seat view) the caller must move now.
      if (!waiter || first.moves.length > 0 || first.status === "finished" || first.yourTurn) return first;
      const woken = await waiter.wait(Date.now() + timeoutS * 1000);
      if (!woken) return first;
      return await this.withRematch(await this.read(gameId, reader, ask, fromStore));
    } finally {
      waiter?.cancel();
    }
  }

  /**
   * A finished game's seat view carries its rematch, when the game offers one: who offered it and, once
   * started, the new game's id. Read from the store, where any process may have changed it.
   */
  private async withRematch(body: SyncBody): Promise<SyncBody & { rematch?: RematchView }> {
    if (body.view !== "seat" || body.status !== "finished") return body;
    const record = await this.store.games.getGame(body.gameId);
    return record && !noRematch({ ...record, status: "finished", decidedBy: body.decidedBy ?? record.decidedBy })
      ? { ...body, rematch: rematchView(record) }
      : body;
  }

  /**
   * The game's record, for a caller holding `token` (or none): a private game's only for its seats. `reader`
   * "service": read on behalf of a seat the service placed itself (a bot's stream).
   */
  async record(gameId: string, token?: string, reader: Reader = readerOf(token)): Promise<RecordBody> {
    return this.read<RecordBody>(
      gameId,
      reader,
      (room) => room.record(),
      (ctx) => ({ ok: true, value: gameRecordBody(ctx, this.baseUrl) }),
    );
  }

  /** A finished game's replay, for a caller holding `token` (or none): a private game's only for its seats. */
  async replay(gameId: string, token?: string) {
    const game = await this.readable(gameId, readerOf(token));
    if (game.status !== "finished") throw new AppError("game_not_finished", "the game is still being played; its replay exists once it has finished");
    if (game.sealed) {
      throw new AppError(
        "game_not_finished",
        "the other game of this league deal, dealt from the same seed, is still being played; the replay and review exist once both have finished",
      );
    }
    const replay = replayBody(await this.finishedContext(game), this.baseUrl);
    if (!replay) throw new AppError("not_found", "the game was aborted before it started, so it has no moves to replay");
    return replay;
  }

  /**
   * The review of a finished game, searched on the AI pool once and then served from memory; readable as the
   * replay is (a private game's only by its seats, checked before the cache too).
   */
  async review(gameId: string, token?: string): Promise<Review> {
    if (this.reviews.has(gameId)) await this.readable(gameId, readerOf(token));
    const cached = this.reviews.get(gameId);
    if (cached) return cached;
    const replay = await this.replay(gameId, token);
    const pending = this.reviews.get(gameId) ?? this.ai.review(replay);
    this.reviews.set(gameId, pending);
    if (this.reviews.size > REVIEW_CACHE) this.reviews.delete(this.reviews.keys().next().value as string);
    pending.catch(() => this.reviews.get(gameId) === pending && this.reviews.delete(gameId));
    return pending;
  }

  async list(q: { status?: GameRecord["status"]; limit: number; cursor?: string }) {
    const page = await this.store.games.listGames({ status: q.status, publicOnly: true, limit: q.limit, cursor: q.cursor });
    return { games: page.games.map((g) => this.listed(g)), nextCursor: page.nextCursor };
  }

  /**
   * A player's public games, newest first, paged like the list: the list's public fields plus the seat the
   * player sat in and its result for them (never a token, a code or a hand).
   */
  async playerGames(playerId: string, q: { limit: number; cursor?: string }) {
    await this.players.profile(playerId); // not_found for an unknown id
    const page = await this.store.games.listGames({ playerId, publicOnly: true, limit: q.limit, cursor: q.cursor });
    return {
      player: playerId,
      games: page.games.map((g) => {
        const seat: Seat = g.seats.A?.playerId === playerId ? "A" : "B";
        const result: "win" | "loss" | "draw" | "aborted" | null =
          g.status !== "finished" ? null : g.decidedBy === "aborted" ? "aborted" : g.winner === "draw" ? "draw" : g.winner === seat ? "win" : "loss";
        return { ...this.listed(g), seat, result, decidedBy: g.status === "finished" ? (g.decidedBy ?? null) : null, finishedAt: g.finishedAt ?? null };
      }),
      nextCursor: page.nextCursor,
    };
  }

  /** A game's public listing: names only of seats that are taken (or the house), no codes or tokens. */
  private listed(g: GameRecord) {
    return {
      id: g.id,
      status: g.status,
      ruleset: g.ruleset,
      opponent: g.opponent,
      moveCount: g.moveCount,
      score: g.score,
      players: {
        A: g.seats.A?.tokenHash || g.seats.A?.kind === "house" ? g.seats.A.name : null,
        B: g.seats.B?.tokenHash || g.seats.B?.kind === "house" ? g.seats.B.name : null,
      },
      winner: g.status === "finished" ? g.winner : null,
      createdAt: g.createdAt,
      urls: linksFor(this.baseUrl, g.id),
    };
  }

  /**
   * Events whose condition already holds for a subscription (spec 3.2), read by the service: the
   * subscription's arguments were checked against readableBy when it was made (seatOf).
   */
  async eventsNow(gameId: string, name: EventName, args: Record<string, unknown>) {
    return this.read(
      gameId,
      "service",
      (room) => room.eventsNow(name, args),
      (ctx) => ({
        ok: true,
        value: eventsNow(ctx, name, args, this.baseUrl),
      }),
    );
  }

  /**
   * Finished games are read from the store (their rooms are released); live ones from their room.
   * `fromStore` is the same read model the room method answers with, applied to the stored game; a public
   * read (no seat's token) also uses it when the room's process does not answer in time. Every way in checks
   * `reader` first (readableBy): a game it may not read is not_found, as an unknown one.
   */
  private async read<T>(gameId: string, reader: Reader, ask: Ask<T>, fromStore: (ctx: GameContext) => Outcome<T>): Promise<T> {
    const publicRead = reader === "service" || reader.tokenHash === null;
    const cached = this.finished.get(gameId);
    if (cached) {
      if (!mayRead(cached.record, reader)) throw noSuchGame(gameId);
      return unwrap(fromStore(cached));
    }
    // The hot path: a game whose room is in this process answers without a store read.
    const local = this.rooms.localGame(gameId);
    if (local) {
      if (reader !== "service" && !local.readableBy(reader.tokenHash)) throw noSuchGame(gameId);
      return unwrap(await ask(local));
    }
    const game = await this.store.games.getGame(gameId);
    if (!game || !mayRead(game, reader)) throw noSuchGame(gameId);
    if (game.status === "finished") return unwrap(fromStore(await this.finishedContext(game)));
    // A waiting game changes only by a claim or its abort, each stored before its room shows it: the stored
    // record is what a room would answer, and reading it opens none (a long-poll waits on presence).
    if (game.status === "waiting") return unwrap(fromStore(rebuildContext(game, [])));
    const out = await ask(this.rooms.game(gameId, publicRead ? PUBLIC_READ_TIMEOUT_MS : SEAT_READ_TIMEOUT_MS));
    if (!out.ok && out.code === "unavailable" && publicRead) {
      // Every acknowledged action is in the log, so the store answers what the room would have.
      return unwrap(fromStore(rebuildContext(game, await this.store.games.listActions(gameId))));
    }
    return unwrap(out);
  }

  private async finishedContext(game: GameRecord): Promise<GameContext> {
    const hit = this.finished.get(game.id);
    if (hit) return hit;
    const ctx = rebuildContext(game, await this.store.games.listActions(game.id));
    // A sealed game changes once more (unseal, possibly in another process): it is read from the store until then.
    if (game.sealed) return ctx;
    if (this.finished.size >= 500) this.finished.delete(this.finished.keys().next().value!);
    this.finished.set(game.id, ctx);
    return ctx;
  }
}

/** readableBy for a Reader: the service reads every game. */
const mayRead = (game: GameRecord, reader: Reader): boolean => reader === "service" || readableBy(game, reader.tokenHash);
