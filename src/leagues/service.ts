/**
 * The leagues application service: duplicate round-robin leagues of bots. A league is one stored document
 * changed only by compare-and-set on its version (as a tournament is), so whichever process counts a result,
 * it is counted once and a deal is released once. The whole schedule, with every game id and deal seed, is
 * stored when the league starts, before any game exists; creating a released deal's games is idempotent, so a
 * crash between the two loses nothing.
 */
import { randomBytes } from "node:crypto";
import { AppError } from "../errors";
import type { GameService } from "../games/service";
import { newGameId, newPlayerToken, newSeed, sameHash, sha256Hex } from "../games/secrets";
import type { AuthedBot } from "../bots/service";
import type { Seat } from "../game";
import type { EmittedEvent } from "../events";
import type { GameRecord, GamesPort, LeagueDeal, LeagueRecord, LeaguesPort } from "../store/port";
import { allPlayed, buildSchedule, countedDeals, dealDone, releaseWave, tableDeals } from "./schedule";
import { LEAGUE_MAX_ENTRANTS, type CreateLeagueBody } from "./schemas";
import { leagueTable, outcomeOf, RESAMPLES, type TableRow } from "./table";
import type { LeagueTableTask } from "../ai/worker";

/** Compare-and-set attempts before a write is reported as a conflict; each loser re-reads and re-applies. */
const MAX_ATTEMPTS = 20;
/** Standings tables kept in memory, each for one stored version of its league. */
const TABLE_CACHE = 64;
/**
 * How long a running league's table is served after it was computed, whatever was counted since. A table
 * refits the ratings a thousand times (0.3 to 0.4 s of CPU for 16 entrants: `npm run bench:league`), on a
 * worker thread of the AI pool: a running league changes at every counted game, and its readers must not make
 * every change cost that. A finished league's table is always its own.
 */
const RUNNING_TABLE_MS = 10_000;

export const newLeagueId = (): string => `l_${randomBytes(9).toString("base64url")}`;

export class LeagueService {
  private readonly tables = new Map<string, { version: number; at: number; dealsCounted: number; rows: TableRow[] }>();
  /** Tables being computed, one per league: readers arriving meanwhile wait for the same one. */
  private readonly computing = new Map<string, Promise<{ dealsCounted: number; rows: TableRow[] }>>();

  constructor(
    private readonly store: LeaguesPort & Pick<GamesPort, "getGame">,
    private readonly gameService: Pick<GameService, "createForLeague" | "unseal">,
    private readonly baseUrl: string,
    /** Told each seat of a game it created, so the bot's event stream follows the game (gameStart, yourTurn). */
    private readonly seated: (botId: string, gameId: string, seat: Seat) => void = () => {},
    private readonly emit: (e: EmittedEvent) => void = () => {},
    /** Computes a table off the event loop (the AI pool's worker threads); inline when absent. */
    private readonly compute: (task: LeagueTableTask) => Promise<TableRow[]> = async (t) => leagueTable(t.entrants, t.deals, t.leagueId),
  ) {}

  async create(body: CreateLeagueBody) {
    const at = new Date().toISOString();
    const directorToken = newPlayerToken();
    const l: LeagueRecord = {
      id: newLeagueId(), name: body.name, ruleset: body.ruleset, deals: body.deals, parallel: body.parallel, turnSeconds: body.turnSeconds,
      status: "open", createdAt: at, updatedAt: at, version: 1, directorTokenHash: sha256Hex(directorToken), entrants: [], schedule: [],
    };
    await this.store.createLeague(l);
    return { league: this.view(l), directorToken };
  }

  async list(limit: number) {
    return { leagues: (await this.store.listLeagues(limit)).map((l) => this.view(l)) };
  }

  async read(id: string) {
    return this.view(await this.get(id));
  }

  /** Enters the bot whose key the request carries; the token answered is its seat token in every league game. */
  async join(id: string, authed: AuthedBot | undefined) {
    if (!authed) throw new AppError("unauthorized", "a league is for bots: enter with the bot's key, `Authorization: Bearer bk_...`");
    const { bot } = authed;
    const token = newPlayerToken();
    const l = await this.change(id, (l) => {
      if (l.status !== "open") throw new AppError("conflict", "the league has started: entries are closed");
      if (l.entrants.length >= LEAGUE_MAX_ENTRANTS) throw new AppError("conflict", `the league is full (${LEAGUE_MAX_ENTRANTS} entrants)`);
      if (l.entrants.some((e) => e.playerId === bot.id)) throw new AppError("already_joined", "this bot has already entered");
      l.entrants.push({ playerId: bot.id, name: bot.name, tokenHash: sha256Hex(token) });
    });
    return { league: this.view(l), playerId: bot.id, playerToken: token };
  }

