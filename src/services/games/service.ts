/**
 * The games application service: what REST and MCP ask of games, translated into store reads and room
 * calls. It holds no game state of its own; live games are answered by their rooms, finished games from
 * the store.
 */
import type { Presence } from "@colyseus/core";
import type { AiPool } from "../ai/pool";
import type { Review } from "../ai/review";
import { commitmentOf, CURRENT_RULES_VERSION, versionForSeed, type Seat, otherSeat } from "../../engine";
import { DEFAULTS } from "../../shared/config";
import { AppError, fail, unwrap, type ErrorCode, type Outcome } from "../../shared/errors";
import type { GameOwner } from "../cluster";
import type { Metrics } from "../metrics";
import type { PlayerService } from "../players/service";
import type { GameRecord, GamesPort, LogPort, SeatRecord } from "../../store/port";
import { rebuildContext, startEngine, type GameContext } from "./context";
import { eventsNow, type EventName } from "./game-events";
import { keptMoveIn } from "./kept-move";
import { noSuchGame, readableBy, seatForClaim, seatKindOf, seatOfToken } from "./record";
import { changeChannel } from "./ports";
import type { RoomAccess, SeatReservation } from "./room-access";
import type { GameRoomApi, RoomProxy } from "./room-api";
import type { CreateGameBody, JoinGameBody, MoveBody } from "./schemas";
import { newGameId, newInviteCode, newPlayerToken, newSalt, newSeed, sha256Hex } from "../../shared/secrets";
import { gameRecordBody, linksFor, replayBody, syncFor, type MoveAnswer, type RecordBody, type SyncBody } from "./views";
import { subscribeOnce, Wakeups } from "./waiter";
import { TakenIdError } from "../../store/duplicate";
import { traced } from "../../shared/tracing";
import { noRematch, Rematches, rematchView, type RematchView } from "./rematch";
import type { SeatClaim } from "./seats";

/** One question to a game's room, asked the same way of a local room and of a remote one's proxy. */
type Ask<T> = (room: GameRoomApi | RoomProxy<GameRoomApi>) => Outcome<T> | Promise<Outcome<T>>;

/** Reviews kept in memory: a finished game never changes, so its review is computed once. */
const REVIEW_CACHE = 256;

/**
 * How long a read waits for a room in another process before it is answered from the store (public
 * reads) or refused as `unavailable` with Retry-After (a seat's sync): the process may be dead, and its
 * games are being moved. Moves wait longer, since a live room stores the move before it answers.
 */
const PUBLIC_READ_TIMEOUT_MS = 700;
const SEAT_READ_TIMEOUT_MS = 2000;
const MOVE_TIMEOUT_MS = 3000;

/**
 * The refusals of a move that may hide the same move, already kept, whose answer was lost: on these only is it
 * looked for (keptMove: the live room, or the store). `unavailable`: the room's process died, or stalled,
 * between storing the move and answering. The others answer a retry (a client whose connection dropped before
 * the answer, or one retrying across a restart) that reaches a live room after the move was applied:
 * `not_your_turn`, the opponent's turn now; `illegal_move`, the card no longer in the hand (the seat's turn
 * again); `game_over`, the move ended the game. Any other refusal (a wrong token, a malformed move) cannot
 * hide a kept move.
 */
const MAY_HIDE_KEPT_MOVE: ReadonlySet<ErrorCode> = new Set<ErrorCode>(["unavailable", "not_your_turn", "illegal_move", "game_over"]);

/**
 * Who reads a game (readableBy): a caller, by the sha256 of the player token it sent (null: none), or the
 * service itself, on behalf of a caller it has checked already (a subscription's arguments: SubscriptionService).
 */
export type Reader = { tokenHash: string | null } | "service";

const readerOf = (token: string | undefined): Reader => ({ tokenHash: token ? sha256Hex(token) : null });

/** Rooms a tournament round opens at once: enough to share fsyncs, few enough not to flood the matchmaker. */
const ROOMS_OPENED_AT_ONCE = 32;

/** One game of a tournament round: its committed id and its two seats, `first` moving first. */
export interface TournamentPairing {
  id: string;
  first: SeatClaim;
  second: SeatClaim;
}

