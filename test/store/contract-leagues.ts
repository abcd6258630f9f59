/** Contract: the leagues port (one document per league, replaced by compare-and-set on its version). */
import { strict as assert } from "node:assert";
import type { LeagueRecord, LeaguesPort } from "../../src/store";
import type { PortRef } from "./contract";
import { at } from "./fixtures";

function league(id: string, minute: number): LeagueRecord {
  return {
    id, name: `League ${id}`, ruleset: "classic", deals: 2, parallel: 1, turnSeconds: 60, status: "open",
    createdAt: at(minute), updatedAt: at(minute), version: 1, directorTokenHash: "d".repeat(64),
    entrants: [{ playerId: "BOT-A", name: "Ada", tokenHash: "a".repeat(64) }, { playerId: "BOT-B", name: "Bo", tokenHash: "b".repeat(64) }],
    schedule: [{
      a: "BOT-A", b: "BOT-B", deal: 0, seed: 2 ** 31 - 2, released: true,
      games: [{ first: "BOT-A", second: "BOT-B", gameId: "G1", outcome: "void" }, { first: "BOT-B", second: "BOT-A", gameId: "G2" }],
    }],
  };
}

export function leaguesContract(store: PortRef<LeaguesPort>): void {
  describe("leagues", function () {
    it("returns a created league as it was stored, and null for an unknown id", async function () {
      const l = league("L1", 0);
      await store().createLeague(l);
      assert.deepEqual(await store().getLeague("L1"), l);
      assert.equal(await store().getLeague("nope"), null);
    });

    it("keeps a deal's seed as it was drawn: an integer before rules version 4, 32 hex digits from it", async function () {
      const l = league("L1", 0);
      l.schedule.push({ ...l.schedule[0], deal: 1, seed: "fedcba9876543210fedcba9876543210" });
      await store().createLeague(l);
      assert.deepEqual((await store().getLeague("L1"))!.schedule.map((d) => d.seed), [2 ** 31 - 2, "fedcba9876543210fedcba9876543210"]);
    });

    it("refuses a second league with the same id", async function () {
      await store().createLeague(league("L1", 0));
      await assert.rejects(store().createLeague(league("L1", 1)));
      assert.equal((await store().getLeague("L1"))!.createdAt, at(0));
    });

    it("lists leagues newest first, up to the limit", async function () {
      for (const [id, minute] of [["L1", 0], ["L2", 2], ["L3", 1]] as const) await store().createLeague(league(id, minute));
      assert.deepEqual((await store().listLeagues(10)).map((l) => l.id), ["L2", "L3", "L1"]);
      assert.deepEqual((await store().listLeagues(2)).map((l) => l.id), ["L2", "L3"]);
      assert.deepEqual(await store().listLeagues(0), []);
    });

    it("replaces a league only from the version it was read at", async function () {
      const l = league("L1", 0);
      await store().createLeague(l);
      const next: LeagueRecord = { ...l, version: 2, status: "running", schedule: [{ ...l.schedule[0], games: [l.schedule[0].games[0], { ...l.schedule[0].games[1], outcome: "first" }] }] };
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
      const writes = await Promise.all(["running", "finished"].map((status) => store().replaceLeagueIf({ ...l, version: 2, status: status as LeagueRecord["status"] })));
      assert.deepEqual(writes.filter(Boolean).length, 1);
      assert.equal((await store().getLeague("L1"))!.version, 2);
    });
  });
}
