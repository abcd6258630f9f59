/**
 * Bots seeking a game through the quick-match queue on a real server: two keyed bots are paired, both seats
 * are their one profiles marked as bots, the game is played to the end and rated. The bot that waited in the
 * queue learns of its game from its event stream alone (seat and seat token in gameStart), without polling
 * its ticket, as a bot that only listens to its stream must.
 */
import { strict as assert } from "node:assert";
import type { RunningServer } from "../../src/server";
import { playToEnd, waitForJson } from "../agents/play";
import { bearer, bootServer, eventually, http } from "../support/server";
import { openStream } from "../support/ndjson";

describe("Integration: bots through the quick-match queue", function () {
  this.timeout(60_000);
  let server: RunningServer;
  before(async () => (server = await bootServer({ houseDelayMs: 0 })));
  after(async () => server?.close());

  const register = async (name: string) => (await http(server.url, "POST", "/api/v1/bots", { name })).json as { key: string; bot: { id: string } };

  it("pairs two bots, tells the queued one on its stream alone, and rates the game they play", async () => {
    const one = await register("Queuer");
    const two = await register("Latecomer");
    const s1 = await openStream(`${server.url}/api/v1/stream/events`, bearer(one.key));
    const s2 = await openStream(`${server.url}/api/v1/stream/events`, bearer(two.key));

    const queued = await http(server.url, "POST", "/api/v1/games/quick-match", { ruleset: "classic" }, bearer(one.key));
    assert.equal(queued.status, 202, queued.text);
    assert.equal(queued.json.status, "queued");
    const matched = await http(server.url, "POST", "/api/v1/games/quick-match", { ruleset: "classic" }, bearer(two.key));
    assert.equal(matched.status, 200, matched.text);
    assert.equal(matched.json.player.id, two.bot.id);
    const gameId = matched.json.game.id as string;
    const players = matched.json.game.players;
    assert.deepEqual([players.A.kind, players.B.kind], ["bot", "bot"]);
    assert.deepEqual(new Set([players.A.id, players.B.id]), new Set([one.bot.id, two.bot.id]));

    // The queued bot never polls its ticket: its stream gives it the seat and the seat's token.
    await eventually(() => s1.lines.some((e) => e.type === "gameStart" && e.gameId === gameId), "gameStart on the queued bot's stream");
    const start = s1.lines.find((e) => e.type === "gameStart" && e.gameId === gameId);
    assert.equal(start.seat, matched.json.seat === "A" ? "B" : "A");
    assert.match(start.playerToken, /^pt_/);
    await eventually(() => s2.lines.some((e) => e.type === "gameStart" && e.gameId === gameId), "gameStart on the matched bot's stream");

    const [end1, end2] = await Promise.all([playToEnd(server.url, gameId, start.playerToken), playToEnd(server.url, gameId, matched.json.playerToken)]);
    const results = [end1.result, end2.result].sort();
    assert.ok(["draw,draw", "loss,win"].includes(results.join(",")), `results ${results.join(",")}`);
    await eventually(() => [s1, s2].every((s) => s.lines.some((e) => e.type === "gameFinish" && e.gameId === gameId)), "gameFinish on both streams");
    assert.equal(s1.lines.find((e) => e.type === "gameFinish").result, end1.result);
    for (const b of [one, two]) {
      const p = await waitForJson(server.url, `/api/v1/players/${b.bot.id}`, (j) => j.player.games === 1);
      assert.equal(p.player.kind, "bot");
    }
    const ticket = await http(server.url, "GET", `/api/v1/games/quick-match/${queued.json.ticket}`, undefined, bearer(one.key));
    assert.equal(ticket.json.playerToken, start.playerToken, "the ticket and the stream name the same seat token");
    s1.close();
    s2.close();
  });
});
