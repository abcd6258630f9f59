/** Contract: the tournaments port (one document per tournament, replaced by compare-and-set on its version). */
import { strict as assert } from "node:assert";
import type { TournamentRecord, TournamentsPort } from "../../src/store";
import type { PortRef } from "./contract";
import { at } from "./fixtures";

function tournament(id: string, minute: number): TournamentRecord {
  return {
    id,
    name: `Cup ${id}`,
    format: "swiss",
    rounds: 3,
    ruleset: "classic",
    status: "open",
    createdAt: at(minute),
    updatedAt: at(minute),
    version: 1,
    entrants: [
      { playerId: "P1", name: "Ada", rating: 1500 },
      { playerId: "P2", name: "Bo", rating: 1600, withdrawn: true },
    ],
    played: [
      {
        games: [
          { first: "P1", second: "P3", gameId: "G1", outcome: "draw" },
          { first: "P4", second: "P5", gameId: "G2" },
        ],
        bye: "P6",
      },
    ],
  };
}

export function tournamentsContract(store: PortRef<TournamentsPort>): void {
  describe("tournaments", function () {
    it("returns a created tournament as it was stored, and null for an unknown id", async function () {
      const t = tournament("T1", 0);
      await store().createTournament(t);
      assert.deepEqual(await store().getTournament("T1"), t);
      assert.equal(await store().getTournament("nope"), null);
    });

    it("refuses a second tournament with the same id", async function () {
      await store().createTournament(tournament("T1", 0));
      await assert.rejects(store().createTournament(tournament("T1", 1)));
    });

    it("lists tournaments newest first, up to the limit", async function () {
      for (const [id, minute] of [
        ["T1", 0],
        ["T2", 2],
        ["T3", 1],
      ] as const)
        await store().createTournament(tournament(id, minute));
      assert.deepEqual(
        (await store().listTournaments(10)).map((t) => t.id),
        ["T2", "T3", "T1"],
      );
      assert.deepEqual(
        (await store().listTournaments(2)).map((t) => t.id),
        ["T2", "T3"],
      );
    });

    it("keeps an arena's document whole: its end, waiting pool and games", async function () {
      const t: TournamentRecord = {
        ...tournament("A1", 0),
        format: "arena",
        rounds: 0,
        status: "running",
        played: [],
        arena: {
          minutes: 30,
          endsAt: at(30),
          waiting: [{ playerId: "P2", since: at(3) }],
          games: [
            { first: "P1", second: "P2", gameId: "G1", outcome: "first", pairedAt: at(1), freeSince: [at(0), at(0)] },
            { first: "P3", second: "P1", gameId: "G2", pairedAt: at(3), freeSince: [at(2), at(3)] },
          ],
        },
      };
      await store().createTournament(t);
      assert.deepEqual(await store().getTournament("A1"), t);
      const next = structuredClone(t);
      next.version = 2;
      next.arena!.games[1].outcome = "draw";
      next.arena!.waiting.push({ playerId: "P3", since: at(4) });
      assert.equal(await store().replaceTournamentIf(next), true);
      assert.deepEqual(await store().getTournament("A1"), next);
    });

    it("replaces a tournament only from the version it was read at", async function () {
      const t = tournament("T1", 0);
      await store().createTournament(t);
      const next = { ...t, version: 2, status: "running" as const };
      assert.equal(await store().replaceTournamentIf(next), true);
      // A writer that read version 1 too has lost: nothing changes.
      assert.equal(await store().replaceTournamentIf({ ...t, version: 2, status: "finished" }), false);
      assert.deepEqual(await store().getTournament("T1"), next);
      assert.equal(await store().replaceTournamentIf({ ...tournament("T9", 0), version: 2 }), false);
      assert.equal(await store().getTournament("T9"), null);
    });
  });
}
