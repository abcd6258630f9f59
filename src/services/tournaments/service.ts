/**
 * The tournaments application service: swiss tournaments kept as one stored document each and changed only
 * by compare-and-set on its version, so that whichever process reports a result or pairs a round, a round is
 * paired once and a result counted once. A round's game ids are committed with its pairing before the games
 * are created, and creating them is idempotent, so a crash between the two loses nothing.
 */
import { randomBytes } from "node:crypto";
import { DEFAULTS } from "../../shared/config";
import { AppError } from "../../shared/errors";
import type { GameCreation } from "../games/creation";
import { isBotId, newGameId, newPlayerToken, sameHash, sha256Hex } from "../../shared/secrets";
import type { PlayerService } from "../players/service";
import type { GameRecord, GamesPort, PlayerSeatKind, TournamentEntrant, TournamentRecord, TournamentsPort } from "../../store/port";
import { pairRound, standings, type SwissPlayer, type SwissRound } from "./swiss";
import { exportTrf } from "./trf";
import { countAbsence, noShowOf } from "./absence";
import { ArenaService, arenaStandingRows } from "./arena-service";
import type { CreateTournamentBody, JoinTournamentBody } from "./schemas";
import type { EmittedEvent } from "../events";
import type { EventData } from "../events/catalog";
import type { Seat } from "../../engine";
import { otherSeat } from "../../engine";

/** Compare-and-set attempts before a write is reported as a conflict; each loser re-reads and re-applies. */
const MAX_ATTEMPTS = 20;
/** Tournaments read (the newest) to find those a revoked bot entered. */
export const WITHDRAW_SCANNED = 500;

export const newTournamentId = (): string => `t_${randomBytes(9).toString("base64url")}`;

export class TournamentService {
  constructor(
    private readonly store: { tournaments: TournamentsPort; games: Pick<GamesPort, "getGame"> },
    private readonly gameService: Pick<GameCreation, "createForTournamentRound" | "createForTournament">,
    private readonly players: Pick<PlayerService, "resolve">,
    private readonly baseUrl: string,
    private readonly emit: (e: EmittedEvent) => void = () => {},
    /** Told after every stored change, so the tournament's room (in any process) shows it. */
    private readonly changed: (id: string) => void = () => {},
    private readonly maxEntrants: number = DEFAULTS.tournamentMaxEntrants,
    /** Turn clock of the tournament's games (TOURNAMENT_TURN_SECONDS). */
    private readonly turnSeconds: number = DEFAULTS.turnSeconds,
  ) {}

  /** Arena tournaments (arena-service.ts); each public method below hands an arena to it. */
  private arenaService?: ArenaService;
  private get arena(): ArenaService {
    return (this.arenaService ??= new ArenaService({
      store: this.store,
      gameService: this.gameService,
      players: this.players,
      baseUrl: this.baseUrl,
      emit: this.emit,
      change: (id, edit) => this.change(id, edit),
      capOf: (t) => this.capOf(t),
      turnSeconds: this.turnSeconds,
    }));
  }

  /** A tournament's format never changes: known ones are not read again (an arena's document is read whole). */
  private readonly formats = new Map<string, TournamentRecord["format"]>();
  private async isArena(id: string): Promise<boolean> {
    let format = this.formats.get(id);
    if (!format) {
      format = (await this.get(id)).format;
      if (this.formats.size >= 10_000) this.formats.clear();
      this.formats.set(id, format);
    }
    return format === "arena";
  }

  /** Stops the arenas' end timers of this process (their ends are still driven by `endsAt` after a restart). */
  stop(): void {
    this.arenaService?.stop();
  }