/** Runs `task` on every item, at most `limit` at a time; resolves with the first error, after every task ran. */
async function eachLimited<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<Error | undefined> {
  let next = 0;
  let failure: Error | undefined;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      await task(item).catch((e: unknown) => (failure ??= e instanceof Error ? e : new Error("a task failed", { cause: e })));
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return failure;
}

export class GameService {
  private finished = new Map<string, GameContext>();
  private reviews = new Map<string, Promise<Review>>();
  /** Long-poll wake-ups of this process, a few per turn of the event loop (waiter.ts). */
  private readonly wakeups = new Wakeups();
  /** Rematches of finished games, shared with their rooms (RoomDeps.rematches). */
  readonly rematches: Rematches;

  constructor(
    private readonly store: { games: Omit<GamesPort, "commitGames">; log: Pick<LogPort, "addLogPending"> },
    private readonly rooms: RoomAccess,
    private readonly players: PlayerService,
    private readonly presence: Presence,
    private readonly baseUrl: string,
    private readonly ai: Pick<AiPool, "review">,
    private readonly metrics?: Metrics,
    /** Stores a game whose room opens at once already claimed by this process (src/services/cluster/ownership.ts). */
    private readonly owner?: GameOwner,
  ) {
    this.rematches = new Rematches({
      store: store.games,
      createMatched: (ruleset, seats, fixed) => this.createMatched(ruleset, seats, fixed),
      reserveSeat: (gameId, token) => rooms.reserveSeat(gameId, token),
      presence,
    });
  }

  // ---- creating and joining --------------------------------------------------------------------

  /** A new game; `fixed` holds facts set at creation (the agent challenge it plays), never written later. */
  async create(body: CreateGameBody, fixed: Pick<GameRecord, "challengeToken" | "challengedBot"> = {}) {
    const at = new Date().toISOString();
    const record = newRecord(
      {
        ruleset: body.ruleset,
        opponent: body.opponent,
        level: body.opponent === "house" ? body.level : undefined,
        public: body.public,
        turnSeconds: body.turnSeconds,
      },
      at,
    );
    if (fixed.challengeToken) record.challengeToken = fixed.challengeToken;
    if (fixed.challengedBot) record.challengedBot = fixed.challengedBot;
    const links = linksFor(this.baseUrl, record.id);
    if (body.opponent === "hosted") {
      if (body.reserveSeat)
        throw new AppError("bad_request", "a hosted game has no seat of its creator to reserve: reserveSeat is for house and friend games, and for joining");
      const codes = { A: newInviteCode(), B: newInviteCode() };
      record.seats = { A: openSeat(codes.A), B: openSeat(codes.B) };
      await this.open(record);
      const invite = (code: string) => ({ code, inviteUrl: `${this.baseUrl}/join/${code}` });
      return { game: this.waitingBody(record), seats: { A: invite(codes.A), B: invite(codes.B) }, urls: { watch: links.watch } };
    }
    const seat: Seat = body.seat === "random" ? (Math.random() < 0.5 ? "A" : "B") : body.seat;
    const other: Seat = otherSeat(seat);
    const token = newPlayerToken();
    const house = body.opponent === "house";
    const code = house ? "" : newInviteCode();
    record.seats[other] = house ? { playerId: "house", name: `House (${body.level})`, kind: "house" } : openSeat(code);
    // A new guest profile for the creator is stored with the game, in one durable write.
    const resolved = await this.players.resolveWith(body.player, body.name, async (guest, player) => {
      record.seats[seat] = { playerId: player.id, name: player.name, kind: seatKindOf(player), tokenHash: sha256Hex(token), champion: body.champion };
      if (house) this.start(record, at);
      // Its room opens in this request (a house game's at once, a friend game's for the seat reservation).
      if (house || body.reserveSeat) this.owner?.own(record);
      await this.store.games.createGame(record, guest ? [guest] : []);
      this.counted(record);
    });
    const publicPlayer = this.players.introduce(resolved);
    if (house) {
      await this.rooms.openStored(record.id);
      return {
        game: await this.record(record.id, token),
        seat,
        playerToken: token,
        player: publicPlayer,
        ...(await this.reservation(body, record.id, token)),
        urls: { play: links.play, watch: links.watch },
      };
    }
    return {
      game: this.waitingBody(record),
      seat,
      playerToken: token,
      player: publicPlayer,
      ...(await this.reservation(body, record.id, token)),
      code,
      inviteUrl: `${this.baseUrl}/join/${code}`,
    };
  }

