/**
 * The league service on a real store with the games service faked: the schedule is stored before any game
 * exists, results are counted once however many processes report them, a crash between storing and
 * creating is repaired by reconcile, and a deal's games are unsealed once both have finished, before the deal
 * is counted.
 */
import { strict as assert } from "node:assert";
import { leagueTable } from "../../src/shared/standings/league-table";
import { LeagueService } from "../../src/services/leagues/service";
import { SqliteStore } from "../../src/store/sqlite";
import type { AuthedBot } from "../../src/services/bots/service";
import type { GameRecord, LeaguesPort } from "../../src/store/port";
import { releasedSet } from "../../src/store/league-shape";

interface Created {
  id: string;
  leagueId: string;
  seed: number | string;
  first: string;
  second: string;
  tokenHash: string;
}

class FakeGames {
  created = new Map<string, Created>();
  failNext = 0;
  constructor(private readonly store: SqliteStore) {}
  async createForLeague(
    id: string,
    l: { leagueId: string; seed: number | string },
    first: { playerId: string; tokenHash: string },
    second: { playerId: string },
  ) {
    // What the real service relies on: the league stored this game in its schedule, released, before creating it.
    const stored = await this.store.leagues.getLeague(l.leagueId);
    const schedule = (await this.store.leagues.getLeagueSchedule(l.leagueId)) ?? [];
    const deal = schedule.findIndex((d) => d.games.some((g) => g.gameId === id));
    assert.ok(deal >= 0 && releasedSet(stored!.released).has(deal), `game ${id} created before its deal was stored as released`);
    if (this.failNext > 0) {
      this.failNext--;
      throw new Error("crashed while creating");
    }
    if (this.created.has(id)) return null;
    this.created.set(id, { id, leagueId: l.leagueId, seed: l.seed, first: first.playerId, second: second.playerId, tokenHash: first.tokenHash });
    return "A" as const;
  }
  unsealed: string[][] = [];
  failUnseal = 0;
  async unseal(ids: readonly string[]) {
    if (this.failUnseal > 0) {
      this.failUnseal--;
      throw new Error("crashed while unsealing");
    }
    this.unsealed.push([...ids]);
  }
}

const bot = (n: number): AuthedBot => ({ bot: { id: `BOT-${n}`, name: `Bot ${n}`, keyHash: "k", createdAt: "2026-01-01T00:00:00.000Z" }, key: `bk_${n}` });

/** A finished game record as the room stores it. */
function finished(c: Created, winner: "first" | "second" | "draw" | "aborted"): GameRecord {
  return {
    id: c.id,
    leagueId: c.leagueId,
    ruleset: "classic",
    opponent: "friend",
    public: true,
    turnSeconds: 60,
    seed: c.seed,
    salt: "s",
    commitment: "c",
    status: "finished",
    seats: {},
    firstPlayer: "A",
    moveCount: 16,
    score: { A: 0, B: 0 },
    winner: winner === "first" ? "A" : winner === "second" ? "B" : winner === "draw" ? "draw" : null,
    decidedBy: winner === "aborted" ? "aborted" : "board_full",
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
  };
}

