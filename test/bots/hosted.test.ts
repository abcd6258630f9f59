/**
 * An agent challenge hosted by the agent's own bot, end to end on a real server: the bot is told of the game
 * (seat and token) on its event stream and plays it; the person plays over REST (as the browser does); the
 * verified result is read as for house challenges.
 */
import { strict as assert } from "node:assert";
import type { RunningServer } from "../../src/server";
import { playToEnd, waitForJson } from "../agents/play";
import { bearer, bootServer, eventually, http } from "../support/server";

describe("Integration: a bot as the hosted agent", function () {
  this.timeout(60_000);
  let server: RunningServer;
  before(async () => (server = await bootServer()));
  after(async () => server?.close());

  it("plays the person who accepts the agent's challenge, and the challenge reports the verified result", async () => {
    const { key, bot } = (await http(server.url, "POST", "/api/v1/bots", { name: "Host" })).json;
    assert.equal((await http(server.url, "POST", "/api/v1/agent/challenge", { agent: { name: "host-agent" }, opponent: "bot" })).status, 401);
    const ch = await http(server.url, "POST", "/api/v1/agent/challenge", { agent: { name: "host-agent" }, opponent: "bot" }, bearer(key));
    assert.equal(ch.status, 201, ch.text);

    // The bot listens on its stream and plays whatever seat it is given there.
    const ctl = new AbortController();
    const stream = await fetch(`${server.url}/api/v1/stream/events`, { headers: bearer(key), signal: ctl.signal });
    const events: any[] = [];
    void (async () => {
      let buf = "";
      try {
        for await (const chunk of stream.body as unknown as AsyncIterable<Uint8Array>) {
          buf += Buffer.from(chunk).toString();
          for (let nl = buf.indexOf("\n"); nl >= 0; nl = buf.indexOf("\n")) {
            const line = buf.slice(0, nl).trim();
            buf = buf.slice(nl + 1);
            if (line) events.push(JSON.parse(line));
          }
        }
      } catch {
        // closed by the test
      }
    })();

    const accepted = await http(server.url, "POST", `/api/v1/agent/challenge/${ch.json.token}/accept`, { name: "Person" });
    assert.equal(accepted.status, 200, accepted.text);
    const gameId = accepted.json.game.id as string;
    const players = accepted.json.game.players;
    assert.deepEqual(new Set([players.A.kind, players.B.kind]), new Set(["human", "bot"]));
    await eventually(() => events.some((e) => e.type === "gameStart" && e.gameId === gameId), "the bot's gameStart");
    const start = events.find((e) => e.type === "gameStart");
    assert.match(start.playerToken, /^pt_/);
    assert.notEqual(start.seat, accepted.json.seat);

    const [botEnd, personEnd] = await Promise.all([playToEnd(server.url, gameId, start.playerToken), playToEnd(server.url, gameId, accepted.json.playerToken)]);
    assert.deepEqual(new Set([botEnd.result, personEnd.result]), botEnd.result === "draw" ? new Set(["draw"]) : new Set(["win", "loss"]));
    const played = await waitForJson(server.url, `/api/v1/agent/challenge/${ch.json.token}`, (j) => j.status === "played");
    assert.equal(played.result.winner, personEnd.winner);
    assert.equal(played.result.humanSeat, accepted.json.seat);
    await eventually(() => events.some((e) => e.type === "gameFinish" && e.gameId === gameId), "the bot's gameFinish");
    assert.equal(events.find((e) => e.type === "gameFinish").result, botEnd.result);
    await waitForJson(server.url, `/api/v1/players/${bot.id}`, (j) => j.player.games === 1);
    ctl.abort();
  });
});