  /**
   * A game between two known seats, active at once: quick-match pairs, and (with `fixed`) an agent
   * challenge whose hosted opponent is the agent's own bot, or a rematch under the id it stored first (a
   * duplicate key when that game exists already).
   */
  async createMatched(
    ruleset: GameRecord["ruleset"],
    seats: Record<Seat, SeatClaim>,
    fixed: Pick<GameRecord, "challengeToken"> & { opponent?: GameRecord["opponent"]; id?: string; public?: boolean } = {},
  ): Promise<string> {
    const at = new Date().toISOString();
    // Public unless `fixed` says otherwise: a rematch keeps its game's privacy.
    const record = newRecord({ ruleset, opponent: fixed.opponent ?? "quick", public: fixed.public ?? true, turnSeconds: DEFAULTS.turnSeconds }, at);
    if (fixed.id) record.id = fixed.id;
    if (fixed.challengeToken) record.challengeToken = fixed.challengeToken;
    record.seats = { A: { ...seats.A }, B: { ...seats.B } };
    this.start(record, at);
    await this.open(record);
    return record.id;
  }

  /**
   * A tournament game, stored with the id the tournament committed first (so a retried pairing creates it at
   * most once) and active at once. `first` takes whichever seat the seed makes the first mover: that seat is
   * answered. Its turn clock (TOURNAMENT_TURN_SECONDS) forfeits a seat that does not move, from the first move on.
   */
  async createForTournament(
    id: string,
    tournamentId: string,
    ruleset: GameRecord["ruleset"],
    first: SeatClaim,
    second: SeatClaim,
    turnSeconds: number = DEFAULTS.turnSeconds,
  ): Promise<Seat> {
    const existing = await this.store.games.getGame(id);
    if (existing) {
      // Stored by a process that died before its room opened (or whose room creation failed): open it here, so
      // its clock runs without waiting for a seat to ask. Never throws.
      if (existing.status !== "finished") await this.rooms.openForJoin(id);
      return existing.firstPlayer ?? "A";
    }
    const record = this.tournamentGame({ id, first, second }, tournamentId, ruleset, turnSeconds, new Date().toISOString());
    await this.open(record);
    return record.firstPlayer!;
  }

  /**
   * A tournament round's games at once (createForTournament for each): those not stored yet are stored in one
   * write (store.createGames), then every unfinished game's room is opened, several at a time, so a round of
   * 500 games costs one commit, and its rooms' claims share their fsyncs. Idempotent; answers each game's first
   * mover's seat, and the first error of a room that would not open (after the others opened): its game is
   * stored, so its room opens at a seat's first request or the next reconciliation.
   */
  async createForTournamentRound(
    tournamentId: string,
    ruleset: GameRecord["ruleset"],
    games: TournamentPairing[],
    turnSeconds: number = DEFAULTS.turnSeconds,
  ): Promise<{ firstSeats: Map<string, Seat>; unopened?: Error }> {
    const at = new Date().toISOString();
    const firstSeats = new Map<string, Seat>();
    const fresh: GameRecord[] = [];
    const reopen: string[] = [];
    for (const g of games) {
      const existing = await this.store.games.getGame(g.id);
      if (existing) {
        firstSeats.set(g.id, existing.firstPlayer ?? "A");
        if (existing.status !== "finished") reopen.push(g.id);
        continue;
      }
      const record = this.tournamentGame(g, tournamentId, ruleset, turnSeconds, at);
      firstSeats.set(g.id, record.firstPlayer!);
      fresh.push(record);
    }
    try {
      await this.store.games.createGames(fresh);
      fresh.forEach((record) => this.counted(record));
    } catch {
      // Another process stored some of them meanwhile (all or none was written here): one at a time, skipping
      // those, whose seats are then the stored ones.
      for (const record of fresh) {
        const stored = await this.store.games.getGame(record.id);
        if (stored) firstSeats.set(record.id, stored.firstPlayer ?? "A");
        else {
          await this.store.games.createGame(record);
          this.counted(record);
        }
      }
    }
    const ids = new Set(fresh.map((r) => r.id));
    const unopened = await eachLimited([...ids, ...reopen], ROOMS_OPENED_AT_ONCE, (id) =>
      ids.has(id) ? this.rooms.openStored(id) : this.rooms.openForJoin(id),
    );
    return unopened ? { firstSeats, unopened } : { firstSeats };
  }

