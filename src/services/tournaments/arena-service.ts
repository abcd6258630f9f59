/**
 * Arena tournaments over the API (lichess arena as the anchor). Entrants join and withdraw at any time until the
 * time is up; the director starts it. Whoever finishes a game goes back to the waiting pool and is paired at
 * once by `pairArena` (closest in score, then rating; never the previous opponent again). When `endsAt` passes no
 * pairing is made; games under way finish and count; then the arena is finished.
 *
 * Every change goes through the tournaments service's compare-and-set `change()`: a result is counted and a
 * player paired in the same write, so with several processes a result counts once and nobody is paired twice.
 * The end is driven by the stored `endsAt`, checked on every counted game, at reconciliation (start-up, the
 * tournament room opening) and by a timer in each process that started or reconciled the arena.
 */
import { AppError } from "../../shared/errors";
import { KeyedQueue } from "../../shared/keyed-queue";
import type { GameCreation } from "../games/creation";
import { isBotId, newGameId, newPlayerToken, sameHash, sha256Hex } from "../../shared/secrets";
import type { PlayerService } from "../players/service";
import type { ArenaGame, GameRecord, GamesPort, PlayerSeatKind, TournamentEntrant, TournamentRecord, TournamentsPort } from "../../store/port";
import type { Seat } from "../../engine";
import type { EmittedEvent } from "../events";
import { arenaStandings, pairArena, replayArena, type ArenaStanding } from "./arena";
import type { CreateArenaBody, JoinTournamentBody } from "./schemas";
import { otherSeat } from "../../engine";

/** When finishing at the end failed (the store was unavailable), the timer tries again after this long. */
const RETRY_MS = 5_000;

export interface ArenaDeps {
  store: { tournaments: TournamentsPort; games: Pick<GamesPort, "getGame"> };
  gameService: Pick<GameCreation, "createForTournament">;
  players: Pick<PlayerService, "resolve">;
  baseUrl: string;
  emit: (e: EmittedEvent) => void;
  /** The tournaments service's compare-and-set change (re-read and re-apply on a lost race). */
  change: (id: string, edit: (t: TournamentRecord) => void | boolean) => Promise<TournamentRecord>;
  /** The most entrants a tournament takes (its own `maxEntrants`, never above the server's). */
  capOf: (t: TournamentRecord) => number;
  /** Turn clock of the arena's games (TOURNAMENT_TURN_SECONDS): a seat that does not move loses. */
  turnSeconds: number;
}

export type { ArenaStanding };

const arenaOf = (t: TournamentRecord) => {
  if (!t.arena) throw new Error(`tournament ${t.id} is not an arena`);
  return t.arena;
};

/** Replays the counted games into each entrant's record (./arena.ts replayArena). */
export function arenaPlayers(t: TournamentRecord): Map<string, ArenaStanding> {
  return replayArena(t.entrants, arenaOf(t).games);
}

/** The arena table as REST, events and the tournament room show it: score, then rating, then id. */
export function arenaStandingRows(t: TournamentRecord) {
  const byId = new Map(t.entrants.map((e) => [e.playerId, e]));
  const players = arenaPlayers(t);
  return arenaStandings([...players.values()]).map((p) => ({
    rank: p.rank,
    playerId: p.id,
    name: byId.get(p.id)!.name,
    rating: p.rating,
    score: p.score,
    streak: p.streak,
    fire: p.streak >= 2,
    games: players.get(p.id)!.games,
    withdrawn: Boolean(byId.get(p.id)!.withdrawn),
  }));
}

/** True once the arena's time is up (never before it starts). */
export const arenaEnded = (t: TournamentRecord, now: number): boolean => t.arena?.endsAt !== undefined && now >= Date.parse(t.arena.endsAt);

/**
 * Pairs the waiting pool into `t` (longest-waiting first, as stored) and answers the new games. The player who
 * has moved first less often in this arena moves first; on a tie, the longer-waiting one.
 */
export function pairPool(t: TournamentRecord, at: string): ArenaGame[] {
  const arena = arenaOf(t);
  const players = arenaPlayers(t);
  const since = new Map(arena.waiting.map((w) => [w.playerId, w.since]));
  const { pairs, left } = pairArena(arena.waiting.map((w) => players.get(w.playerId)!));
  const games = pairs.map(([p, q]): ArenaGame => {
    const [first, second] = players.get(q.id)!.firsts < players.get(p.id)!.firsts ? [q.id, p.id] : [p.id, q.id];
    return { first, second, gameId: newGameId(), pairedAt: at, freeSince: [since.get(first)!, since.get(second)!] };
  });
  arena.games.push(...games);
  const still = new Set(left.map((p) => p.id));
  arena.waiting = arena.waiting.filter((w) => still.has(w.playerId));
  return games;
}

