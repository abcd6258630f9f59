/** Contract: players and ranking, agent challenges, communities. */
import assert from "node:assert/strict";
import type { ChallengesPort, CommunitiesPort, PlayerRecord, PlayersPort } from "../../src/store";
import type { PortRef } from "./contract";
import { at, challenge, community, player, T0 } from "./fixtures";

/** Contract: the players port. */
export function playersContract(store: PortRef<PlayersPort>): void {
  describe("players", function () {
    it("returns a created player as a copy equal to what was given", async function () {
      const p = player("P1", 1500, { champions: { knight: { games: 2, wins: 1 } }, isAccount: true });
      await store().createPlayer(p);
      const read = (await store().getPlayer("P1"))!;
      assert.deepEqual(read, p);
      read.champions.knight!.wins = 9;
      assert.equal((await store().getPlayer("P1"))!.champions.knight!.wins, 1);
      assert.equal(await store().getPlayer("missing"), null);
    });

    it("merges the patch and bumps updatedAt when a player is updated", async function () {
      await store().createPlayer(player("P1", 1500));
      await store().updatePlayer("P1", { rating: 1620, games: 1, wins: 1, recentForm: "W", movedTo: "ACC1" });
      const p = (await store().getPlayer("P1"))!;
      assert.equal(p.rating, 1620);
      assert.equal(p.recentForm, "W");
      assert.equal(p.movedTo, "ACC1");
      assert.equal(p.name, "name-P1");
      assert.ok(p.updatedAt > T0);
    });

    it("does nothing when the updated player does not exist", async function () {
      await store().updatePlayer("missing", { rating: 1 });
      assert.equal(await store().getPlayer("missing"), null);
    });

    it("ranks by rating descending with ties broken by id", async function () {
      for (const [id, rating] of [
        ["C", 1400],
        ["B", 1700],
        ["A", 1500],
        ["D", 1700],
      ] as const) {
        await store().createPlayer(player(id, rating));
      }
      const ids = async (filter: string[] | undefined, limit: number, offset: number) => (await store().rankPlayers(filter, limit, offset)).map((p) => p.id);
      assert.deepEqual(await ids(undefined, 10, 0), ["B", "D", "A", "C"]);
      assert.deepEqual(await ids(undefined, 2, 1), ["D", "A"]);
      assert.deepEqual(await ids(undefined, 10, 4), []);
      assert.deepEqual(await ids(["C", "A", "ghost"], 10, 0), ["A", "C"]);
      assert.deepEqual(await ids([], 10, 0), []);
    });

    it("ranks only listed profiles (games played, not moved) inside the query, so every page is full", async function () {
      // Listed L1..L6 by rating, with unlisted profiles (no games, or moved) between and around them.
      const rows: Array<[string, number, Partial<PlayerRecord>]> = [
        ["L1", 1900, { games: 3 }],
        ["Z1", 1850, {}],
        ["M1", 1800, { games: 5, movedTo: "L3" }],
        ["L2", 1700, { games: 1 }],
        ["Z2", 1650, {}],
        ["L3", 1600, { games: 5, isAccount: true }],
        ["M2", 1600, { games: 2, movedTo: "L1" }],
        ["Z3", 1500, {}],
        ["L4", 1500, { games: 1 }],
        ["L5", 1400, { games: 7, kind: "bot", isAccount: true }],
        ["Z4", 1300, {}],
        ["L6", 1200, { games: 2 }],
      ];
      for (const [id, rating, over] of rows) await store().createPlayer(player(id, rating, over));
      // A guest that plays and then moves leaves the listing; one that plays its first game joins it.
      await store().createPlayer(player("M3", 1750, { games: 1 }));
      await store().updatePlayer("M3", { movedTo: "L2" });
      await store().updatePlayer("Z3", { games: 1, rating: 1450 }); // now L4 (1500) > Z3 (1450) > L5
      const listed = { listed: true } as const;
      const ids = async (limit: number, offset: number) => (await store().rankPlayers(undefined, limit, offset, listed)).map((p) => p.id);
      assert.deepEqual(await ids(10, 0), ["L1", "L2", "L3", "L4", "Z3", "L5", "L6"]);
      const pages = [await ids(3, 0), await ids(3, 3), await ids(3, 6), await ids(3, 9)];
      assert.deepEqual(pages, [["L1", "L2", "L3"], ["L4", "Z3", "L5"], ["L6"], []]);
      assert.deepEqual(await ids(0, 0), []);
      // Without the option every profile is ranked, as before; with ids the option still applies.
      assert.equal((await store().rankPlayers(undefined, 100, 0)).length, rows.length + 1);
      assert.deepEqual(
        (await store().rankPlayers(["Z1", "M1", "L2", "L6"], 10, 0, listed)).map((p) => p.id),
        ["L2", "L6"],
      );
    });

    it("updates a player conditionally only when the expected version and movedTo match", async function () {
      await store().createPlayer(player("P1", 1500));
      assert.equal(await store().updatePlayerIf("P1", { version: 3 }, { rating: 1 }), false);
      assert.equal(await store().updatePlayerIf("P1", { version: undefined }, { rating: 1600, version: 1 }), true);
      assert.equal(await store().updatePlayerIf("P1", { version: undefined }, { rating: 1700, version: 1 }), false);
      assert.equal(await store().updatePlayerIf("P1", { version: 1, movedTo: undefined }, { movedTo: "ACC", version: 2 }), true);
      assert.equal(await store().updatePlayerIf("P1", { version: 2, movedTo: undefined }, { movedTo: "ACC2", version: 3 }), false);
      assert.equal(await store().updatePlayerIf("ghost", {}, { rating: 1 }), false);
      const p = (await store().getPlayer("P1"))!;
      assert.deepEqual([p.rating, p.version, p.movedTo], [1600, 2, "ACC"]);
      assert.deepEqual(
        (await store().rankPlayers(undefined, 1, 0)).map((r) => r.rating),
        [1600],
      );
    });

    it("updates several players in order, each only when its own expectation holds", async function () {
      await store().createPlayer(player("P1", 1500));
      await store().createPlayer(player("P2", 1500));
      assert.deepEqual(await store().updatePlayersIf([]), []);
      assert.deepEqual(
        await store().updatePlayersIf([
          { id: "P1", expected: { version: undefined }, patch: { rating: 1510, version: 1 } },
          { id: "P2", expected: { version: 4 }, patch: { rating: 1, version: 5 } },
          { id: "ghost", expected: {}, patch: { rating: 1 } },
          // Sees the first update of this call: P1 is at version 1 now.
          { id: "P1", expected: { version: 1 }, patch: { rating: 1520, version: 2 } },
          { id: "P2", expected: { version: undefined }, patch: { rating: 1490, version: 1 } },
        ]),
        [true, false, false, true, true],
      );
      const [p1, p2] = [(await store().getPlayer("P1"))!, (await store().getPlayer("P2"))!];
      assert.deepEqual([p1.rating, p1.version, p2.rating, p2.version], [1520, 2, 1490, 1]);
      assert.equal(await store().getPlayer("ghost"), null);
      assert.deepEqual(
        (await store().rankPlayers(undefined, 2, 0)).map((p) => p.id),
        ["P1", "P2"],
      );
    });

    it("loses no increment when two writers race read-modify-write through versioned updates", async function () {
      await store().createPlayer(player("P1", 1500));
      // Each writer adds one game the way the player service does: read, compute, write if unchanged, retry.
      const addGame = async (): Promise<number> => {
        for (let attempt = 1; ; attempt++) {
          const p = (await store().getPlayer("P1"))!;
          if (await store().updatePlayerIf("P1", { version: p.version }, { games: p.games + 1, version: (p.version ?? 0) + 1 })) return attempt;
        }
      };
      await Promise.all(Array.from({ length: 10 }, addGame));
      const p = (await store().getPlayer("P1"))!;
      assert.equal(p.games, 10);
      assert.equal(p.version, 10);
    });

    it("moves a player in the ranking when the rating is updated", async function () {
      await store().createPlayer(player("A", 1500));
      await store().createPlayer(player("B", 1400));
      await store().updatePlayer("B", { rating: 1600 });
      assert.deepEqual(
        (await store().rankPlayers(undefined, 10, 0)).map((p) => p.id),
        ["B", "A"],
      );
    });
  });
}