  /** A tournament game's record, started: `first` takes whichever seat the seed makes the first mover. */
  private tournamentGame(g: TournamentPairing, tournamentId: string, ruleset: GameRecord["ruleset"], turnSeconds: number, at: string): GameRecord {
    const record = { ...newRecord({ ruleset, opponent: "friend", public: true, turnSeconds }, at), id: g.id, tournamentId };
    this.start(record, at);
    const firstSeat = record.firstPlayer!;
    const secondSeat: Seat = otherSeat(firstSeat);
    record.seats = { [firstSeat]: { ...g.first }, [secondSeat]: { ...g.second } };
    return record;
  }

  /**
   * A league game (src/services/leagues): like a tournament game, but dealt from the seed the league drew for its deal,
   * so the deal's two games (each entrant moving first in one) deal the same cards. Each game still draws its
   * own salt and publishes its own commitment at creation. It is stored sealed: its seed (the other game's too)
   * is revealed only once both games of the deal have finished, when the league unseals them (`unseal`). Only
   * leagues name a seed: every other game draws its own. Answers the seat of `first` when it created the game,
   * null when the game existed already.
   */
  async createForLeague(
    id: string,
    league: { leagueId: string; ruleset: GameRecord["ruleset"]; turnSeconds: number; seed: GameRecord["seed"] },
    first: SeatClaim,
    second: SeatClaim,
  ): Promise<Seat | null> {
    if (await this.store.games.getGame(id)) return null;
    const at = new Date().toISOString();
    const record = {
      ...newRecord({ ruleset: league.ruleset, opponent: "friend", public: true, turnSeconds: league.turnSeconds }, at, league.seed),
      id,
      leagueId: league.leagueId,
      sealed: true,
    };
    this.start(record, at);
    const firstSeat = record.firstPlayer!;
    const secondSeat: Seat = otherSeat(firstSeat);
    record.seats = { [firstSeat]: { ...first }, [secondSeat]: { ...second } };
    await this.open(record);
    return firstSeat;
  }

  async join(body: JoinGameBody) {
    const game = await this.store.games.findGameByCode(body.code.toUpperCase());
    if (!game) throw new AppError("not_found", "no game has this invite code");
    // A refusal the stored game already gives (its seat taken, the game over) needs no room: a game aborted a
    // moment ago on another process is answered at once, while its room may still be closing there.
    unwrap(seatForClaim(game, body.code.toUpperCase()));
    const token = newPlayerToken();
    let claimed: { seat: Seat; status: string } | undefined;
    // A new guest profile for the joining player is stored with its seat's claim, in one durable write.
    const resolved = await this.players.resolveWith(body.player, body.name, async (guest, player) => {
      const claim = { playerId: player.id, name: player.name, kind: seatKindOf(player), tokenHash: sha256Hex(token), champion: body.champion };
      const outcome = await this.rooms.game(game.id).claimSeat(body.code.toUpperCase(), claim, guest ?? undefined);
      // "conflict" is the one refusal of a claim that names its guest's id as taken (nothing was stored).
      if (guest && !outcome.ok && outcome.code === "conflict") throw new TakenIdError(guest.id);
      claimed = unwrap(outcome);
    });
    if (!claimed) throw new Error("a seat claim answered nothing");
    return {
      game: await this.record(game.id, token),
      seat: claimed.seat,
      playerToken: token,
      player: this.players.introduce(resolved),
      ...(await this.reservation(body, game.id, token)),
    };
  }

  /**
   * Declines a bot challenge by its invite code, for the challenged bot only: the waiting game is aborted
   * (unrated, as when nobody joins in time). Answers the challenger's bot id, whose stream is told.
   */
  async declineChallenge(code: string, botId: string): Promise<{ gameId: string; challenger: string | null }> {
    const upper = code.toUpperCase();
    const game = await this.store.games.findGameByCode(upper);
    if (!game?.challengedBot) throw new AppError("not_found", "no bot challenge has this invite code");
    if (game.challengedBot !== botId) throw new AppError("forbidden", "only the challenged bot may decline this challenge");
    unwrap(await this.rooms.game(game.id).declineInvite(upper));
    const host = (["A", "B"] as const).map((s) => game.seats[s]).find((s) => s?.tokenHash && s.code !== upper);
    return { gameId: game.id, challenger: host?.playerId ?? null };
  }