/** At or after the end: nobody waits any more, and with no game under way the arena is finished. Answers whether it is. */
export function settleEnd(t: TournamentRecord, now: number): boolean {
  const arena = arenaOf(t);
  if (t.status === "running" && arenaEnded(t, now)) {
    arena.waiting = [];
    if (arena.games.every((g) => g.outcome)) t.status = "finished";
  }
  return t.status === "finished";
}

/** An entrant's seat in their games; an entrant stored without its profile's kind is told by its BOT- id. */
function gameSeat(e: TournamentEntrant) {
  const kind: PlayerSeatKind = e.kind ?? (isBotId(e.playerId) ? "bot" : "human");
  return { playerId: e.playerId, name: e.name, kind, tokenHash: e.tokenHash! };
}

/** Puts a free entrant in the pool (kept in the order they became free). */
function enqueue(t: TournamentRecord, playerId: string, since: string): void {
  const arena = arenaOf(t);
  if (arena.waiting.some((w) => w.playerId === playerId)) return;
  arena.waiting.push({ playerId, since });
  arena.waiting.sort((a, b) => (a.since < b.since ? -1 : a.since > b.since ? 1 : 0));
}

export class ArenaService {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** This process's changes to one arena, one at a time: its finish hooks arrive together, and each would
   * otherwise lose most compare-and-set races to the others. Other processes are still held off by the version. */
  private readonly queue = new KeyedQueue();
  private stopped = false;
  /** Finished games waiting for this process's next write to their arena, counted together. */
  private readonly finishing = new Map<string, { games: GameRecord[]; done: Promise<void> }>();

  constructor(private readonly deps: ArenaDeps) {}

  newRecord(body: CreateArenaBody, base: Pick<TournamentRecord, "id" | "createdAt" | "updatedAt" | "directorTokenHash">): TournamentRecord {
    return {
      ...base,
      name: body.name,
      format: "arena",
      rounds: 0,
      ruleset: body.ruleset,
      status: "open",
      version: 1,
      entrants: [],
      played: [],
      arena: { minutes: body.minutes, waiting: [], games: [] },
      ...(body.maxEntrants !== undefined ? { maxEntrants: body.maxEntrants } : {}),
    };
  }

  /** Enters a player while the arena is open or running (not once its time is up); a running arena pairs them at once. */
  async join(id: string, body: JoinTournamentBody) {
    const { player } = await this.deps.players.resolve(body.player, body.name);
    const token = newPlayerToken();
    let paired: ArenaGame[] = [];
    const t = await this.change(id, (t) => {
      paired = [];
      const now = Date.now();
      if (t.status === "finished" || arenaEnded(t, now)) throw new AppError("conflict", "the arena's time is up: entries are closed");
      const cap = this.deps.capOf(t);
      if (t.entrants.length >= cap) throw new AppError("conflict", `the tournament is full (${cap} entrants)`);
      if (t.entrants.some((e) => e.playerId === player.id)) throw new AppError("already_joined", "this player has already entered");
      t.entrants.push({
        playerId: player.id,
        name: player.name,
        ...(player.kind ? { kind: player.kind } : {}),
        rating: Math.round(player.rating),
        tokenHash: sha256Hex(token),
      });
      if (t.status === "running") {
        enqueue(t, player.id, new Date(now).toISOString());
        paired = pairPool(t, new Date(now).toISOString());
      }
    });
    await this.afterPairing(t, paired);
    return { t, playerId: player.id, playerToken: token };
  }

  /** Withdraws the token's entrant: out of the pool at once; a game under way still finishes and counts. */
  async withdraw(id: string, token: string): Promise<TournamentRecord> {
    const hash = sha256Hex(token);
    return this.withdrawWhere(id, (t) => {
      const e = t.entrants.find((x) => sameHash(x.tokenHash, hash));
      if (!e) throw new AppError("unauthorized", "the token is not an entrant's of this tournament");
      return e;
    });
  }

  /** Withdraws the entrant `find` names (by its token, or a revoked bot by its id): the one withdraw path. */
  async withdrawWhere(id: string, find: (t: TournamentRecord) => TournamentRecord["entrants"][number]): Promise<TournamentRecord> {
    return this.change(id, (t) => {
      const e = find(t);
      if (t.status === "finished") throw new AppError("conflict", "the tournament has finished");
      e.withdrawn = true;
      arenaOf(t).waiting = arenaOf(t).waiting.filter((w) => w.playerId !== e.playerId);
    });
  }