  async create(body: CreateTournamentBody) {
    if (body.maxEntrants !== undefined && body.maxEntrants > this.maxEntrants) {
      throw new AppError("bad_request", `maxEntrants is at most ${this.maxEntrants} on this server (TOURNAMENT_MAX_ENTRANTS)`);
    }
    const at = new Date().toISOString();
    const directorToken = newPlayerToken();
    if (body.format === "arena") {
      const t = this.arena.newRecord(body, { id: newTournamentId(), createdAt: at, updatedAt: at, directorTokenHash: sha256Hex(directorToken) });
      await this.store.tournaments.createTournament(t);
      return { tournament: this.view(t), directorToken };
    }
    const t: TournamentRecord = {
      id: newTournamentId(),
      name: body.name,
      format: "swiss",
      rounds: body.rounds,
      ruleset: body.ruleset,
      status: "open",
      createdAt: at,
      updatedAt: at,
      version: 1,
      entrants: [],
      played: [],
      directorTokenHash: sha256Hex(directorToken),
      ...(body.maxEntrants !== undefined ? { maxEntrants: body.maxEntrants } : {}),
    };
    await this.store.tournaments.createTournament(t);
    return { tournament: this.view(t), directorToken };
  }

  async list(limit: number) {
    return { tournaments: (await this.store.tournaments.listTournaments(limit)).map((t) => this.view(t)) };
  }

  async read(id: string) {
    return this.view(await this.get(id));
  }

  /** Enters a player (a guest by name, or a profile by id and secret); the token answered is their seat token. */
  async join(id: string, body: JoinTournamentBody) {
    if (await this.isArena(id)) {
      const { t, playerId, playerToken } = await this.arena.join(id, body);
      return { tournament: this.view(t), playerId, playerToken };
    }
    const { player } = await this.players.resolve(body.player, body.name);
    const token = newPlayerToken();
    const t = await this.change(id, (t) => {
      if (t.status !== "open") throw new AppError("conflict", "the tournament has started: entries are closed");
      const cap = this.capOf(t);
      if (t.entrants.length >= cap) throw new AppError("conflict", `the tournament is full (${cap} entrants)`);
      if (t.entrants.some((e) => e.playerId === player.id)) throw new AppError("already_joined", "this player has already entered");
      t.entrants.push({
        playerId: player.id,
        name: player.name,
        ...(player.kind ? { kind: player.kind } : {}),
        rating: Math.round(player.rating),
        tokenHash: sha256Hex(token),
      });
    });
    return { tournament: this.view(t), playerId: player.id, playerToken: token };
  }

  /** Withdraws the token's entrant: their results stay, they are paired no more. */
  async withdraw(id: string, token: string) {
    if (await this.isArena(id)) return this.view(await this.arena.withdraw(id, token));
    return this.view(await this.withdrawWhere(id, (t) => this.entrantOf(t, token)));
  }

  /**
   * Withdraws a player (a bot whose key was revoked) from every tournament among the newest WITHDRAW_SCANNED it
   * entered and that has not finished, through the same withdraw as its token's: results stay, paired no more.
   * Answers the ids of the tournaments changed.
   */
  async withdrawPlayer(playerId: string): Promise<string[]> {
    const entered = (await this.store.tournaments.listTournaments(WITHDRAW_SCANNED)).filter(
      (t) => t.status !== "finished" && t.entrants.some((e) => e.playerId === playerId && !e.withdrawn),
    );
    const find = (t: TournamentRecord) => {
      const e = t.entrants.find((x) => x.playerId === playerId);
      if (!e) throw new AppError("not_found", "not an entrant of this tournament");
      return e;
    };
    for (const t of entered) {
      if (await this.isArena(t.id)) await this.arena.withdrawWhere(t.id, find);
      else await this.withdrawWhere(t.id, find);
    }
    return entered.map((t) => t.id);
  }

  private withdrawWhere(id: string, find: (t: TournamentRecord) => TournamentRecord["entrants"][number]): Promise<TournamentRecord> {
    return this.change(id, (t) => {
      const e = find(t);
      if (t.status === "finished") throw new AppError("conflict", "the tournament has finished");
      e.withdrawn = true;
    });
  }

