/**
 * Declining a bot challenge on a real server: only the challenged bot's key may decline; the waiting game is
 * aborted (unrated) and the challenger's stream gets `challengeDeclined`. Another key, no key, an unknown
 * code, an accepted challenge and a second decline are refused with problem documents and change nothing.
 */
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { TileArena, type ApiError } from "../../clients/typescript/client";
import type { RunningServer } from "../../src/server";
import { bearer, bootServer, eventually, http } from "../support/server";
import { openStream } from "../support/ndjson";

describe("Integration: declining a bot challenge", function () {
  this.timeout(60_000);
  let server: RunningServer;
  before(async () => (server = await bootServer({ streamHeartbeatS: 1 })));
  after(async () => server?.close());

  const register = async (name: string) =>
    (await http(server.url, "POST", "/api/v1/bots", { name })).json as { key: string; bot: { id: string; name: string } };
  const decline = (code: string, headers: Record<string, string> = {}) =>
    http(server.url, "POST", `/api/v1/bots/challenges/${code}/decline`, undefined, headers);

  it("aborts the game, unrated, when the challenged bot declines, and tells the challenger", async () => {
    const one = await register("Challenger");
    const two = await register("Declines");
    const s1 = await openStream(`${server.url}/api/v1/stream/events`, bearer(one.key));
    const ch = await http(server.url, "POST", `/api/v1/bots/${two.bot.id}/challenge`, {}, bearer(one.key));
    assert.equal(ch.status, 201, ch.text);
    const gameId = ch.json.game.id as string;

    const out = await decline(ch.json.code, bearer(two.key));
    assert.equal(out.status, 200, out.text);
    assert.deepEqual(out.json, { gameId, status: "declined" });
    const game = await http(server.url, "GET", `/api/v1/games/${gameId}`);
    assert.equal(game.json.status, "finished");
    assert.equal(game.json.decidedBy, "aborted");
    assert.equal(game.json.winner, null);
    await eventually(() => s1.lines.some((e) => e.type === "challengeDeclined"), "challengeDeclined on the challenger's stream");
    const declined = s1.lines.find((e) => e.type === "challengeDeclined");
    assert.deepEqual([declined.gameId, declined.by.id, declined.by.name], [gameId, two.bot.id, "Declines"]);
    assert.ok(!s1.lines.some((e) => e.type === "gameStart"), "a game that never began is not announced as started");
    const me = await http(server.url, "GET", "/api/v1/bots/me", undefined, bearer(one.key));
    assert.equal(me.json.player.games, 0, "an aborted challenge is not rated");

    const again = await decline(ch.json.code, bearer(two.key));
    assert.equal(again.status, 410, again.text);
    assert.equal(again.json.code, "code_expired");
    const join = await http(server.url, "POST", "/api/v1/games/join", { code: ch.json.code }, bearer(two.key));
    assert.equal(join.status, 410, "a declined challenge cannot be accepted afterwards");
    s1.close();
  });

  it("refuses another bot's key, no key and an unknown code, and leaves the challenge open", async () => {
    const one = await register("Challenger 2");
    const two = await register("Challenged 2");
    const three = await register("Bystander");
    const ch = await http(server.url, "POST", `/api/v1/bots/${two.bot.id}/challenge`, {}, bearer(one.key));
    const other = await decline(ch.json.code, bearer(three.key));
    assert.deepEqual([other.status, other.json.code], [403, "forbidden"], other.text);
    const challenger = await decline(ch.json.code, bearer(one.key));
    assert.equal(challenger.status, 403, "the challenger does not decline its own challenge");
    const none = await decline(ch.json.code);
    assert.deepEqual([none.status, none.json.code], [401, "unauthorized"], none.text);
    assert.equal(none.headers.get("content-type"), "application/problem+json; charset=utf-8");
    const unknown = await decline("ZZZZZZZZ", bearer(two.key));
    assert.deepEqual([unknown.status, unknown.json.code], [404, "not_found"], unknown.text);
    // A friend game's code is not a bot challenge's.
    const friend = await http(server.url, "POST", "/api/v1/games", { opponent: "friend" }, bearer(one.key));
    assert.equal((await decline(friend.json.code, bearer(two.key))).status, 404);
    assert.equal((await http(server.url, "GET", `/api/v1/games/${ch.json.game.id}`)).json.status, "waiting", "refusals change nothing");
    const join = await http(server.url, "POST", "/api/v1/games/join", { code: ch.json.code }, bearer(two.key));
    assert.equal(join.status, 200, join.text);
  });

  it("refuses to decline a challenge already accepted", async () => {
    const one = await register("Challenger 3");
    const two = await register("Accepts");
    const ch = await http(server.url, "POST", `/api/v1/bots/${two.bot.id}/challenge`, {}, bearer(one.key));
    const join = await http(server.url, "POST", "/api/v1/games/join", { code: ch.json.code }, bearer(two.key));
    assert.equal(join.status, 200, join.text);
    const out = await decline(ch.json.code, bearer(two.key));
    assert.deepEqual([out.status, out.json.code], [409, "already_joined"], out.text);
    assert.equal((await http(server.url, "GET", `/api/v1/games/${ch.json.game.id}`)).json.status, "active");
  });

  it("declines with the TypeScript and the Python clients", async () => {
    const one = await register("Challenger 4");
    const ts = new TileArena(server.url);
    await ts.registerBot("Declines in TypeScript");
    const py = await register("Declines in Python");
    const me = new TileArena(server.url, one.key);
    const seated = await me.challenge((await ts.call<{ id: string }>("GET", "/bots/me")).id);
    assert.deepEqual(await ts.decline(seated.code), { gameId: seated.game.id, status: "declined" });
    await assert.rejects(ts.decline(seated.code), (e: ApiError) => e.status === 410);

    const second = await me.challenge(py.bot.id);
    const script = "import json, sys; from tile_arena import TileArena; print(json.dumps(TileArena(sys.argv[1], sys.argv[2]).decline(sys.argv[3])))";
    const { stdout } = await promisify(execFile)("python3", ["-c", script, server.url, py.key, second.code], {
      env: { ...process.env, PYTHONPATH: "clients/python" },
    });
    assert.deepEqual(JSON.parse(stdout), { gameId: second.game.id, status: "declined" });
  });
});