  /** Starts the clock (the director token only): every entrant enters the pool, highest rated first, and is paired. */
  async start(id: string, token: string): Promise<TournamentRecord> {
    let paired: ArenaGame[] = [];
    const t = await this.change(id, (t) => {
      if (!sameHash(t.directorTokenHash, sha256Hex(token))) throw new AppError("forbidden", "only the tournament's director token may start it");
      if (t.status !== "open") throw new AppError("conflict", "the tournament has already started");
      if (t.entrants.filter((e) => !e.withdrawn).length < 2) throw new AppError("conflict", "a tournament needs at least 2 entrants to start");
      const now = Date.now();
      const at = new Date(now).toISOString();
      const arena = arenaOf(t);
      t.status = "running";
      arena.endsAt = new Date(now + arena.minutes * 60_000).toISOString();
      arena.waiting = t.entrants
        .filter((e) => !e.withdrawn)
        .sort((a, b) => b.rating - a.rating)
        .map((e) => ({ playerId: e.playerId, since: at }));
      paired = pairPool(t, at);
    });
    this.deps.emit({
      name: "tournament.started",
      match: { tournament_id: t.id },
      data: {
        tournament_id: t.id,
        rounds: 0,
        entrants: t.entrants.length,
        url: `${this.deps.baseUrl}/api/v1/tournaments/${t.id}`,
      },
    });
    this.schedule(t);
    await this.afterPairing(t, paired);
    return t;
  }

  /**
   * Counts a finished game once; before the end both players go back to the pool and are paired in the same
   * write; after it, the last game to finish finishes the arena. Games that finish while this process is
   * writing the arena are counted together in its next write (one read and one write for all of them).
   */
  onGameFinished(game: GameRecord): Promise<void> {
    const id = game.tournamentId!;
    let batch = this.finishing.get(id);
    if (!batch) {
      const games: GameRecord[] = [];
      const done = this.queue.run(id, async () => {
        this.finishing.delete(id);
        await this.count(id, games);
      });
      batch = { games, done };
      this.finishing.set(id, batch);
    }
    batch.games.push(game);
    return batch.done;
  }

  private async count(id: string, games: readonly GameRecord[]): Promise<void> {
    let paired: ArenaGame[] = [];
    let finished = false;
    const t = await this.deps.change(id, (t) => {
      paired = [];
      const now = Date.now();
      const at = new Date(now).toISOString();
      let counted = false;
      for (const game of games) {
        const g = arenaOf(t).games.find((x) => x.gameId === game.id);
        if (!g || g.outcome || t.status !== "running") continue;
        counted = true;
        // An aborted game (no winner) counts as a draw, as in swiss: both seats were present, neither won.
        g.outcome = game.winner === null || game.winner === "draw" ? "draw" : game.winner === game.firstPlayer ? "first" : "second";
        if (arenaEnded(t, now)) continue;
        // Free from the moment the game was stored: a slow hook shows as waiting.
        const since = game.finishedAt && game.finishedAt < at ? game.finishedAt : at;
        for (const p of [g.first, g.second]) if (!t.entrants.find((e) => e.playerId === p)!.withdrawn) enqueue(t, p, since);
      }
      if (!counted) return false;
      if (!arenaEnded(t, now)) paired = pairPool(t, at);
      finished = settleEnd(t, now);
    });
    await this.afterPairing(t, paired);
    if (finished) this.announceFinished(t);
  }

  /** Finishes the arena when its time is up and no game is under way; empties the pool when its time is up. */
  async finishIfDue(id: string): Promise<void> {
    let finished = false;
    const t = await this.change(id, (t) => {
      finished = false;
      if (t.status !== "running" || !arenaEnded(t, Date.now())) return false;
      const waited = arenaOf(t).waiting.length;
      finished = settleEnd(t, Date.now());
      if (!finished && waited === 0) return false;
    });
    if (finished) this.announceFinished(t);
  }

  /**
   * What a crash may have left: games paired but not created, finished games not counted, an end not acted
   * on; and this process's end timer. Idempotent.
   */
  async reconcile(t: TournamentRecord): Promise<void> {
    if (t.status !== "running") return;
    this.schedule(t);
    const underWay = arenaOf(t).games.filter((g) => !g.outcome);
    await this.createGames(t, underWay);
    for (const g of underWay) {
      const game = await this.deps.store.games.getGame(g.gameId);
      if (game?.status === "finished") await this.onGameFinished(game);
    }
    await this.finishIfDue(t.id);
  }