/** Contract: the challenges port. */
export function challengesContract(store: PortRef<ChallengesPort>): void {
  describe("challenges", function () {
    it("returns a created challenge as given and null for an unknown token", async function () {
      const c = challenge("ch_1", "bot");
      await store().createChallenge(c);
      assert.deepEqual(await store().getChallenge("ch_1"), c);
      assert.equal(await store().getChallenge("ch_none"), null);
    });

    it("merges the patch and bumps updatedAt when a challenge is updated", async function () {
      await store().createChallenge(challenge("ch_1", "bot"));
      const result = { winner: "A" as const, score: { A: 6, B: 4 }, humanSeat: "B" as const, decidedBy: "board_full" as const };
      await store().updateChallenge("ch_1", { status: "played", gameId: "G1", result, reportedAt: at(5) });
      const c = (await store().getChallenge("ch_1"))!;
      assert.equal(c.status, "played");
      assert.deepEqual(c.result, result);
      assert.equal(c.agent.name, "bot");
      assert.ok(c.updatedAt > T0);
    });

    it("updates a challenge conditionally only when the expected members match, absent ones included", async function () {
      await store().createChallenge(challenge("ch_1", "bot"));
      assert.equal(await store().updateChallengeIf("ch_1", { status: "playing" }, { status: "played" }), false);
      assert.equal(await store().updateChallengeIf("ch_1", { status: "open" }, { status: "playing" }), true);
      assert.equal(await store().updateChallengeIf("ch_1", { status: "open" }, { status: "playing" }), false);
      assert.equal(await store().updateChallengeIf("ch_1", { reportedAt: undefined }, { reportedAt: at(5) }), true);
      assert.equal(await store().updateChallengeIf("ch_1", { reportedAt: undefined }, { reportedAt: at(6) }), false);
      assert.equal(await store().updateChallengeIf("ch_none", {}, { status: "played" }), false);
      const c = (await store().getChallenge("ch_1"))!;
      assert.equal(c.status, "playing");
      assert.equal(c.reportedAt, at(5));
      assert.ok(c.updatedAt > T0);
    });

    it("lets exactly one of racing conditional updates of a challenge win", async function () {
      await store().createChallenge(challenge("ch_1", "bot"));
      const wins = await Promise.all(
        Array.from({ length: 8 }, (_, i) => store().updateChallengeIf("ch_1", { status: "open" }, { status: "playing", gameId: `G${i}` })),
      );
      assert.equal(wins.filter(Boolean).length, 1);
      assert.equal((await store().getChallenge("ch_1"))!.gameId, `G${wins.indexOf(true)}`);
    });

    it("lists an agent's challenges newest first up to the limit", async function () {
      await store().createChallenge(challenge("ch_old", "bot", { createdAt: at(1) }));
      await store().createChallenge(challenge("ch_new", "bot", { createdAt: at(3) }));
      await store().createChallenge(challenge("ch_mid", "bot", { createdAt: at(2) }));
      await store().createChallenge(challenge("ch_other", "other", { createdAt: at(4) }));
      const tokens = async (agent: string, limit: number) => (await store().listChallenges(agent, limit)).map((c) => c.token);
      assert.deepEqual(await tokens("bot", 10), ["ch_new", "ch_mid", "ch_old"]);
      assert.deepEqual(await tokens("bot", 2), ["ch_new", "ch_mid"]);
      assert.deepEqual(await tokens("nobody", 10), []);
    });
  });
}