  /** Closes entries, stores the whole schedule and releases the first wave (the director token only). */
  async start(id: string, token: string) {
    const l = await this.change(id, (l) => {
      if (!sameHash(l.directorTokenHash, sha256Hex(token))) throw new AppError("forbidden", "only the league's director token may start it");
      if (l.status !== "open") throw new AppError("conflict", "the league has already started");
      if (l.entrants.length < 2) throw new AppError("conflict", "a league needs at least 2 entrants to start");
      l.status = "running";
      l.schedule = buildSchedule(l.entrants.map((e) => e.playerId), l.deals, newSeed, newGameId);
      releaseWave(l.schedule, l.parallel);
    });
    await this.createGames(l);
    return this.view(l);
  }

  /**
   * Counts a finished league game once, releases the deals it frees, and finishes the league after its last game.
   * First, when the deal's other game has finished too, unseals both (their seed is the same: revealing it while
   * either is played would show that game's hands and pile). Unsealing comes before counting, so a counted deal
   * is always unsealed: a crash in between leaves the game uncounted, and reconcile runs this again. Of two games
   * finishing at once, at least the later one's hook sees the other finished.
   */
  async onGameFinished(game: GameRecord): Promise<void> {
    if (!game.leagueId) return;
    await this.unsealDeal(game.leagueId, game.id);
    let finished = false;
    const l = await this.change(game.leagueId, (l) => {
      finished = false;
      const g = l.schedule.flatMap((d) => d.games).find((x) => x.gameId === game.id);
      if (!g || g.outcome) return false;
      g.outcome = outcomeOf(game);
      releaseWave(l.schedule, l.parallel);
      if (allPlayed(l)) {
        l.status = "finished";
        l.finishedAt = new Date().toISOString();
        finished = true;
      }
    });
    // Every released deal's games, not only those this result released: a creation that failed before (the store
    // refusing a write) is retried here rather than waiting for a restart's reconcile. An existing game is one read.
    await this.createGames(l);
    // Told by the one writer whose compare-and-set finished the league.
    if (finished) {
      const standings = (await this.table(l)).rows.map((r) => ({ rank: r.rank, player_id: r.playerId, rating: r.rating, low: r.low, high: r.high }));
      this.emit({ name: "league.finished", match: { league_id: l.id }, data: { league_id: l.id, standings, url: `${this.baseUrl}/api/v1/leagues/${l.id}/standings` } });
    }
  }

  /**
   * Counts what a crash may have left uncounted in a running league (a finished game whose finish hook never
   * ran) and creates released games that do not exist yet. Idempotent; run at start-up.
   */
  async reconcile(id: string): Promise<void> {
    const l = await this.get(id);
    if (l.status !== "running") return;
    await this.createGames(l);
    for (const d of l.schedule) {
      if (!d.released || dealDone(d)) continue;
      for (const g of d.games) {
        if (g.outcome) continue;
        const game = await this.store.getGame(g.gameId);
        if (game?.status === "finished") await this.onGameFinished(game);
      }
    }
  }

  /** Reconciles every running league among the newest `limit`; failures are the caller's to log. */
  async reconcileRunning(limit = 100): Promise<void> {
    for (const l of await this.store.listLeagues(limit)) {
      if (l.status === "running") await this.reconcile(l.id);
    }
  }

  async standings(id: string) {
    const l = await this.get(id);
    const names = new Map(l.entrants.map((e) => [e.playerId, e.name]));
    const table = await this.table(l);
    return {
      id: l.id, status: l.status, deals: l.schedule.length, dealsCounted: table.dealsCounted, resamples: RESAMPLES,
      standings: table.rows.map((r) => ({ ...r, name: names.get(r.playerId)! })),
    };
  }

  /** Every deal in schedule order with its two games (never its seed: the games reveal it when they end). */
  async games(id: string) {
    const l = await this.get(id);
    return {
      id: l.id,
      deals: l.schedule.map((d, index) => ({
        index, a: d.a, b: d.b, deal: d.deal, released: Boolean(d.released),
        games: d.games.map((g) => ({ gameId: g.gameId, first: g.first, second: g.second, outcome: g.outcome ?? null, url: `${this.baseUrl}/api/v1/games/${g.gameId}` })),
      })),
    };
  }

  // ---- internals ---------------------------------------------------------------------------------