  games(t: TournamentRecord) {
    const arena = arenaOf(t);
    return {
      id: t.id,
      rounds: [],
      games: arena.games.map((g) => ({
        first: g.first,
        second: g.second,
        gameId: g.gameId,
        outcome: g.outcome ?? null,
        pairedAt: g.pairedAt,
        url: `${this.deps.baseUrl}/api/v1/games/${g.gameId}`,
      })),
      waiting: arena.waiting.map((w) => w.playerId),
    };
  }

  /** Clears this process's end timers (the server is closing). */
  stop(): void {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  // ---- internals ---------------------------------------------------------------------------------

  private change(id: string, edit: (t: TournamentRecord) => void | boolean): Promise<TournamentRecord> {
    return this.queue.run(id, () => this.deps.change(id, edit));
  }

  /**
   * One timer per arena per process, at `endsAt`, then every RETRY_MS until the arena is finished: each time it
   * counts finished games whose hook did not (a failed store write, a crash elsewhere) and finishes the arena
   * when nothing is under way. A quiet arena has no other trigger; a failure is tried again the same way.
   */
  private schedule(t: TournamentRecord): void {
    const endsAt = t.arena?.endsAt;
    if (this.stopped || !endsAt || t.status !== "running" || this.timers.has(t.id)) return;
    const fire = (delay: number) => {
      const timer = setTimeout(() => {
        this.afterEnd(t.id).then(
          (done) => (done ? this.timers.delete(t.id) : this.stopped || fire(RETRY_MS)),
          () => {
            if (!this.stopped) fire(RETRY_MS);
          },
        );
      }, delay);
      timer.unref();
      this.timers.set(t.id, timer);
    };
    fire(Math.max(0, Date.parse(endsAt) - Date.now()));
  }

  /** After the end: counts stored results of the games under way, then finishes when none is left. True once finished. */
  private async afterEnd(id: string): Promise<boolean> {
    const t = await this.deps.store.tournaments.getTournament(id);
    if (!t || t.status !== "running") return true;
    for (const g of arenaOf(t).games.filter((x) => !x.outcome)) {
      const game = await this.deps.store.games.getGame(g.gameId);
      if (game?.status === "finished") await this.onGameFinished(game);
    }
    await this.finishIfDue(id);
    return (await this.deps.store.tournaments.getTournament(id))?.status !== "running";
  }

  private async afterPairing(t: TournamentRecord, paired: ArenaGame[]): Promise<void> {
    if (paired.length === 0) return;
    const firstSeats = await this.createGames(t, paired);
    const players = arenaPlayers(t);
    const links = (gameId: string) => {
      const game = `${this.deps.baseUrl}/api/v1/games/${gameId}`;
      return { game, sync: `${game}/sync`, moves: `${game}/moves` };
    };
    const tell = (playerId: string, g: ArenaGame, seat: Seat, first: boolean, opponentId: string) =>
      this.deps.emit({
        name: "tournament.paired",
        match: { tournament_id: t.id, player_id: playerId },
        data: {
          tournament_id: t.id,
          round: players.get(playerId)!.games + 1,
          player_id: playerId,
          game_id: g.gameId,
          seat,
          first,
          opponent_id: opponentId,
          token: "entrant",
          url: links(g.gameId).game,
          links: links(g.gameId),
        },
      });
    for (const g of paired) {
      const firstSeat = firstSeats.get(g.gameId) ?? "A";
      tell(g.first, g, firstSeat, true, g.second);
      tell(g.second, g, otherSeat(firstSeat), false, g.first);
    }
  }

  /** Creates games that do not exist yet (idempotent: a crash or a race re-runs it); answers each game's first mover's seat. */
  private async createGames(t: TournamentRecord, games: readonly ArenaGame[]): Promise<Map<string, Seat>> {
    const byId = new Map(t.entrants.map((e) => [e.playerId, e]));
    const seats = await Promise.all(
      games.map((g) =>
        this.deps.gameService.createForTournament(
          g.gameId,
          t.id,
          t.ruleset,
          gameSeat(byId.get(g.first)!),
          gameSeat(byId.get(g.second)!),
          this.deps.turnSeconds,
        ),
      ),
    );
    return new Map(games.map((g, i) => [g.gameId, seats[i]]));
  }

  private announceFinished(t: TournamentRecord): void {
    this.timers.delete(t.id);
    const table = arenaStandingRows(t).map((s) => ({ rank: s.rank, player_id: s.playerId, score: s.score }));
    this.deps.emit({
      name: "tournament.finished",
      match: { tournament_id: t.id },
      data: {
        tournament_id: t.id,
        standings: table,
        url: `${this.deps.baseUrl}/api/v1/tournaments/${t.id}/standings`,
      },
    });
  }
}
