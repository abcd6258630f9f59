/**
 * Private games on a running server: casual (no rating change, no rating point), never in the public log,
 * its exports or the public lists, and readable by their two seats alone. Anyone else is answered as for a
 * game that does not exist, on every read (REST, the game stream, the log proof, the spectator join, event
 * subscriptions, MCP); a rematch stays private.
 */
import assert from "node:assert/strict";
import type { RunningServer } from "../../src/server";
import { playToEnd } from "../agents/play";
import { bearer, bootServer, http } from "../support/server";
import { connect, type McpTestClient } from "../mcp/helpers";

describe("Integration: private games", function () {
  this.timeout(90_000);
  let server: RunningServer;
  let mcp: McpTestClient;
  /** A public house game played to its end, in the log: the control every private read is compared with. */
  let pub: { id: string; token: string; playerId: string };
  /** A private house game played to its end. */
  let priv: { id: string; token: string; playerId: string };

  before(async () => {
    server = await bootServer({ logBatchMs: 50 });
    mcp = await connect(server.url);
    const play = async (isPublic: boolean, name: string) => {
      const created = await http(server.url, "POST", "/api/v1/games", { opponent: "house", level: "easy", name, public: isPublic });
      assert.equal(created.status, 201, created.text);
      const id = created.json.game.id as string;
      const token = created.json.playerToken as string;
      await playToEnd(server.url, id, token);
      return { id, token, playerId: created.json.player.id as string };
    };
    pub = await play(true, "Ann");
    priv = await play(false, "Bo");
    // The public game's batch is in the log; the private game finished before its own batch could follow.
    for (let i = 0; i < 200 && (await http(server.url, "GET", `/api/v1/log/games/${pub.id}/proof`)).status !== 200; i++)
      await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300));
  });
  after(async () => {
    await mcp?.close();
    await server?.close();
  });

  /** The problem document an unknown game is answered with, at `path` with `{id}` in it. */
  async function unknownAt(path: string) {
    return http(server.url, "GET", path.replace("{id}", "g_nosuchgame0000"));
  }

  it("leaves the players' ratings alone: no rating change and no rating point", async function () {
    const ratings = (id: string) => http(server.url, "GET", `/api/v1/players/${id}/ratings`);
    assert.equal((await ratings(pub.playerId)).json.ratings.length, 1, "the public game is rated (the control)");
    const points = await ratings(priv.playerId);
    assert.equal(points.status, 200, points.text);
    assert.deepEqual(points.json.ratings, []);
    const profile = (await http(server.url, "GET", `/api/v1/players/${priv.playerId}`)).json;
    assert.equal(profile.player.rating, 1500);
    assert.deepEqual((await mcp.ok("player_ratings", { player_id: priv.playerId })).ratings, []);
  });

  it("answers an outsider's every REST read of the game as for an unknown game", async function () {
    for (const path of [
      "/api/v1/games/{id}",
      "/api/v1/games/{id}/sync",
      "/api/v1/games/{id}/replay",
      "/api/v1/games/{id}/review",
      "/api/v1/stream/games/{id}",
    ]) {
      const unknown = await unknownAt(path);
      const got = await http(server.url, "GET", path.replace("{id}", priv.id));
      assert.equal(got.status, 404, `${path}: ${got.text}`);
      assert.equal(got.headers.get("content-type")?.split(";")[0], "application/problem+json");
      assert.deepEqual(
        { ...got.json, detail: got.json.detail.replace(priv.id, "ID"), instance: undefined },
        { ...unknown.json, detail: unknown.json.detail.replace("g_nosuchgame0000", "ID"), instance: undefined },
        path,
      );
      // A token that is not one of its seats' is no better than none.
      assert.equal((await http(server.url, "GET", path.replace("{id}", priv.id), undefined, bearer(pub.token))).status, 404, path);
    }
    const proof = await http(server.url, "GET", `/api/v1/log/games/${priv.id}/proof`);
    assert.equal(proof.status, 404);
    assert.equal(proof.json.detail.replace(priv.id, "ID"), (await unknownAt("/api/v1/log/games/{id}/proof")).json.detail.replace("g_nosuchgame0000", "ID"));
  });

  it("answers its seats' reads", async function () {
    for (const path of ["/api/v1/games/{id}", "/api/v1/games/{id}/sync", "/api/v1/games/{id}/replay", "/api/v1/games/{id}/review"]) {
      const got = await http(server.url, "GET", path.replace("{id}", priv.id), undefined, bearer(priv.token));
      assert.equal(got.status, 200, `${path}: ${got.text}`);
    }
    const record = await http(server.url, "GET", `/api/v1/games/${priv.id}`, undefined, bearer(priv.token));
    assert.equal(record.json.public, false);
    assert.equal(record.json.logIndex, undefined, "never in the log");
    assert.equal((await mcp.ok("get_game", { game_id: priv.id, player_token: priv.token })).id, priv.id);
    assert.equal((await mcp.ok("replay", { game_id: priv.id, player_token: priv.token })).gameId ?? priv.id, priv.id);
  });

  it("answers an outsider's MCP reads as for an unknown game", async function () {
    for (const [tool, args] of [
      ["get_game", {}],
      ["sync", {}],
      ["replay", {}],
      ["review", {}],
      ["log_inclusion_proof", {}],
      ["get_game", { player_token: pub.token }],
    ] as const) {
      const r = await mcp.raw(tool, { game_id: priv.id, ...args });
      assert.equal(r.isError, true, tool);
      assert.equal(r.structuredContent?.code, "not_found", `${tool}: ${JSON.stringify(r.structuredContent)}`);
    }
    assert.equal((await mcp.raw("get_game", { game_id: pub.id })).isError, undefined, "a public game is read by anyone");
  });

  it("keeps the game out of the public log, its exports and the public lists", async function () {
    const head = (await http(server.url, "GET", "/api/v1/log/head")).json;
    assert.ok(head.size >= 1);
    const { entries } = (await http(server.url, "GET", `/api/v1/log/entries?from=0&count=1000`)).json;
    assert.ok(entries.some((e: { entry: { gameId?: string } }) => e.entry.gameId === pub.id));
    assert.deepEqual(
      entries.filter((e: { entry: { kind: string } }) => e.entry.kind !== "game"),
      [],
      "no private entry",
    );
    const mcpEntries = await mcp.ok("log_entries", { from: 0, count: 1000 });
    assert.equal(mcpEntries.entries.length, entries.length);
    const exported = await http(server.url, "GET", `/api/v1/exports/games?from=0&to=${head.size as number}`);
    assert.equal(exported.status, 200, exported.text);
    assert.ok(exported.text.includes(pub.id) && !exported.text.includes(priv.id));
    const listed = await http(server.url, "GET", "/api/v1/games?status=finished&limit=100");
    assert.ok(listed.json.games.some((g: { id: string }) => g.id === pub.id));
    assert.ok(!listed.json.games.some((g: { id: string }) => g.id === priv.id));
    assert.deepEqual((await http(server.url, "GET", `/api/v1/players/${priv.playerId}/games`)).json.games, []);
  });

  it("refuses a spectator's seat reservation and a game event subscription without a seat's token", async function () {
    const unknown = await http(server.url, "POST", "/matchmake/joinById/g_nosuchgame0000", {});
    const created = await http(server.url, "POST", "/api/v1/games", { opponent: "friend", name: "Cy", public: false });
    const id = created.json.game.id as string;
    const watcher = await http(server.url, "POST", `/matchmake/joinById/${id}`, {});
    assert.equal(watcher.status, 404, watcher.text);
    assert.deepEqual({ ...watcher.json, instance: undefined }, { ...unknown.json, instance: undefined });
    const seat = await http(server.url, "POST", `/matchmake/joinById/${id}`, { playerToken: created.json.playerToken });
    assert.equal(seat.status, 200, seat.text);
    const subscribe = (gameId: string) =>
      http(server.url, "POST", "/api/v1/games/events/subscribe", {
        name: "game.move",
        arguments: { game_id: gameId },
        delivery: { mode: "webhook", url: "https://127.0.0.1:9/hook", secret: `whsec_${Buffer.alloc(24, 7).toString("base64")}` },
      });
    const refused = await subscribe(id);
    assert.equal(refused.status, 404, refused.text);
    assert.equal(refused.json.detail.replace(id, "ID"), (await subscribe("g_nosuchgame0000")).json.detail.replace("g_nosuchgame0000", "ID"));
  });

  it("keeps a rematch private", async function () {
    const created = await http(server.url, "POST", "/api/v1/games", { opponent: "friend", name: "Di", public: false });
    const id = created.json.game.id as string;
    const a = created.json.playerToken as string;
    const joined = await http(server.url, "POST", "/api/v1/games/join", { code: created.json.code, name: "Ed" });
    assert.equal(joined.status, 200, joined.text);
    const b = joined.json.playerToken as string;
    await Promise.all([playToEnd(server.url, id, a), playToEnd(server.url, id, b)]);
    const offered = await http(server.url, "POST", `/api/v1/games/${id}/rematch`, undefined, bearer(a));
    assert.equal(offered.status, 200, offered.text);
    const accepted = await http(server.url, "POST", `/api/v1/games/${id}/rematch`, undefined, bearer(b));
    assert.equal(accepted.status, 200, accepted.text);
    const next = accepted.json.game.id as string;
    assert.equal(accepted.json.game.playerToken, b);
    assert.equal((await http(server.url, "GET", `/api/v1/games/${next}`)).status, 404, "an outsider does not see the rematch");
    const mine = await http(server.url, "GET", `/api/v1/games/${next}`, undefined, bearer(b));
    assert.equal(mine.status, 200, mine.text);
    assert.equal(mine.json.public, false);
    const listed = await http(server.url, "GET", "/api/v1/games?limit=100");
    assert.ok(!listed.json.games.some((g: { id: string }) => g.id === next || g.id === id));
  });
});
