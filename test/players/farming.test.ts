import { strict as assert } from "node:assert";
import type { RunningServer } from "../../src/server";
import { playOpening } from "../support/play";
import { bearer, bootServer, http } from "../support/server";

type Ref = { id: string; secret: string };

describe("Integration: ratings cannot be farmed with profiles of one's own", function () {
  this.timeout(120_000);
  let server: RunningServer;
  // One proxy trusted: X-Forwarded-For names the client address, as behind nginx.
  before(async () => {
    server = await bootServer({ trustProxy: 1 });
  });
  after(async () => server.close());

  const from = (address: string) => ({ "x-forwarded-for": address });
  const rating = async (id: string) => (await http(server.url, "GET", `/api/v1/players/${id}`)).json.player.rating as number;

  /**
   * `n` friend games of the winner's profile (made by its first game) against the loser's, each created by
   * the winner from `winnerAddress`, joined by the loser from `loserAddress`, opened by both seats and resigned by the loser; the
   * winner's rating after each game.
   */
  async function farm(n: number, winnerAddress: string, loserAddress: string) {
    let winner: Ref | undefined;
    let loser: Ref | undefined;
    const ratings: number[] = [];
    for (let i = 0; i < n; i++) {
      const created = await http(server.url, "POST", "/api/v1/games", { opponent: "friend", seat: "A", ...(winner ? { player: winner } : { name: "Farmer" }) }, from(winnerAddress));
      assert.equal(created.status, 201, created.text);
      winner ??= { id: created.json.player.id, secret: created.json.player.secret };
      const joined = await http(server.url, "POST", "/api/v1/games/join", { code: created.json.code, ...(loser ? { player: loser } : { name: "Crop" }) }, from(loserAddress));
      assert.equal(joined.status, 200, joined.text);
      loser ??= { id: joined.json.player.id, secret: joined.json.player.secret };
      // Both seats place a card first: a resignation before that aborts the game, unrated whoever made it.
      await playOpening(server.url, created.json.game.id, [created.json.playerToken, joined.json.playerToken]);
      const resigned = await http(server.url, "POST", `/api/v1/games/${created.json.game.id}/resign`, undefined, { ...bearer(joined.json.playerToken), ...from(loserAddress) });
      assert.equal(resigned.status, 200, resigned.text);
      assert.equal(resigned.json.winner, "A");
      ratings.push(await rating(winner.id));
    }
    return { ratings, winner: winner!, loser: loser! };
  }

  it("leaves the winner's rating unchanged after 25 games between two profiles made from one address", async () => {
    const { ratings, winner } = await farm(25, "10.9.0.1", "10.9.0.1");
    assert.deepEqual(new Set(ratings), new Set([1500]));
    const profile = (await http(server.url, "GET", `/api/v1/players/${winner.id}`)).json.player;
    assert.equal(profile.games, 25);
  });

  it("rates games between profiles made from different addresses", async () => {
    const { ratings } = await farm(1, "10.9.1.1", "10.9.2.1");
    assert.ok(ratings[0] > 1500, `rating after a rated win: ${ratings[0]}`);
  });

  it("stops rating a profile's repeated wins over the same fresh opponent", async () => {
    const { ratings } = await farm(6, "10.9.3.1", "10.9.4.1");
    assert.ok(ratings[1] > ratings[0], `the second win is rated: ${ratings.join(", ")}`);
    assert.deepEqual(ratings.slice(2), Array(4).fill(ratings[1]), `from the third win on: ${ratings.join(", ")}`);
  });
});