  /**
   * Aborts every game not yet played that a revoked bot sits in or is challenged to, wherever its room lives:
   * a waiting one, or a started one before both seats moved (unrated, a league's void). A game both seats have
   * moved in goes on. One failing room does not keep the others from being asked; its error is thrown after.
   */
  async withdrawPlayer(playerId: string): Promise<string[]> {
    const mine = (await this.store.games.listUnfinishedGames()).filter(
      (g) => g.seats.A?.playerId === playerId || g.seats.B?.playerId === playerId || g.challengedBot === playerId,
    );
    const aborted: string[] = [];
    const failed = await eachLimited(mine, 4, async (g) => {
      if (unwrap(await this.rooms.game(g.id).withdraw(playerId)).aborted) aborted.push(g.id);
    });
    if (failed) throw failed;
    return aborted;
  }

  /**
   * What an invite code opens, without claiming it, so the invite page can say "already used" before it asks
   * for a name: open, used (its seat is taken) or closed (the game no longer waits), with public facts only.
   */
  async invite(code: string) {
    const upper = code.toUpperCase();
    const game = await this.store.games.findGameByCode(upper);
    const seat = game && (["A", "B"] as const).find((s) => game.seats[s]?.code === upper);
    if (!game || !seat) throw new AppError("not_found", "no game has this invite code");
    const status = game.seats[seat]!.tokenHash ? "used" : game.status !== "waiting" ? "closed" : "open";
    const host = game.seats[otherSeat(seat)];
    return { code: upper, status, game: { id: game.id, ruleset: game.ruleset, host: host?.tokenHash ? host.name : null } } as const;
  }

  /** The new seat's WebSocket seat reservation, when the request asked for it. */
  private async reservation(body: { reserveSeat: boolean }, gameId: string, token: string): Promise<{ seatReservation?: SeatReservation }> {
    return body.reserveSeat ? { seatReservation: await this.rooms.reserveSeat(gameId, token) } : {};
  }

  /** Makes a new record a started game; it is counted (`counted`) once it is stored. */
  private start(record: GameRecord, at: string) {
    record.status = "active";
    record.startedAt = at;
    record.firstPlayer = startEngine(record).firstPlayer;
  }

  /**
   * Stores a new game and, once it has started, opens its room. A waiting game (friend or hosted, nobody
   * joined yet) has no room: the store answers for it (`read`), and its room is opened by whatever needs
   * one, a claim, a seat reservation or a WebSocket watcher (RoomAccess). Abandoned invitations then cost
   * a row each, not a live room, and a restart has no room to re-create for them. (`create` does the same
   * inline, with its creator's new guest profile in the game's write.)
   */
  private async open(record: GameRecord) {
    if (record.status !== "waiting") this.owner?.own(record);
    await this.store.games.createGame(record);
    this.counted(record);
    if (record.status !== "waiting") await this.rooms.openStored(record.id);
  }

  /**
   * Counts a started game once its record is stored: only the write that created it counts it, so requests
   * racing to create the same game (two acceptances of a rematch, a tournament pairing retried) count it once,
   * the others' writes being refused as duplicates.
   */
  private counted(record: GameRecord) {
    if (record.status === "active") this.metrics?.gamesStarted.inc({ opponent: record.opponent });
  }

  /** A waiting game's record body, as its room would answer it (a fresh game: nothing to read back). */
  private waitingBody(record: GameRecord): RecordBody {
    return gameRecordBody(rebuildContext(record, []), this.baseUrl);
  }

  // ---- playing ---------------------------------------------------------------------------------

  async move(gameId: string, token: string, body: MoveBody): Promise<MoveAnswer> {
    const tokenHash = sha256Hex(token);
    return traced("games.move", { "game.id": gameId }, async (): Promise<MoveAnswer> => {
      const out = await this.live(gameId, (room) => room.move(tokenHash, body));
      // A success is answered as is, without a store read; a refusal that may be a retry of a kept move is
      // answered as that move when the store has it.
      if (!out.ok && MAY_HIDE_KEPT_MOVE.has(out.code)) return (await this.keptMove(gameId, tokenHash, body, out.code === "unavailable")) ?? unwrap(out);
      return unwrap(out);
    });
  }

