/**
 * The leagues application service: duplicate round-robin leagues of bots. A league is stored in three parts:
 * its head (status, entrants, progress, which deals are released), small and changed only by compare-and-set
 * on its version (as a tournament is); its schedule, every deal with its game ids and seed, stored once when
 * the league starts and never rewritten; and one result per finished game, stored once whichever process
 * reports it. A finish stores its result first and then counts it into the head; counting reads only the
 * results of the deals under way, and is serialised per league in this process (a burst of finishes is counted
 * in one write), so the compare-and-set is lost only to another process. A result stored but not yet counted
 * (a lost race, a crash) is counted by the league's next count or at start-up (reconcile).
 */
import { randomBytes } from "node:crypto";
import { AppError } from "../../shared/errors";
import { KeyedQueue } from "../../shared/keyed-queue";
import type { GameCreation } from "../games/creation";
import type { GameReads } from "../games/reads";
import { newGameId, newPlayerToken, newSeed, sameHash, sha256Hex } from "../../shared/secrets";
import type { AuthedBot } from "../bots/service";
import type { Seat } from "../../engine";
import type { EmittedEvent } from "../events";
import type { BotsPort, GameRecord, GamesPort, LeagueDeal, LeagueRecord, LeaguesPort } from "../../store/port";
import { releasedBits, releasedSet } from "../../store/league-shape";
import { buildSchedule, countedDeals, dealDone, outcomesOf, releaseWave, tableDeals, type Outcomes } from "./schedule";
import { LEAGUE_MAX_ENTRANTS, type CreateLeagueBody } from "./schemas";
import { leagueTable, outcomeOf, RESAMPLES, type LeagueTableTask, type TableRow } from "../../shared/standings/league-table";
import { otherSeat } from "../../engine";

/**
 * Compare-and-set attempts before a write is reported as a conflict; each loser re-reads and re-applies. Only
 * another process's write can win against this one (this process's writes to a league are serialised); every
 * count begun after a result was stored counts it, and a count that gives up leaves its results stored, for the
 * next count or the reconcile (at start-up, and after a take-over of a dead process's games).
 */
const MAX_ATTEMPTS = 20;
/** Standings tables kept in memory, each for one stored version of its league. */
const TABLE_CACHE = 64;
/** Schedules kept in memory (a schedule never changes once stored; 16 entrants and 50 deals make 1.2 MB of JSON). */
const SCHEDULE_CACHE = 8;
/**
 * How long a running league's table is served after it was computed, whatever was counted since. A table
 * refits the ratings a thousand times (0.3 to 0.4 s of CPU for 16 entrants: `npm run bench:league`), on a
 * worker thread of the AI pool: a running league changes at every counted game, and its readers must not make
 * every change cost that. A finished league's table is always its own.
 */
const RUNNING_TABLE_MS = 10_000;
/** Leagues read (the newest) to find those a revoked bot entered; an older one drops the bot at its start (see `start`). */
export const WITHDRAW_SCANNED = 500;

/** A stored schedule with the deal of each game id. */
interface Schedule {
  deals: LeagueDeal[];
  dealOf: Map<string, number>;
}

/** What a league asks of the games: its games created, and a finished deal's games unsealed. */
export type LeagueGames = Pick<GameCreation, "createForLeague"> & Pick<GameReads, "unseal">;

export const newLeagueId = (): string => `l_${randomBytes(9).toString("base64url")}`;

export class LeagueService {
  private readonly tables = new Map<string, { version: number; at: number; dealsCounted: number; rows: TableRow[] }>();
  /** Tables being computed, one per league: readers arriving meanwhile wait for the same one. */
  private readonly computing = new Map<string, Promise<{ dealsCounted: number; rows: TableRow[] }>>();
  private readonly schedules = new Map<string, Schedule>();
  /** This process's writes to one league, one at a time. */
  private readonly queue = new KeyedQueue();
  /** A count queued and not yet begun, per league: every result stored meanwhile is counted by it. */
  private readonly counting = new Map<string, Promise<void>>();

