/**
 * Creating and joining games: every kind of new game (a REST or MCP creation, a quick-match pair, a
 * tournament's, a league's, an agent challenge's, a rematch), a seat claimed by its invite code, a bot
 * challenge declined and a revoked bot's games withdrawn. A new game is stored, and its room opened when it
 * has started; what its creator or joiner is answered is read back as any read of the game (GameReads.record).
 */
import { commitmentOf, CURRENT_RULES_VERSION, versionForSeed, type Seat, otherSeat } from "../../engine";
import { DEFAULTS } from "../../shared/config";
import { AppError, unwrap } from "../../shared/errors";
import type { GameOwner } from "../cluster";
import type { Metrics } from "../metrics";
import type { PlayerService } from "../players/service";
import type { GameRecord, GamesPort, SeatRecord } from "../../store/port";
import { rebuildContext, startEngine } from "./context";
import { seatForClaim, seatKindOf } from "./record";
import type { RoomAccess, SeatReservation } from "./room-access";
import type { CreateGameBody, JoinGameBody } from "./schemas";
import { newGameId, newInviteCode, newPlayerToken, newSalt, newSeed, sha256Hex } from "../../shared/secrets";
import { gameRecordBody, linksFor, type RecordBody } from "./views";
import { TakenIdError } from "../../store/duplicate";
import type { SeatClaim } from "./seats";
import type { GameReads } from "./reads";

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

export class GameCreation {
  constructor(
    private readonly store: Pick<GamesPort, "getGame" | "createGame" | "createGames" | "findGameByCode" | "listUnfinishedGames">,
    private readonly rooms: RoomAccess,
    private readonly players: Pick<PlayerService, "resolveWith" | "introduce">,
    /** Reads a created or joined game back for its answer, as any read of it is answered. */
    private readonly reads: Pick<GameReads, "record">,
    private readonly baseUrl: string,
    private readonly metrics?: Metrics,
    /** Stores a game whose room opens at once already claimed by this process (src/services/cluster/ownership.ts). */
    private readonly owner?: GameOwner,
  ) {}

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
      await this.store.createGame(record, guest ? [guest] : []);
      this.counted(record);
    });
    const publicPlayer = this.players.introduce(resolved);
    if (house) {
      await this.rooms.openStored(record.id);
      return {
        game: await this.reads.record(record.id, token),
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
    const existing = await this.store.getGame(id);
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
      const existing = await this.store.getGame(g.id);
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
      await this.store.createGames(fresh);
      fresh.forEach((record) => this.counted(record));
    } catch {
      // Another process stored some of them meanwhile (all or none was written here): one at a time, skipping
      // those, whose seats are then the stored ones.
      for (const record of fresh) {
        const stored = await this.store.getGame(record.id);
        if (stored) firstSeats.set(record.id, stored.firstPlayer ?? "A");
        else {
          await this.store.createGame(record);
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
    if (await this.store.getGame(id)) return null;
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
    const game = await this.store.findGameByCode(body.code.toUpperCase());
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
      game: await this.reads.record(game.id, token),
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
    const game = await this.store.findGameByCode(upper);
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
    const mine = (await this.store.listUnfinishedGames()).filter(
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
    const game = await this.store.findGameByCode(upper);
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
    await this.store.createGame(record);
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
}

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