  /** Closes entries and pairs round 1 (the director token only). */
  async start(id: string, token: string) {
    if (await this.isArena(id)) return this.view(await this.arena.start(id, token));
    const t = await this.change(id, (t) => {
      if (!sameHash(t.directorTokenHash, sha256Hex(token))) throw new AppError("forbidden", "only the tournament's director token may start it");
      if (t.status !== "open") throw new AppError("conflict", "the tournament has already started");
      if (t.entrants.length < 2) throw new AppError("conflict", "a tournament needs at least 2 entrants to start");
      t.status = "running";
      this.pairNext(t);
    });
    // A room that did not open is opened at its seats' first request (or the next reconciliation): the start stands.
    const { firstSeats } = await this.createGames(t);
    this.emitEvent(
      "tournament.started",
      { tournament_id: t.id },
      {
        tournament_id: t.id,
        rounds: t.rounds,
        entrants: t.entrants.length,
        url: `${this.baseUrl}/api/v1/tournaments/${t.id}`,
      },
    );
    this.announce(t, firstSeats);
    return this.view(t);
  }

  /** Counts a finished game of a tournament once, then pairs the next round when this one is complete. */
  async onGameFinished(game: GameRecord): Promise<void> {
    if (!game.tournamentId) return;
    if (await this.isArena(game.tournamentId)) return this.arena.onGameFinished(game);
    let next: "paired" | "finished" | null = null;
    const t = await this.change(game.tournamentId, (t) => {
      next = null;
      const g = t.played.flatMap((r) => r.games).find((x) => x.gameId === game.id);
      if (!g || g.outcome) return false;
      const firstSeat = game.firstPlayer;
      // An aborted game (no winner) counts as a draw: both seats were present, neither won.
      g.outcome = game.winner === null || game.winner === "draw" ? "draw" : game.winner === firstSeat ? "first" : "second";
      countAbsence(t.entrants, g, noShowOf(game, g));
      if (t.played.at(-1)!.games.every((x) => x.outcome)) next = this.pairNext(t);
    });
    const { firstSeats, unopened } = await this.createGames(t);
    // The pairing is told even when a room did not open (its game is stored); the hook then reports the failure.
    if (next) this.announce(t, firstSeats);
    if (unopened) throw unopened;
  }

  /**
   * Counts what a crash may have left uncounted in a running tournament: a finished game of the current round
   * whose finish hook never ran (the process died after storing the game), and games of a stored pairing that
   * were never created. Idempotent; run at start-up, when the tournament's room opens and after a take-over.
   */
  async reconcile(id: string): Promise<void> {
    const t = await this.get(id);
    if (t.format === "arena") return this.arena.reconcile(t);
    if (t.status !== "running") return;
    await this.createGames(t);
    for (const g of t.played.at(-1)?.games ?? []) {
      if (g.outcome) continue;
      const game = await this.store.games.getGame(g.gameId);
      if (game?.status === "finished") await this.onGameFinished(game);
    }
  }

  /** Reconciles every running tournament among the newest `limit`; failures are the caller's to log. */
  async reconcileRunning(limit = 100): Promise<void> {
    for (const t of await this.store.tournaments.listTournaments(limit)) {
      if (t.status === "running") await this.reconcile(t.id);
    }
  }

  async standings(id: string) {
    const t = await this.get(id);
    if (t.format === "arena") return { id: t.id, status: t.status, round: 0, rounds: 0, standings: arenaStandingRows(t) };
    return { id: t.id, status: t.status, round: t.played.length, rounds: t.rounds, standings: standingRows(t) };
  }

  async games(id: string) {
    const t = await this.get(id);
    if (t.format === "arena") return this.arena.games(t);
    return {
      id: t.id,
      rounds: t.played.map((r, i) => ({
        round: i + 1,
        bye: r.bye ?? null,
        games: r.games.map((g) => ({ ...g, outcome: g.outcome ?? null, url: `${this.baseUrl}/api/v1/games/${g.gameId}` })),
      })),
    };
  }