  constructor(
    private readonly store: { leagues: LeaguesPort; games: Pick<GamesPort, "getGame">; bots: Pick<BotsPort, "getBot"> },
    private readonly gameService: LeagueGames,
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
      id: newLeagueId(),
      name: body.name,
      ruleset: body.ruleset,
      deals: body.deals,
      parallel: body.parallel,
      turnSeconds: body.turnSeconds,
      status: "open",
      createdAt: at,
      updatedAt: at,
      version: 1,
      directorTokenHash: sha256Hex(directorToken),
      entrants: [],
      progress: { deals: 0, dealsPlayed: 0, games: 0, gamesPlayed: 0 },
      open: [],
      released: "",
    };
    await this.store.leagues.createLeague(l);
    return { league: this.view(l), directorToken };
  }

  /** The newest leagues, from their heads alone: no schedule or result is read. */
  async list(limit: number) {
    return { leagues: (await this.store.leagues.listLeagues(limit)).map((l) => this.view(l)) };
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

  /**
   * Closes entries and releases the first wave (the director token only), then stores the schedule and creates
   * the wave's games. Which deal meets which pair follows from the entrants and the deals alone (buildSchedule),
   * so the head's released deals stand whichever schedule is stored: the first one stored is kept, and a crash
   * before it is stored is repaired by storing another (scheduleOf) before any of its games exists.
   */
  async start(id: string, token: string) {
    let drawn: LeagueDeal[] = [];
    // An entrant whose key was revoked before the start is dropped here too, whether or not its revocation
    // reached this league (`withdrawBot` reads only the newest leagues).
    const revoked = new Set<string>();
    for (const e of (await this.get(id)).entrants) if ((await this.store.bots.getBot(e.playerId))?.revokedAt) revoked.add(e.playerId);
    const l = await this.change(id, (l) => {
      if (!sameHash(l.directorTokenHash, sha256Hex(token))) throw new AppError("forbidden", "only the league's director token may start it");
      if (l.status !== "open") throw new AppError("conflict", "the league has already started");
      l.entrants = l.entrants.filter((e) => !revoked.has(e.playerId));
      if (l.entrants.length < 2) throw new AppError("conflict", "a league needs at least 2 entrants to start");
      drawn = buildSchedule(
        l.entrants.map((e) => e.playerId),
        l.deals,
        newSeed,
        newGameId,
      );
      const released = new Set<number>();
      l.open = [];
      releaseWave(drawn, released, l.open, l.parallel);
      l.status = "running";
      l.released = releasedBits(released, drawn.length);
      l.progress = { deals: drawn.length, dealsPlayed: 0, games: drawn.length * 2, gamesPlayed: 0 };
    });
    const schedule = this.remember(id, await this.store.leagues.putLeagueSchedule(id, drawn));
    await this.createGames(l, schedule, new Map());
    return this.view(l);
  }

  /**
   * Withdraws a bot whose key was revoked from every league among the newest WITHDRAW_SCANNED it entered: a
   * league not started drops it, so it is in no schedule; a running one marks it withdrawn, and its next count
   * voids the bot's deals not yet played (`voidWithdrawn`). Its games already created are the games service's
   * to abort (never played) or leave to their clock. Answers the ids of the leagues changed.
   */
  async withdrawBot(botId: string): Promise<string[]> {
    const entered = (await this.store.leagues.listLeagues(WITHDRAW_SCANNED)).filter(
      (l) => l.status !== "finished" && l.entrants.some((e) => e.playerId === botId && !e.withdrawn),
    );
    const changed: string[] = [];
    for (const head of entered) {
      const l = await this.change(head.id, (l) => {
        const i = l.entrants.findIndex((e) => e.playerId === botId);
        if (i < 0 || l.status === "finished" || l.entrants[i].withdrawn) return false;
        if (l.status === "open") l.entrants.splice(i, 1);
        else l.entrants[i] = { ...l.entrants[i], withdrawn: true };
      });
      changed.push(l.id);
      if (l.status === "running") await this.countSoon(l.id);
    }
    return changed;
  }

  /**
   * Stores a finished league game's result (once, whoever reports it), then counts it: see `count`. The result
   * is stored before anything else, so once this has begun the result is never lost, even if counting fails.
   */
  async onGameFinished(game: GameRecord): Promise<void> {
    if (!game.leagueId) return;
    const head = await this.store.leagues.getLeague(game.leagueId);
    if (!head || head.status === "open") return;
    const schedule = await this.scheduleOf(head);
    const deal = schedule.dealOf.get(game.id);
    if (deal === undefined) return;
    await this.store.leagues.addLeagueResult({ leagueId: head.id, gameId: game.id, deal, outcome: outcomeOf(game), at: new Date().toISOString() });
    await this.countSoon(head.id);
  }

  /**
   * What a crash may have left in a running league: a schedule not stored, released games not created, a
   * finished game whose result was never stored, results stored but not counted. Idempotent; run at start-up.
   */
  async reconcile(id: string): Promise<void> {
    const l = await this.get(id);
    if (l.status !== "running") return;
    const schedule = await this.scheduleOf(l);
    const outcomes = outcomesOf(await this.store.leagues.listLeagueResults(id, l.open));
    await this.createGames(l, schedule, outcomes);
    for (const i of l.open) {
      for (const g of schedule.deals[i].games) {
        if (outcomes.has(g.gameId)) continue;
        const game = await this.store.games.getGame(g.gameId);
        if (game?.status === "finished")
          await this.store.leagues.addLeagueResult({ leagueId: id, gameId: g.gameId, deal: i, outcome: outcomeOf(game), at: new Date().toISOString() });
      }
    }
    await this.countSoon(id);
  }

  /** Reconciles every running league among the newest `limit`; failures are the caller's to log. */
  async reconcileRunning(limit = 100): Promise<void> {
    for (const l of await this.store.leagues.listLeagues(limit)) {
      if (l.status === "running") await this.reconcile(l.id);
    }
  }

  /** The standings: read from the head alone while the table kept for it stands (see `table`). */
  async standings(id: string) {
    const l = await this.get(id);
    const names = new Map(l.entrants.map((e) => [e.playerId, e.name]));
    const table = await this.table(l);
    return {
      id: l.id,
      status: l.status,
      deals: l.progress.deals,
      dealsCounted: table.dealsCounted,
      resamples: RESAMPLES,
      standings: table.rows.map((r) => ({ ...r, name: names.get(r.playerId)! })),
    };
  }

  /** Every deal in schedule order with its two games (never its seed: the games reveal it when they end). */
  async games(id: string) {
    const l = await this.get(id);
    if (l.status === "open") return { id: l.id, deals: [] };
    const schedule = await this.scheduleOf(l);
    const outcomes = outcomesOf(await this.store.leagues.listLeagueResults(id));
    const released = releasedSet(l.released);
    return {
      id: l.id,
      deals: schedule.deals.map((d, index) => ({
        index,
        a: d.a,
        b: d.b,
        deal: d.deal,
        released: released.has(index),
        games: d.games.map((g) => ({
          gameId: g.gameId,
          first: g.first,
          second: g.second,
          outcome: outcomes.get(g.gameId) ?? null,
          url: `${this.baseUrl}/api/v1/games/${g.gameId}`,
        })),
      })),
    };
  }

  // ---- internals ---------------------------------------------------------------------------------

  /** Counts the league's stored results after this process's current write to it; joins a count not yet begun. */
  private countSoon(id: string): Promise<void> {
    const queued = this.counting.get(id);
    if (queued) return queued;
    const run = this.queue.run(id, async () => {
      this.counting.delete(id);
      await this.count(id);
    });
    this.counting.set(id, run);
    return run;
  }

  /**
   * Counts every stored result of the deals under way into the head, in one write: a deal whose two results are
   * stored is unsealed (both games finished: revealing the seed shows nothing still played), then counted as
   * played; its entrants are freed, the next wave is released and its games created; after the last deal the
   * league is finished. Unsealing comes before counting, so a counted deal is always unsealed.
   */
  private async count(id: string): Promise<void> {
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      const l = await this.get(id);
      if (l.status !== "running") return;
      const schedule = await this.scheduleOf(l);
      let outcomes = outcomesOf(await this.store.leagues.listLeagueResults(id, l.open));
      if (await this.voidWithdrawn(l, schedule, outcomes)) outcomes = outcomesOf(await this.store.leagues.listLeagueResults(id, l.open));
      const done = l.open.filter((d) => dealDone(schedule.deals[d], outcomes));
      const gamesPlayed =
        (l.progress.dealsPlayed + done.length) * 2 +
        l.open.filter((d) => !done.includes(d)).reduce((n, d) => n + schedule.deals[d].games.filter((g) => outcomes.has(g.gameId)).length, 0);
      if (done.length === 0 && gamesPlayed === l.progress.gamesPlayed) return;
      for (const d of done) await this.gameService.unseal(schedule.deals[d].games.map((g) => g.gameId));
      const released = releasedSet(l.released);
      l.open = l.open.filter((d) => !done.includes(d));
      releaseWave(schedule.deals, released, l.open, l.parallel);
      l.released = releasedBits(released, schedule.deals.length);
      l.progress = { ...l.progress, dealsPlayed: l.progress.dealsPlayed + done.length, gamesPlayed };
      const at = new Date().toISOString();
      const finished = l.progress.dealsPlayed === l.progress.deals;
      if (finished) {
        l.status = "finished";
        l.finishedAt = at;
      }
      l.version += 1;
      l.updatedAt = at;
      if (!(await this.store.leagues.replaceLeagueIf(l))) continue;
      // Every open deal's games, not only those this count released: a creation that failed before (the store
      // refusing a write) is retried here rather than waiting for a restart's reconcile. An existing game is one read.
      await this.createGames(l, schedule, outcomes);
      // Told by the one writer whose compare-and-set finished the league.
      if (finished) {
        const standings = (await this.table(l)).rows.map((r) => ({ rank: r.rank, player_id: r.playerId, rating: r.rating, low: r.low, high: r.high }));
        this.emit({
          name: "league.finished",
          match: { league_id: l.id },
          data: { league_id: l.id, standings, url: `${this.baseUrl}/api/v1/leagues/${l.id}/standings` },
        });
      }
      return;
    }
    throw new AppError("conflict", "the league kept changing; its stored results are counted by its next count or at start-up");
  }

  /**
   * Voids the deals of withdrawn entrants (bots whose key was revoked) that are not played yet, in the head read
   * for a count: each one not released yet is released now and gets no game; a released game that does not exist
   * yet is never created. Each such game is stored as a `void` result, which voids its deal as an abort does
   * (docs/TOURNAMENTS.md, "What counts"), so the count finishes the deal, frees the other entrant for its next
   * deal and keeps the league going to its end. A game already created goes on (aborted at the revocation when
   * never played). Answers whether a result was stored; results are stored only if absent, so a lost
   * compare-and-set's retry stores none twice.
   */
  private async voidWithdrawn(l: LeagueRecord, schedule: Schedule, outcomes: Outcomes): Promise<boolean> {
    const gone = new Set(l.entrants.filter((e) => e.withdrawn).map((e) => e.playerId));
    if (gone.size === 0) return false;
    const released = releasedSet(l.released);
    const open = new Set(l.open);
    const at = new Date().toISOString();
    let stored = false;
    for (let i = 0; i < schedule.deals.length; i++) {
      const d = schedule.deals[i];
      if (!gone.has(d.a) && !gone.has(d.b)) continue;
      const fresh = !released.has(i);
      if (!fresh && !open.has(i)) continue;
      released.add(i);
      open.add(i);
      for (const g of d.games) {
        if (outcomes.has(g.gameId) || (!fresh && (await this.store.games.getGame(g.gameId)))) continue;
        await this.store.leagues.addLeagueResult({ leagueId: l.id, gameId: g.gameId, deal: i, outcome: "void", at });
        stored = true;
      }
    }
    l.open = [...open].sort((x, y) => x - y);
    l.released = releasedBits(released, schedule.deals.length);
    return stored;
  }

  /**
   * The schedule of a started league, kept in memory once read (it never changes). A running league whose
   * schedule is missing (a crash between its start and storing the schedule) gets one now: no game of it exists
   * yet, and its head's released deals name the same pairs in any schedule of its entrants.
   */
  private async scheduleOf(l: LeagueRecord): Promise<Schedule> {
    const kept = this.schedules.get(l.id);
    if (kept) return kept;
    const stored =
      (await this.store.leagues.getLeagueSchedule(l.id)) ??
      (await this.store.leagues.putLeagueSchedule(
        l.id,
        buildSchedule(
          l.entrants.map((e) => e.playerId),
          l.deals,
          newSeed,
          newGameId,
        ),
      ));
    return this.remember(l.id, stored);
  }

  private remember(id: string, deals: LeagueDeal[]): Schedule {
    const dealOf = new Map<string, number>();
    deals.forEach((d, i) => d.games.forEach((g) => dealOf.set(g.gameId, i)));
    const schedule = { deals, dealOf };
    this.schedules.delete(id);
    this.schedules.set(id, schedule);
    if (this.schedules.size > SCHEDULE_CACHE) this.schedules.delete(this.schedules.keys().next().value!);
    return schedule;
  }

  private async get(id: string): Promise<LeagueRecord> {
    const l = await this.store.leagues.getLeague(id);
    if (!l) throw new AppError("not_found", `no league with id ${id}`);
    return l;
  }

  /**
   * The table of a stored version, computed once (the bootstrap refits the ratings a thousand times); while the
   * league runs, a table computed less than RUNNING_TABLE_MS ago stands for the newer versions too. Only
   * computing reads the schedule and the results.
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
      const entrants = l.entrants.map((e) => e.playerId);
      let deals: ReturnType<typeof tableDeals> = [];
      let dealsCounted = 0;
      if (l.status !== "open") {
        const schedule = await this.scheduleOf(l);
        const outcomes: Outcomes = outcomesOf(await this.store.leagues.listLeagueResults(l.id));
        deals = tableDeals(schedule.deals, outcomes);
        dealsCounted = countedDeals(schedule.deals, outcomes).length;
      }
      const rows = await this.compute({ entrants, deals, leagueId: l.id });
      const entry = { version: l.version, at: now, dealsCounted, rows };
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

  /**
   * Applies `edit` to a fresh read of the head and stores it by compare-and-set, retrying from a new read on a
   * lost race; after this process's earlier writes to the league. `edit` returning false means nothing to change.
   */
  private change(id: string, edit: (l: LeagueRecord) => void | boolean): Promise<LeagueRecord> {
    return this.queue.run(id, async () => {
      for (let i = 0; i < MAX_ATTEMPTS; i++) {
        const l = await this.get(id);
        if (edit(l) === false) return l;
        l.version += 1;
        l.updatedAt = new Date().toISOString();
        if (await this.store.leagues.replaceLeagueIf(l)) return l;
      }
      throw new AppError("conflict", "the league kept changing; retry");
    });
  }

  /** Creates the games of the open deals not counted yet that do not exist yet (idempotent: a crash or a race re-runs it). */
  private async createGames(l: LeagueRecord, schedule: Schedule, outcomes: Outcomes): Promise<void> {
    if (l.status === "open") return;
    const byId = new Map(l.entrants.map((e) => [e.playerId, e]));
    const seat = (id: string) => ({ playerId: id, name: byId.get(id)!.name, kind: "bot" as const, tokenHash: byId.get(id)!.tokenHash });
    for (const i of l.open) {
      const d = schedule.deals[i];
      // A withdrawn entrant's deals get no new game: their games are void (voidWithdrawn).
      if (byId.get(d.a)!.withdrawn || byId.get(d.b)!.withdrawn) continue;
      for (const g of d.games) {
        if (outcomes.has(g.gameId)) continue;
        const firstSeat = await this.gameService.createForLeague(
          g.gameId,
          { leagueId: l.id, ruleset: l.ruleset, turnSeconds: l.turnSeconds, seed: d.seed },
          seat(g.first),
          seat(g.second),
        );
        if (firstSeat) {
          this.seated(g.first, g.gameId, firstSeat);
          this.seated(g.second, g.gameId, otherSeat(firstSeat));
        }
      }
    }
  }

  private view(l: LeagueRecord) {
    return {
      id: l.id,
      name: l.name,
      ruleset: l.ruleset,
      deals: l.deals,
      parallel: l.parallel,
      turnSeconds: l.turnSeconds,
      status: l.status,
      createdAt: l.createdAt,
      finishedAt: l.finishedAt ?? null,
      entrants: l.entrants.map((e) => ({ playerId: e.playerId, name: e.name, withdrawn: Boolean(e.withdrawn) })),
      progress: { ...l.progress },
      urls: {
        self: `${this.baseUrl}/api/v1/leagues/${l.id}`,
        standings: `${this.baseUrl}/api/v1/leagues/${l.id}/standings`,
        games: `${this.baseUrl}/api/v1/leagues/${l.id}/games`,
      },
    };
  }
}
