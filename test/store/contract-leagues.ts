/**
 * Contract: the leagues port (a small head per league replaced by compare-and-set on its version, the schedule
 * stored once, one result per game stored once).
 */
import { strict as assert } from "node:assert";
import type { LeagueDeal, LeagueRecord, LeagueResult, LeaguesPort } from "../../src/store";
import type { PortRef } from "./contract";
import { at } from "./fixtures";

function league(id: string, minute: number): LeagueRecord {
  return {
    id,
    name: `League ${id}`,
    ruleset: "classic",
    deals: 2,
    parallel: 1,
    turnSeconds: 60,
    status: "open",
    createdAt: at(minute),
    updatedAt: at(minute),
    version: 1,
    directorTokenHash: "d".repeat(64),
    entrants: [
      { playerId: "BOT-A", name: "Ada", tokenHash: "a".repeat(64) },
      { playerId: "BOT-B", name: "Bo", tokenHash: "b".repeat(64) },
    ],
    progress: { deals: 2, dealsPlayed: 0, games: 4, gamesPlayed: 1 },
    open: [0],
    released: "AQ",
  };
}

function schedule(prefix: string): LeagueDeal[] {
  return [0, 1].map((deal) => ({
    a: "BOT-A",
    b: "BOT-B",
    deal,
    seed: 2 ** 31 - 2 - deal,
    games: [
      { first: "BOT-A", second: "BOT-B", gameId: `${prefix}${deal}a` },
      { first: "BOT-B", second: "BOT-A", gameId: `${prefix}${deal}b` },
    ],
  }));
}

const result = (gameId: string, deal: number, outcome: LeagueResult["outcome"] = "first"): LeagueResult => ({
  leagueId: "L1",
  gameId,
  deal,
  outcome,
  at: at(3),
});
const byGame = (rs: LeagueResult[]) => [...rs].sort((x, y) => (x.gameId < y.gameId ? -1 : 1));

export function leaguesContract(store: PortRef<LeaguesPort>): void {
  describe("leagues", function () {
    it("returns a created league as it was stored, and null for an unknown id", async function () {
      const l = league("L1", 0);
      await store().createLeague(l);
      assert.deepEqual(await store().getLeague("L1"), l);
      assert.equal(await store().getLeague("nope"), null);
    });

    it("keeps a deal's seed as it was drawn: an integer before rules version 4, 32 hex digits from it", async function () {
      const deals = schedule("s");
      deals[1] = { ...deals[1], seed: "fedcba9876543210fedcba9876543210" };
      await store().createLeague(league("L1", 0));
      await store().putLeagueSchedule("L1", deals);
      assert.deepEqual(
        (await store().getLeagueSchedule("L1"))!.map((d) => d.seed),
        [2 ** 31 - 2, "fedcba9876543210fedcba9876543210"],
      );
    });

    it("refuses a second league with the same id", async function () {
      await store().createLeague(league("L1", 0));
      await assert.rejects(store().createLeague(league("L1", 1)));
      assert.equal((await store().getLeague("L1"))!.createdAt, at(0));
    });

    it("lists leagues newest first, up to the limit", async function () {
      for (const [id, minute] of [
        ["L1", 0],
        ["L2", 2],
        ["L3", 1],
      ] as const)
        await store().createLeague(league(id, minute));
      assert.deepEqual(
        (await store().listLeagues(10)).map((l) => l.id),
        ["L2", "L3", "L1"],
      );
      assert.deepEqual(
        (await store().listLeagues(2)).map((l) => l.id),
        ["L2", "L3"],
      );
      assert.deepEqual(await store().listLeagues(0), []);
    });

    it("replaces a league only from the version it was read at", async function () {
      const l = league("L1", 0);
      await store().createLeague(l);
      const next: LeagueRecord = { ...l, version: 2, status: "running", open: [], released: "Aw", progress: { ...l.progress, dealsPlayed: 1, gamesPlayed: 2 } };
      assert.equal(await store().replaceLeagueIf(next), true);
      // A writer that read version 1 too has lost: nothing changes.
      assert.equal(await store().replaceLeagueIf({ ...l, version: 2, status: "finished" }), false);
      assert.deepEqual(await store().getLeague("L1"), next);
      assert.equal(await store().replaceLeagueIf({ ...league("L9", 0), version: 2 }), false);
      assert.equal(await store().getLeague("L9"), null);
    });

    it("lets exactly one of two writers that read the same version store its change", async function () {
      const l = league("L1", 0);
      await store().createLeague(l);
      const writes = await Promise.all(
        ["running", "finished"].map((status) => store().replaceLeagueIf({ ...l, version: 2, status: status as LeagueRecord["status"] })),
      );
      assert.deepEqual(writes.filter(Boolean).length, 1);
      assert.equal((await store().getLeague("L1"))!.version, 2);
    });

    it("keeps the first schedule stored for a league, and answers it to every later store", async function () {
      assert.equal(await store().getLeagueSchedule("L1"), null);
      const [first, second] = await Promise.all([store().putLeagueSchedule("L1", schedule("x")), store().putLeagueSchedule("L1", schedule("y"))]);
      assert.deepEqual(first, second);
      assert.ok([schedule("x"), schedule("y")].some((s) => JSON.stringify(s) === JSON.stringify(first)));
      assert.deepEqual(await store().putLeagueSchedule("L1", schedule("z")), first);
      assert.deepEqual(await store().getLeagueSchedule("L1"), first);
      assert.equal(await store().getLeagueSchedule("L2"), null);
    });

    it("stores a game's result once, however many report it at once, and never changes it", async function () {
      const reports = await Promise.all([result("G1", 0, "first"), result("G1", 0, "second"), result("G1", 0, "first")].map((r) => store().addLeagueResult(r)));
      assert.equal(reports.filter(Boolean).length, 1);
      const [stored] = await store().listLeagueResults("L1");
      assert.equal((await store().listLeagueResults("L1")).length, 1);
      assert.equal(await store().addLeagueResult({ ...stored, outcome: "void" }), false);
      assert.deepEqual(await store().listLeagueResults("L1"), [stored]);
    });

    it("answers a league's results, or those of the deals asked for, and no other league's", async function () {
      const mine = [result("G0a", 0), result("G0b", 0, "draw"), result("G1a", 1, "void"), result("G2a", 2, "second")];
      for (const r of [...mine, { ...result("H0a", 0), leagueId: "L2" }]) assert.equal(await store().addLeagueResult(r), true);
      assert.deepEqual(byGame(await store().listLeagueResults("L1")), byGame(mine));
      assert.deepEqual(byGame(await store().listLeagueResults("L1", [0, 2])), byGame([mine[0], mine[1], mine[3]]));
      assert.deepEqual(await store().listLeagueResults("L1", []), []);
      assert.deepEqual(await store().listLeagueResults("L3"), []);
    });
  });
}
