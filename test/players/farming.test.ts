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
      const created = await http(
        server.url,
        "POST",
        "/api/v1/games",
        { opponent: "friend", seat: "A", ...(winner ? { player: winner } : { name: "Farmer" }) },
        from(winnerAddress),
      );
      assert.equal(created.status, 201, created.text);
      winner ??= { id: created.json.player.id, secret: created.json.player.secret };
      const joined = await http(
        server.url,
        "POST",
        "/api/v1/games/join",
        { code: created.json.code, ...(loser ? { player: loser } : { name: "Crop" }) },
        from(loserAddress),
      );
      assert.equal(joined.status, 200, joined.text);
      loser ??= { id: joined.json.player.id, secret: joined.json.player.secret };
      // Both seats place a card first: a resignation before that aborts the game, unrated whoever made it.
      await playOpening(server.url, created.json.game.id, [created.json.playerToken, joined.json.playerToken]);
      const resigned = await http(server.url, "POST", `/api/v1/games/${created.json.game.id}/resign`, undefined, {
        ...bearer(joined.json.playerToken),
        ...from(loserAddress),
      });
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

  describe("bots", () => {
    const register = async (name: string, address: string) => {
      const r = await http(server.url, "POST", "/api/v1/bots", { name }, from(address));
      assert.equal(r.status, 201, r.text);
      return { id: r.json.bot.id as string, key: r.json.key as string };
    };

    /**
     * One friend game made by the bot `winner` (seat A) and joined by `loser` (a bot's key, or a new guest
     * from `guestAddress`); both seats place a card, the loser resigns. Answers the winner's rating after it.
     */
    async function botWins(winner: { id: string; key: string }, loser: { key: string } | { guestAddress: string }) {
      const created = await http(server.url, "POST", "/api/v1/games", { opponent: "friend", seat: "A" }, bearer(winner.key));
      assert.equal(created.status, 201, created.text);
      const joinHeaders = "key" in loser ? bearer(loser.key) : from(loser.guestAddress);
      const joined = await http(
        server.url,
        "POST",
        "/api/v1/games/join",
        { code: created.json.code, ...("key" in loser ? {} : { name: "Crop" }) },
        joinHeaders,
      );
      assert.equal(joined.status, 200, joined.text);
      await playOpening(server.url, created.json.game.id, [created.json.playerToken, joined.json.playerToken]);
      const resigned = await http(server.url, "POST", `/api/v1/games/${created.json.game.id}/resign`, undefined, bearer(joined.json.playerToken));
      assert.equal(resigned.status, 200, resigned.text);
      assert.equal(resigned.json.winner, "A");
      return rating(winner.id);
    }

    it("leaves a farmer bot's rating unchanged after 10 wins over 5 sock bots registered from its address", async () => {
      const farmer = await register("Farmer", "10.9.5.1");
      const socks = [];
      for (let i = 0; i < 5; i++) socks.push(await register(`Sock ${i}`, "10.9.5.1"));
      const ratings: number[] = [];
      for (let i = 0; i < 10; i++) ratings.push(await botWins(farmer, socks[i % socks.length]));
      assert.deepEqual(new Set(ratings), new Set([1500]), `the farmer's rating after each win: ${ratings.join(", ")}`);
      const profile = (await http(server.url, "GET", `/api/v1/players/${farmer.id}`)).json.player;
      assert.equal(profile.games, 10, "the games still count in the record");
    });

    it("does not rate a bot's win over a guest made from the bot's own address", async () => {
      const bot = await register("Homegrown", "10.9.6.1");
      assert.equal(await botWins(bot, { guestAddress: "10.9.6.1" }), 1500);
    });

    it("rates games of bots registered from different addresses, and against a guest of another address", async () => {
      const bot = await register("Visitor", "10.9.7.1");
      const other = await register("Stranger", "10.9.7.2");
      const afterBot = await botWins(bot, other);
      assert.ok(afterBot > 1500, `rating after a rated win over another address's bot: ${afterBot}`);
      const afterGuest = await botWins(bot, { guestAddress: "10.9.8.1" });
      assert.ok(afterGuest > afterBot, `rating after a rated win over another address's guest: ${afterGuest}`);
    });
  });
});