describe("League service", function () {
  let store: SqliteStore;
  let games: FakeGames;
  let service: LeagueService;
  beforeEach(async () => {
    store = new SqliteStore({ path: ":memory:" });
    await store.init();
    games = new FakeGames(store);
    service = new LeagueService(store, games, "http://arena.test");
  });
  afterEach(async () => store.close());

  async function startLeague(entrants: number, deals: number, parallel = 1) {
    const { league, directorToken } = await service.create({ name: "L", ruleset: "classic", deals, parallel, turnSeconds: 60 });
    for (let i = 0; i < entrants; i++) await service.join(league.id, bot(i));
    await service.start(league.id, directorToken);
    return league.id;
  }

  it("creates the first wave on start, each deal's games on one seed with each entrant first once", async () => {
    const id = await startLeague(4, 2);
    // Four entrants, one deal each at a time: two deals, four games.
    assert.equal(games.created.size, 4);
    const byDeal = new Map<Created["seed"], Created[]>();
    for (const c of games.created.values()) byDeal.set(c.seed, [...(byDeal.get(c.seed) ?? []), c]);
    assert.equal(byDeal.size, 2);
    for (const [one, two] of byDeal.values()) assert.deepEqual([one.first, one.second], [two.second, two.first]);
    assert.equal((await service.read(id)).status, "running");
  });

  it("counts a result once when it is reported many times at once, by two services on one store", async () => {
    const id = await startLeague(2, 1);
    const other = new LeagueService(store, games, "http://arena.test");
    const [g1, g2] = [...games.created.values()];
    await Promise.all([
      ...Array.from({ length: 5 }, () => service.onGameFinished(finished(g1, "first"))),
      ...Array.from({ length: 5 }, () => other.onGameFinished(finished(g2, "first"))),
    ]);
    const stored = (await store.leagues.getLeague(id))!;
    assert.deepEqual(
      (await service.games(id)).deals[0].games.map((g) => g.outcome),
      ["first", "first"],
    );
    assert.deepEqual((await store.leagues.listLeagueResults(id)).length, 2);
    assert.equal(stored.status, "finished");
    assert.deepEqual(stored.progress, { deals: 1, dealsPlayed: 1, games: 2, gamesPlayed: 2 });
    // Two joins and the start, then at most one version per counted result; repeats changed nothing.
    assert.ok(stored.version <= 1 + 2 + 1 + 2, `version ${stored.version}`);
    // Each entrant won the game it moved first in: the deal is split.
    const table = await service.standings(id);
    assert.deepEqual(
      table.standings.map((r) => [r.wins, r.losses, r.rating]),
      [
        [1, 1, 0],
        [1, 1, 0],
      ],
    );
  });

  it("computes a table once for many readers at once, through the compute it was given", async () => {
    const computed: string[] = [];
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    service = new LeagueService(store, games, "http://arena.test", undefined, undefined, async (task) => {
      computed.push(task.leagueId);
      await gate;
      return leagueTable(task.entrants, task.deals, task.leagueId);
    });
    const id = await startLeague(3, 1);
    const reads = Array.from({ length: 8 }, () => service.standings(id));
    await new Promise((r) => setTimeout(r, 20));
    release();
    const tables = await Promise.all(reads);
    assert.deepEqual(computed, [id]);
    for (const t of tables) assert.deepEqual(t, tables[0]);
    // The same stored version again: served from the table kept, no second computation.
    await service.standings(id);
    assert.deepEqual(computed, [id]);
  });

  it("releases the next deals as results free their entrants, and finishes after the last", async () => {
    const id = await startLeague(3, 2);
    for (let round = 0; round < 20 && (await service.read(id)).status === "running"; round++) {
      const open = (await service.games(id)).deals
        .filter((d) => d.released)
        .flatMap((d) => d.games)
        .filter((g) => !g.outcome);
      for (const g of open) await service.onGameFinished(finished(games.created.get(g.gameId)!, "draw"));
    }
    const l = await service.read(id);
    assert.equal(l.status, "finished");
    assert.equal(games.created.size, 3 * 2 * 2);
    const table = await service.standings(id);
    assert.deepEqual(
      table.standings.map((r) => [r.games, r.draws, r.rating]),
      [
        [8, 8, 0],
        [8, 8, 0],
        [8, 8, 0],
      ],
    );
  });

  it("voids a deal with an aborted game: neither of its games is counted", async () => {
    const id = await startLeague(2, 1);
    const [g1, g2] = [...games.created.values()];
    await service.onGameFinished(finished(g1, "aborted"));
    await service.onGameFinished(finished(g2, "first"));
    const table = await service.standings(id);
    assert.equal(table.dealsCounted, 0);
    assert.deepEqual(
      table.standings.map((r) => [r.games, r.voided]),
      [
        [0, 1],
        [0, 1],
      ],
    );
    assert.deepEqual(
      (await service.games(id)).deals[0].games.map((g) => g.outcome),
      ["void", "first"],
    );
  });

  it("reconcile creates the games a crash left uncreated and counts results whose hook never ran", async () => {
    games.failNext = 1;
    const { league, directorToken } = await service.create({ name: "L", ruleset: "classic", deals: 1, parallel: 1, turnSeconds: 60 });
    await service.join(league.id, bot(1));
    await service.join(league.id, bot(2));
    await assert.rejects(service.start(league.id, directorToken), /crashed/);
    assert.equal(games.created.size, 0);
    const stored = (await store.leagues.getLeague(league.id))!;
    assert.equal(stored.status, "running", "the schedule was stored before the crash");
    const lookup = new Map<string, GameRecord>();
    const reconciling = new LeagueService(
      { bots: store.bots, leagues: bind(store), games: { getGame: async (gameId: string) => lookup.get(gameId) ?? null } },
      games,
      "http://arena.test",
    );
    await reconciling.reconcile(league.id);
    assert.equal(games.created.size, 2);
    for (const c of games.created.values()) lookup.set(c.id, finished(c, "second"));
    await reconciling.reconcile(league.id);
    assert.equal((await service.read(league.id)).status, "finished");
  });

  it("unseals a deal's two games once both have finished, before it counts the second, and not before", async () => {
    const lookup = new Map<string, GameRecord>();
    const reading = new LeagueService(
      { bots: store.bots, leagues: bind(store), games: { getGame: async (gameId: string) => lookup.get(gameId) ?? null } },
      games,
      "http://arena.test",
    );
    const { league, directorToken } = await reading.create({ name: "L", ruleset: "classic", deals: 1, parallel: 1, turnSeconds: 60 });
    await reading.join(league.id, bot(1));
    await reading.join(league.id, bot(2));
    await reading.start(league.id, directorToken);
    const [g1, g2] = [...games.created.values()];
    lookup.set(g1.id, finished(g1, "first"));
    lookup.set(g2.id, { ...finished(g2, "first"), status: "active", winner: null, decidedBy: undefined });
    await reading.onGameFinished(lookup.get(g1.id)!);
    assert.deepEqual(games.unsealed, [], "the deal's other game is still being played");
    assert.equal((await reading.read(league.id)).progress.gamesPlayed, 1);
    lookup.set(g2.id, finished(g2, "second"));
    await reading.onGameFinished(lookup.get(g2.id)!);
    assert.deepEqual(games.unsealed, [[g1.id, g2.id]]);
    assert.equal((await reading.read(league.id)).status, "finished");
  });

  it("leaves a deal uncounted when unsealing fails, and reconcile unseals and counts it", async () => {
    const lookup = new Map<string, GameRecord>();
    const reading = new LeagueService(
      { bots: store.bots, leagues: bind(store), games: { getGame: async (gameId: string) => lookup.get(gameId) ?? null } },
      games,
      "http://arena.test",
    );
    const { league, directorToken } = await reading.create({ name: "L", ruleset: "classic", deals: 1, parallel: 1, turnSeconds: 60 });
    await reading.join(league.id, bot(1));
    await reading.join(league.id, bot(2));
    await reading.start(league.id, directorToken);
    const [g1, g2] = [...games.created.values()];
    lookup.set(g1.id, finished(g1, "first"));
    await reading.onGameFinished(lookup.get(g1.id)!);
    lookup.set(g2.id, finished(g2, "draw"));
    games.failUnseal = 1;
    await assert.rejects(reading.onGameFinished(lookup.get(g2.id)!), /unsealing/);
    assert.equal((await reading.read(league.id)).progress.gamesPlayed, 1, "a deal still sealed is not counted");
    await reading.reconcile(league.id);
    assert.deepEqual(games.unsealed, [[g1.id, g2.id]]);
    assert.equal((await reading.read(league.id)).status, "finished");
  });

  it("counts every one of 64 games finishing at once, reported by two processes, exactly once", async () => {
    // 16 entrants, 4 deals each at once: 32 deals, 64 games under way.
    const id = await startLeague(16, 2, 4);
    const other = new LeagueService(store, games, "http://arena.test");
    const wave = [...games.created.values()];
    assert.equal(wave.length, 64);
    // Every game reported by both processes at once, as a resignation wave with a failover would.
    await Promise.all(wave.flatMap((c, i) => [service, other].map((s) => s.onGameFinished(finished(c, i % 3 === 0 ? "draw" : "first")))));
    assert.equal((await service.read(id)).progress.gamesPlayed, 64);
    const head = (await store.leagues.getLeague(id))!;
    assert.equal(head.progress.gamesPlayed, 64);
    assert.equal(head.progress.dealsPlayed, 32);
    assert.equal((await store.leagues.listLeagueResults(id)).length, 64);
    // The next wave was released and created in the same counts.
    assert.equal(head.open.length, 32);
    assert.equal(games.created.size, 128);
  });

  it("counts at start-up the results stored by a process that lost every write of the league's head", async () => {
    const id = await startLeague(4, 1);
    const wave = [...games.created.values()];
    // A process whose every compare-and-set on the head loses (another writer always ahead of it).
    const losing = new LeagueService({ ...ports(store), leagues: { ...bind(store), replaceLeagueIf: async () => false } }, games, "http://arena.test");
    const reports = await Promise.allSettled(wave.map((c) => losing.onGameFinished(finished(c, "second"))));
    assert.ok(
      reports.every((r) => r.status === "rejected"),
      "the counts gave up",
    );
    assert.equal((await service.read(id)).progress.gamesPlayed, 0);
    // The restart: a new process reconciles the running leagues, and nothing reported was lost.
    await new LeagueService(store, games, "http://arena.test").reconcileRunning();
    assert.equal((await service.read(id)).progress.gamesPlayed, 4);
    const head = (await store.leagues.getLeague(id))!;
    assert.equal(head.progress.gamesPlayed, 4);
    assert.equal(head.progress.dealsPlayed, 2);
    assert.deepEqual(
      (await service.games(id)).deals
        .filter((d) => d.released)
        .flatMap((d) => d.games.map((g) => g.outcome))
        .slice(0, 4),
      ["second", "second", "second", "second"],
    );
  });

  it("lists leagues from their heads: no schedule or result is read, whatever the leagues' size", async () => {
    const reads: string[] = [];
    const port = bind(store);
    const counting = {
      ...port,
      getLeague: (id: string) => (reads.push("getLeague"), port.getLeague(id)),
      getLeagueSchedule: (id: string) => (reads.push("getLeagueSchedule"), port.getLeagueSchedule(id)),
      listLeagueResults: (id: string, deals?: readonly number[]) => (reads.push("listLeagueResults"), port.listLeagueResults(id, deals)),
    };
    service = new LeagueService({ ...ports(store), leagues: counting }, games, "http://arena.test");
    // Two leagues of 16 entrants and 50 deals a pair: 12,000 games each.
    for (let k = 0; k < 2; k++) {
      const { league, directorToken } = await service.create({ name: `L${k}`, ruleset: "classic", deals: 50, parallel: 1, turnSeconds: 60 });
      for (let i = 0; i < 16; i++) await service.join(league.id, bot(100 * k + i));
      await service.start(league.id, directorToken);
    }
    reads.length = 0;
    const { leagues } = await service.list(20);
    assert.deepEqual(
      leagues.map((l) => l.progress.games),
      [12_000, 12_000],
    );
    assert.deepEqual(reads, [], "the list read nothing but the heads");
    // What the list parses, counted: the heads, a few kilobytes each (the schedules are 1.2 MB each).
    const bytes = JSON.stringify(await store.leagues.listLeagues(20)).length;
    assert.ok(bytes < 2 * 8_000, `the list read ${bytes} bytes of stored JSON`);
    // Standings read again while the table kept for them stands: the head only.
    await service.standings(leagues[0].id);
    reads.length = 0;
    await service.standings(leagues[0].id);
    assert.deepEqual(reads, ["getLeague"]);
  });

  it("refuses a start by anyone but the director, and entries once started", async () => {
    const { league, directorToken } = await service.create({ name: "L", ruleset: "classic", deals: 1, parallel: 1, turnSeconds: 60 });
    await service.join(league.id, bot(1));
    await service.join(league.id, bot(2));
    await assert.rejects(service.start(league.id, "pt_wrong"), (e: { code?: string }) => e.code === "forbidden");
    await assert.rejects(service.join(league.id, undefined), (e: { code?: string }) => e.code === "unauthorized");
    await service.start(league.id, directorToken);
    await assert.rejects(service.join(league.id, bot(3)), (e: { code?: string }) => e.code === "conflict");
  });
});

/** What the league service reads of the store, as the store's own members, for a test to replace one of them. */
function ports(store: SqliteStore) {
  return { leagues: store.leagues, games: store.games, bots: store.bots };
}

/** The store's league methods, bound, so a test can swap one beside them. */
function bind(store: SqliteStore): LeaguesPort {
  return {
    createLeague: store.leagues.createLeague.bind(store.leagues),
    getLeague: store.leagues.getLeague.bind(store.leagues),
    listLeagues: store.leagues.listLeagues.bind(store.leagues),
    replaceLeagueIf: store.leagues.replaceLeagueIf.bind(store.leagues),
    putLeagueSchedule: store.leagues.putLeagueSchedule.bind(store.leagues),
    getLeagueSchedule: store.leagues.getLeagueSchedule.bind(store.leagues),
    addLeagueResult: store.leagues.addLeagueResult.bind(store.leagues),
    listLeagueResults: store.leagues.listLeagueResults.bind(store.leagues),
  };
}
