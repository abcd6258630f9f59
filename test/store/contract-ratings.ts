/** Contract: the rating history (one point per rated game per player, added by the profile write carrying it). */
import assert from "node:assert/strict";
import type { GamesPort, PlayersPort, RatingPointOf, RatingsPort } from "../../src/store";
import type { PortRef } from "./contract";
import { at, game, player } from "./fixtures";

const point = (n: number, gameId = `G${n}`): RatingPointOf => ({ gameId, at: at(n), n, rating: 1500 + n * 10.25, rd: 300 - n });

export function ratingsContract(store: PortRef<{ ratings: RatingsPort; players: PlayersPort; games: Pick<GamesPort, "createGame" | "commitGames"> }>): void {
  describe("rating history", function () {
    it("adds the point a conditional profile write carries, once, and pages a player's points oldest first", async function () {
      await store().players.createPlayer(player("P1", 1500, { version: 0 }));
      await store().players.createPlayer(player("P2", 1500, { version: 0 }));
      for (let n = 1; n <= 3; n++)
        assert.deepEqual(await store().players.updatePlayersIf([{ id: "P1", expected: { version: n - 1 }, patch: { lastRated: point(n), version: n } }]), [
          true,
        ]);
      await store().players.updatePlayersIf([{ id: "P2", expected: { version: 0 }, patch: { lastRated: point(1, "G9"), version: 1 } }]);
      // A later write of the profile that carries no new point (a name change) adds nothing.
      await store().players.updatePlayer("P1", { name: "renamed" });
      await store().players.updatePlayerIf("P1", { version: 3 }, { name: "again", version: 4 });
      const all = await store().ratings.ratingHistory("P1", 0, 10);
      assert.deepEqual(
        all,
        [1, 2, 3].map((n) => ({ playerId: "P1", ...point(n) })),
      );
      assert.deepEqual(
        (await store().ratings.ratingHistory("P1", 1, 1)).map((p) => p.n),
        [2],
      );
      assert.deepEqual(await store().ratings.ratingHistory("P1", 3, 10), []);
      assert.deepEqual(
        (await store().ratings.ratingHistory("P2", 0, 10)).map((p) => p.gameId),
        ["G9"],
      );
      assert.deepEqual(await store().ratings.ratingHistory("P-NONE", 0, 10), []);
    });

    it("adds no point when the conditional write does not hold", async function () {
      await store().players.createPlayer(player("P1", 1500, { version: 2 }));
      assert.deepEqual(await store().players.updatePlayersIf([{ id: "P1", expected: { version: 1 }, patch: { lastRated: point(1), version: 2 } }]), [false]);
      assert.deepEqual(await store().ratings.ratingHistory("P1", 0, 10), []);
    });

    it("adds the points of a game's write with its profiles, and none of a stale one", async function () {
      await store().games.createGame(game("G1", { status: "active", owner: "p1", ownerEpoch: 1 }));
      await store().games.createGame(game("G2", { status: "active", owner: "p1", ownerEpoch: 1 }));
      await store().players.createPlayer(player("P1", 1500, { version: 1 }));
      const finish = (gameId: string, version: number, n: number) => ({
        gameId,
        actions: [],
        patch: { status: "finished" as const },
        ownerEpoch: 1,
        players: [{ id: "P1", expected: { version }, patch: { lastRated: point(n, gameId), version: version + 1 } }],
      });
      assert.deepEqual(await store().games.commitGames([finish("G1", 1, 1), finish("G2", 1, 2)]), ["committed", "stale"]);
      assert.deepEqual(
        (await store().ratings.ratingHistory("P1", 0, 10)).map((p) => p.gameId),
        ["G1"],
      );
    });

    it("gives a game's points for the players asked, each with the point before it", async function () {
      await store().players.createPlayer(player("P1", 1500, { version: 0 }));
      await store().players.createPlayer(player("P2", 1500, { version: 0 }));
      await store().players.createPlayer(player("P3", 1500, { version: 0 }));
      // P1: points 1 and 2 for earlier games, none for its unrated fourth game, point 5 for G7.
      for (const [v, n, gameId] of [
        [0, 1, "G1"],
        [1, 2, "G2"],
        [2, 5, "G7"],
        [3, 6, "G8"],
      ] as const)
        await store().players.updatePlayersIf([{ id: "P1", expected: { version: v }, patch: { lastRated: point(n, gameId), version: v + 1 } }]);
      // P2: G7 is its first rated game. P3 was not rated for G7.
      await store().players.updatePlayersIf([{ id: "P2", expected: { version: 0 }, patch: { lastRated: point(1, "G7"), version: 1 } }]);
      await store().players.updatePlayersIf([{ id: "P3", expected: { version: 0 }, patch: { lastRated: point(1, "G6"), version: 1 } }]);
      const changes = await store().ratings.ratingChanges("G7", ["P1", "P2", "P3", "P1"]);
      assert.deepEqual(
        changes.sort((a, b) => (a.after.playerId < b.after.playerId ? -1 : 1)),
        [
          { after: { playerId: "P1", ...point(5, "G7") }, before: { playerId: "P1", ...point(2, "G2") } },
          { after: { playerId: "P2", ...point(1, "G7") }, before: null },
        ],
      );
      assert.deepEqual(await store().ratings.ratingChanges("G7", ["P3"]), []);
      assert.deepEqual(await store().ratings.ratingChanges("G-NONE", ["P1", "P2"]), []);
      assert.deepEqual(await store().ratings.ratingChanges("G7", []), []);
    });
  });
}