  async trf(id: string): Promise<string> {
    const t = await this.get(id);
    if (t.format === "arena") throw new AppError("conflict", "TRF reports are for swiss tournaments; an arena's games are on /games");
    return exportTrf(t.name, t.rounds, swissPlayers(t), swissRounds(t));
  }

  // ---- internals ---------------------------------------------------------------------------------

  private async get(id: string): Promise<TournamentRecord> {
    const t = await this.store.tournaments.getTournament(id);
    if (!t) throw new AppError("not_found", `no tournament with id ${id}`);
    return t;
  }

  /** Applies `edit` to a fresh read and stores it by compare-and-set, retrying from a new read on a lost race.
   * `edit` returning false means nothing to change. */
  private async change(id: string, edit: (t: TournamentRecord) => void | boolean): Promise<TournamentRecord> {
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      const t = await this.get(id);
      if (edit(t) === false) return t;
      t.version += 1;
      t.updatedAt = new Date().toISOString();
      if (await this.store.tournaments.replaceTournamentIf(t)) {
        this.changed(t.id);
        return t;
      }
    }
    throw new AppError("conflict", "the tournament kept changing; retry");
  }

  /** The entrant cap of `t`: its director's, never above the server's (which may have been lowered since). */
  private capOf(t: TournamentRecord): number {
    return Math.min(t.maxEntrants ?? this.maxEntrants, this.maxEntrants);
  }

  private entrantOf(t: TournamentRecord, token: string) {
    const hash = sha256Hex(token);
    const e = t.entrants.find((x) => sameHash(x.tokenHash, hash));
    if (!e) throw new AppError("unauthorized", "the token is not an entrant's of this tournament");
    return e;
  }

  /** Pairs the next round into `t`, or finishes it when the rounds are played or fewer than two remain. */
  private pairNext(t: TournamentRecord): "paired" | "finished" {
    const active = swissPlayers(t).filter((p) => !t.entrants.find((e) => e.playerId === p.id)!.withdrawn);
    if (t.played.length >= t.rounds || active.length < 2) {
      t.status = "finished";
      return "finished";
    }
    const round = pairRound(active, swissRounds(t));
    t.played.push({ games: round.pairings.map((p) => ({ first: p.first, second: p.second, gameId: newGameId() })), ...(round.bye ? { bye: round.bye } : {}) });
    return "paired";
  }

  /** Tells what the last stored change did: each entrant their pairing, or everyone the final standings. */
  private announce(t: TournamentRecord, firstSeats: Map<string, Seat>): void {
    if (t.status === "finished") {
      const table = standings(swissPlayers(t), swissRounds(t)).map((s) => ({ rank: s.rank, player_id: s.id, score: s.score }));
      this.emitEvent(
        "tournament.finished",
        { tournament_id: t.id },
        {
          tournament_id: t.id,
          standings: table,
          url: `${this.baseUrl}/api/v1/tournaments/${t.id}/standings`,
        },
      );
      return;
    }
    const round = t.played.at(-1)!;
    const links = (gameId: string) => {
      const game = `${this.baseUrl}/api/v1/games/${gameId}`;
      return { game, sync: `${game}/sync`, moves: `${game}/moves` };
    };
    // The entrant token plays the seat (the game was created with its hash): the event says so, with the seat
    // and the links, so a subscriber plays without asking anything else.
    const tell = (playerId: string, gameId: string | null, seat: Seat | null, first: boolean, opponentId: string | null) =>
      this.emitEvent(
        "tournament.paired",
        { tournament_id: t.id, player_id: playerId },
        {
          tournament_id: t.id,
          round: t.played.length,
          player_id: playerId,
          game_id: gameId,
          seat,
          first,
          opponent_id: opponentId,
          token: "entrant",
          url: gameId ? links(gameId).game : null,
          links: gameId ? links(gameId) : null,
        },
      );
    for (const g of round.games) {
      const firstSeat = firstSeats.get(g.gameId) ?? "A";
      tell(g.first, g.gameId, firstSeat, true, g.second);
      tell(g.second, g.gameId, otherSeat(firstSeat), false, g.first);
    }
    if (round.bye) tell(round.bye, null, null, false, null);
  }

  private emitEvent<N extends "tournament.started" | "tournament.paired" | "tournament.finished">(
    name: N,
    match: Record<string, string>,
    data: EventData<N>,
  ): void {
    this.emit({ name, match, data });
  }

  /**
   * Creates the current round's games that do not exist yet (idempotent: a crash or a race re-runs it);
   * answers each game's first mover's seat, and the error of a room that would not open, if any.
   */
  private async createGames(t: TournamentRecord): Promise<{ firstSeats: Map<string, Seat>; unopened?: Error }> {
    if (t.status !== "running") return { firstSeats: new Map() };
    const byId = new Map(t.entrants.map((e) => [e.playerId, e]));
    // An entrant stored before entrants kept their profile's kind has no profile at hand here: its BOT- id says.
    const kindOf = (e: TournamentEntrant): PlayerSeatKind => e.kind ?? (isBotId(e.playerId) ? "bot" : "human");
    const seat = (id: string) => ({ playerId: id, name: byId.get(id)!.name, kind: kindOf(byId.get(id)!), tokenHash: byId.get(id)!.tokenHash! });
    // The round at once: one store write for its games, their rooms opened together.
    const round = (t.played.at(-1)?.games ?? []).map((g) => ({ id: g.gameId, first: seat(g.first), second: seat(g.second) }));
    return this.gameService.createForTournamentRound(t.id, t.ruleset, round, this.turnSeconds);
  }

  private view(t: TournamentRecord) {
    return {
      id: t.id,
      name: t.name,
      format: t.format,
      ruleset: t.ruleset,
      rounds: t.rounds,
      round: t.played.length,
      status: t.status,
      createdAt: t.createdAt,
      maxEntrants: this.capOf(t),
      minutes: t.arena?.minutes ?? null,
      endsAt: t.arena?.endsAt ?? null,
      entrants: t.entrants.map((e) => ({ playerId: e.playerId, name: e.name, rating: e.rating, withdrawn: Boolean(e.withdrawn) })),
      urls: {
        self: `${this.baseUrl}/api/v1/tournaments/${t.id}`,
        standings: `${this.baseUrl}/api/v1/tournaments/${t.id}/standings`,
        games: `${this.baseUrl}/api/v1/tournaments/${t.id}/games`,
        trf: `${this.baseUrl}/api/v1/tournaments/${t.id}/trf`,
      },
    };
  }
}

/** The standings table as REST and the tournament room show it. */
export function standingRows(t: TournamentRecord) {
  const byId = new Map(t.entrants.map((e) => [e.playerId, e]));
  return standings(swissPlayers(t), swissRounds(t)).map((s) => ({
    rank: s.rank,
    playerId: s.id,
    name: byId.get(s.id)!.name,
    rating: s.rating,
    score: s.score,
    buchholz: s.buchholz,
    sonnebornBerger: s.sonnebornBerger,
    withdrawn: Boolean(byId.get(s.id)!.withdrawn),
  }));
}

/** Presence channel on which a tournament's stored changes are announced. */
export const tournamentChannel = (id: string): string => `tournament:${id}`;

const swissPlayers = (t: TournamentRecord): SwissPlayer[] => t.entrants.map((e) => ({ id: e.playerId, rating: e.rating }));
const swissRounds = (t: TournamentRecord): SwissRound[] =>
  t.played.map((r) => ({ pairings: r.games.map((g) => ({ first: g.first, second: g.second, outcome: g.outcome })), ...(r.bye ? { bye: r.bye } : {}) }));