/** Contract: the communities port. */
export function communitiesContract(store: PortRef<CommunitiesPort>): void {
  describe("communities", function () {
    it("returns a created community with its members in order", async function () {
      const c = community("C1", ["P2", "P1"], { kind: "community", name: "Tile fans" });
      await store().createCommunity(c);
      assert.deepEqual(await store().getCommunity("C1"), c);
      assert.equal(await store().getCommunity("none"), null);
    });

    it("rejects a second community with the same id and leaves the first's members alone", async function () {
      await store().createCommunity(community("C1", ["P1"]));
      await assert.rejects(store().createCommunity(community("C1", ["P2", "P3"])));
      assert.deepEqual((await store().getCommunity("C1"))!.members, ["P1"]);
    });

    it("lists all communities or those of one kind", async function () {
      await store().createCommunity(community("C1", [], { createdAt: at(1) }));
      await store().createCommunity(community("C2", [], { kind: "community", createdAt: at(2) }));
      await store().createCommunity(community("C3", [], { createdAt: at(3) }));
      assert.deepEqual(
        (await store().listCommunities()).map((c) => c.id),
        ["C1", "C2", "C3"],
      );
      assert.deepEqual(
        (await store().listCommunities("club")).map((c) => c.id),
        ["C1", "C3"],
      );
      assert.deepEqual(
        (await store().listCommunities("community")).map((c) => c.id),
        ["C2"],
      );
    });

    it("appends a member once however often they are added and drops them on removal", async function () {
      await store().createCommunity(community("C1", ["P1"]));
      await store().addMember("C1", "P2");
      await store().addMember("C1", "P2");
      assert.deepEqual((await store().getCommunity("C1"))!.members, ["P1", "P2"]);
      await store().removeMember("C1", "P1");
      await store().removeMember("C1", "ghost");
      assert.deepEqual((await store().getCommunity("C1"))!.members, ["P2"]);
    });

    it("lists the communities a player belongs to as membership changes", async function () {
      await store().createCommunity(community("C1", ["P1"], { createdAt: at(1) }));
      await store().createCommunity(community("C2", ["P2"], { createdAt: at(2) }));
      await store().createCommunity(community("C3", [], { kind: "community", createdAt: at(3) }));
      await store().addMember("C3", "P1");
      assert.deepEqual(
        (await store().communitiesOf("P1")).map((c) => c.id),
        ["C1", "C3"],
      );
      await store().removeMember("C1", "P1");
      const of = await store().communitiesOf("P1");
      assert.deepEqual(
        of.map((c) => c.id),
        ["C3"],
      );
      assert.deepEqual(of[0].members, ["P1"]);
      assert.deepEqual(await store().communitiesOf("nobody"), []);
    });

    it("ignores a member added to a community that does not exist", async function () {
      await store().addMember("ghost", "P1");
      assert.deepEqual(await store().communitiesOf("P1"), []);
      assert.equal(await store().getCommunity("ghost"), null);
    });
  });
}