  /** Unseals both games of the deal of `gameId` when both are stored finished (idempotent). */
  private async unsealDeal(leagueId: string, gameId: string): Promise<void> {
    const l = await this.store.getLeague(leagueId);
    const deal = l?.schedule.find((d) => d.games.some((g) => g.gameId === gameId));
    if (!deal) return;
    const games = await Promise.all(deal.games.map((g) => this.store.getGame(g.gameId)));
    if (games.every((g) => g?.status === "finished")) await this.gameService.unseal(deal.games.map((g) => g.gameId));
  }

  private async get(id: string): Promise<LeagueRecord> {
    const l = await this.store.getLeague(id);
    if (!l) throw new AppError("not_found", `no league with id ${id}`);
    return l;
  }

  /**
   * The table of a stored version, computed once (the bootstrap refits the ratings a thousand times); while the
   * league runs, a table computed less than RUNNING_TABLE_MS ago stands for the newer versions too.
   */
  private async table(l: LeagueRecord): Promise<{ dealsCounted: number; rows: TableRow[] }> {
    const hit = this.tables.get(l.id);
    const now = Date.now();
    if (hit && (hit.version === l.version || (l.status === "running" && now - hit.at < RUNNING_TABLE_MS))) return hit;
    // One computation per league at a time, whatever the number of readers: the refits run on a worker thread,
    // and a crowd of standings reads must not queue a crowd of them.
    const pending = this.computing.get(l.id);
    if (pending) return pending;
    const computed = (async () => {
      const rows = await this.compute({ entrants: l.entrants.map((e) => e.playerId), deals: tableDeals(l.schedule), leagueId: l.id });
      const entry = { version: l.version, at: now, dealsCounted: countedDeals(l.schedule).length, rows };
      // Kept unless a newer version's table was kept meanwhile.
      if ((this.tables.get(l.id)?.version ?? 0) <= l.version) {
        this.tables.delete(l.id);
        this.tables.set(l.id, entry);
        if (this.tables.size > TABLE_CACHE) this.tables.delete(this.tables.keys().next().value!);
      }
      return entry;
    })().finally(() => this.computing.delete(l.id));
    this.computing.set(l.id, computed);
    return computed;
  }

  /** Applies `edit` to a fresh read and stores it by compare-and-set, retrying from a new read on a lost race.
   * `edit` returning false means nothing to change. */
  private async change(id: string, edit: (l: LeagueRecord) => void | boolean): Promise<LeagueRecord> {
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      const l = await this.get(id);
      if (edit(l) === false) return l;
      l.version += 1;
      l.updatedAt = new Date().toISOString();
      if (await this.store.replaceLeagueIf(l)) return l;
    }
    throw new AppError("conflict", "the league kept changing; retry");
  }

  /** Creates the released games of unfinished deals that do not exist yet (idempotent: a crash or a race re-runs it). */
  private async createGames(l: LeagueRecord): Promise<void> {
    if (l.status === "open") return;
    const byId = new Map(l.entrants.map((e) => [e.playerId, e]));
    const seat = (id: string) => ({ playerId: id, name: byId.get(id)!.name, kind: "bot" as const, tokenHash: byId.get(id)!.tokenHash });
    const open = l.schedule.filter((d: LeagueDeal) => d.released && !dealDone(d));
    for (const d of open) {
      for (const g of d.games) {
        if (g.outcome) continue;
        const firstSeat = await this.gameService.createForLeague(g.gameId, { leagueId: l.id, ruleset: l.ruleset, turnSeconds: l.turnSeconds, seed: d.seed }, seat(g.first), seat(g.second));
        if (firstSeat) {
          this.seated(g.first, g.gameId, firstSeat);
          this.seated(g.second, g.gameId, firstSeat === "A" ? "B" : "A");
        }
      }
    }
  }

  private view(l: LeagueRecord) {
    const played = l.schedule.filter(dealDone).length;
    return {
      id: l.id, name: l.name, ruleset: l.ruleset, deals: l.deals, parallel: l.parallel, turnSeconds: l.turnSeconds, status: l.status,
      createdAt: l.createdAt, finishedAt: l.finishedAt ?? null,
      entrants: l.entrants.map((e) => ({ playerId: e.playerId, name: e.name })),
      progress: { deals: l.schedule.length, dealsPlayed: played, games: l.schedule.length * 2, gamesPlayed: l.schedule.reduce((s, d) => s + d.games.filter((g) => g.outcome).length, 0) },
      urls: {
        self: `${this.baseUrl}/api/v1/leagues/${l.id}`,
        standings: `${this.baseUrl}/api/v1/leagues/${l.id}/standings`,
        games: `${this.baseUrl}/api/v1/leagues/${l.id}/games`,
      },
    };
  }
}