  /**
   * The answer to a move already kept, when its first answer was lost: its room stopped answering while it
   * was under way (the room stores a move before it answers, so a process that dies between the two leaves a
   * kept move without its answer), or the client sent it again (MAY_HIDE_KEPT_MOVE). The answer is the kept
   * move and the seat's view now, as the room answers a move (src/services/games/kept-move.ts). A room in this process
   * answers it from its own moves; otherwise the game is rebuilt from the store. After an `unavailable`
   * refusal the room here may have just lost the game to another process, which may have kept the move: then
   * the store is read when the room here does not hold it. Null when it is not (yet) there, or is another
   * square's, another seat's, or says other captures than it made.
   */
  private async keptMove(gameId: string, tokenHash: string, body: MoveBody, mayHaveMoved: boolean): Promise<MoveAnswer | null> {
    try {
      const local = this.rooms.localGame(gameId);
      if (local) {
        const kept = await local.keptMove(tokenHash, body);
        if (kept || !mayHaveMoved) return kept;
      }
      const game = await this.store.games.getGame(gameId);
      if (!game || !seatOfToken(game, tokenHash)) return null;
      return keptMoveIn(rebuildContext(game, await this.store.games.listActions(gameId)), tokenHash, body);
    } catch {
      // The store (or the room) failing too: the refusal already in hand is the answer.
      return null;
    }
  }

  async resign(gameId: string, token: string) {
    const tokenHash = sha256Hex(token);
    return unwrap(await this.live(gameId, (room) => room.resign(tokenHash)));
  }

  /**
   * A seat offers a rematch of its finished game, or accepts the other seat's offer; once started, the answer
   * carries this seat's new game id, seat and token: the seat's own, which plays the rematch (src/services/games/rematch.ts).
   */
  async rematch(gameId: string, token: string) {
    const out = unwrap(await this.rematches.offer(gameId, sha256Hex(token)));
    const { started, ...view } = out;
    return {
      rematch: view,
      ...(started ? { game: { id: started.gameId, seat: started.seat, playerToken: token, urls: linksFor(this.baseUrl, started.gameId) } } : {}),
    };
  }

  /** A seat declines the offered rematch (or takes back its own offer). */
  async declineRematch(gameId: string, token: string) {
    return { rematch: unwrap(await this.rematches.decline(gameId, sha256Hex(token))) };
  }

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

  // ---- reading ---------------------------------------------------------------------------------

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

  private async live<T>(gameId: string, ask: Ask<T>): Promise<Outcome<T>> {
    const local = this.rooms.localGame(gameId);
    if (local) return ask(local);
    const game = await this.store.games.getGame(gameId);
    if (!game) throw noSuchGame(gameId);
    // A refusal, not a throw: a move refused so may be the game's last, retried (MAY_HIDE_KEPT_MOVE).
    if (game.status === "finished") return fail("game_over", "the game has finished");
    return ask(this.rooms.game(gameId, MOVE_TIMEOUT_MS));
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

const openSeat = (code: string): SeatRecord => ({ playerId: "", name: "", kind: "human", code });

/**
 * A new game waiting for its seats, with a fresh salt, a fresh seed (or a league deal's) and the seed's published
 * commitment. It is played under the current rules, or, dealt from an integer seed a league drew before rules
 * version 4, under the newest version with integer seeds.
 */
function newRecord(
  fields: Pick<GameRecord, "ruleset" | "opponent" | "level" | "public" | "turnSeconds">,
  at: string,
  seed: GameRecord["seed"] = newSeed(),
): GameRecord {
  const salt = newSalt();
  return {
    id: newGameId(),
    ...fields,
    rulesVersion: versionForSeed(seed, CURRENT_RULES_VERSION),
    seed,
    salt,
    commitment: commitmentOf(seed, salt),
    status: "waiting",
    seats: {},
    moveCount: 0,
    score: { A: 0, B: 0 },
    winner: null,
    createdAt: at,
    updatedAt: at,
  };
}
