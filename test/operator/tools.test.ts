/**
 * The Colyseus monitor and playground: off by default; when OPERATOR_TOOLS is on they answer only to the
 * operator's token (Bearer, or Basic with the token as password, as a browser sends it after its prompt),
 * and the monitor lists, inspects and disposes the live games' rooms (a disposed game's room reopens from
 * its stored record).
 */
import { strict as assert } from "node:assert";
import { loadConfig } from "../../src/shared/config";
import type { RunningServer } from "../../src/server";
import { bearer, bootServer, http } from "../support/server";

const TOKEN = "operator-token-0123456789";
const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}` });

describe("Operator tools: the Colyseus monitor and playground", function () {
  this.timeout(60_000);

  it("are off by default, and cannot be turned on without the token that guards them", async () => {
    assert.equal(loadConfig({}).operatorTools, false);
    assert.throws(() => loadConfig({ OPERATOR_TOOLS: "true" }), /OPERATOR_TOOLS: needs METRICS_TOKEN/);
    assert.equal(loadConfig({ OPERATOR_TOOLS: "true", METRICS_TOKEN: TOKEN }).operatorTools, true);
    const server = await bootServer({ metricsToken: TOKEN });
    try {
      for (const path of ["/colyseus/monitor/", "/colyseus/monitor/api", "/colyseus/playground/"]) {
        assert.equal((await http(server.url, "GET", path, undefined, bearer(TOKEN))).status, 404, path);
      }
    } finally {
      await server.close();
    }
  });

  describe("turned on", () => {
    let server: RunningServer;
    before(async () => {
      server = await bootServer({ metricsToken: TOKEN, operatorTools: true });
    });
    after(async () => {
      await server?.close();
    });

    it("refuse a request without the token with a problem document and a Basic prompt", async () => {
      for (const headers of [{}, bearer("not-the-token-at-all"), basic("admin", "wrong-password-here")]) {
        for (const path of ["/colyseus/monitor/", "/colyseus/monitor/api", "/colyseus/playground/"]) {
          const r = await http(server.url, "GET", path, undefined, headers);
          assert.equal(r.status, 401, path);
          assert.equal(r.json.code, "unauthorized");
          assert.match(r.headers.get("www-authenticate") ?? "", /^Basic realm=/);
        }
      }
    });

    it("serve the monitor to the token, which lists and inspects a live game's room", async () => {
      // A game against the house is live at once; a friend game waiting for its second player has no room yet.
      const created = await http(server.url, "POST", "/api/v1/games", { opponent: "house", level: "easy", name: "Ann" });
      assert.equal(created.status, 201);
      const id = created.json.game.id as string;
      const page = await http(server.url, "GET", "/colyseus/monitor/", undefined, basic("any", TOKEN));
      assert.equal(page.status, 200);
      assert.match(page.headers.get("content-type") ?? "", /html/);
      const list = await http(server.url, "GET", "/colyseus/monitor/api", undefined, bearer(TOKEN));
      assert.equal(list.status, 200, list.text);
      assert.ok(
        list.json.rooms.some((r: { roomId: string }) => r.roomId === id),
        list.text,
      );
      const inspect = await http(server.url, "GET", `/colyseus/monitor/api/room?roomId=${id}`, undefined, bearer(TOKEN));
      assert.equal(inspect.status, 200, inspect.text);
      assert.equal(inspect.json.roomId, id);
      assert.ok(Array.isArray(inspect.json.clients), inspect.text);
      // The token also still opens /metrics, both ways.
      assert.equal((await http(server.url, "GET", "/metrics", undefined, basic("prometheus", TOKEN))).status, 200);
      assert.equal((await http(server.url, "GET", "/metrics")).status, 401);
    });

    it("dispose a live game's room from the monitor; the game goes on from its stored record", async () => {
      const created = await http(server.url, "POST", "/api/v1/games", { opponent: "house", level: "easy", name: "Ann" });
      assert.equal(created.status, 201);
      const id = created.json.game.id as string;
      const token = created.json.playerToken as string;
      const listedNow = async () =>
        (await http(server.url, "GET", "/colyseus/monitor/api", undefined, bearer(TOKEN))).json.rooms.some((r: { roomId: string }) => r.roomId === id);
      assert.equal(await listedNow(), true, "the room is listed before");
      // The monitor's dispose button: the room's disconnect(), called through the API.
      const call = `/colyseus/monitor/api/room/call?roomId=${id}&method=disconnect&args=${encodeURIComponent("[]")}`;
      assert.equal((await http(server.url, "GET", call)).status, 401, "not without the token");
      const disposed = await http(server.url, "GET", call, undefined, bearer(TOKEN));
      assert.equal(disposed.status, 200, disposed.text);
      let listed = true;
      for (let i = 0; i < 50 && listed; i++) {
        listed = await listedNow();
        if (listed) await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(listed, false, "the room is gone from the monitor's list");
      // The game itself is durable: its seat still reads it and plays on.
      let sync = (await http(server.url, "GET", `/api/v1/games/${id}/sync?since=0&timeout=10`, undefined, bearer(token))).json;
      if (!sync.yourTurn) sync = (await http(server.url, "GET", `/api/v1/games/${id}/sync?since=${sync.moveCount}&timeout=10`, undefined, bearer(token))).json;
      assert.equal(sync.status, "active");
      assert.equal(sync.yourTurn, true);
      const taken = new Set(sync.state.board.map((c: { square: string }) => c.square));
      const square = ["a1", "b1", "c1", "d1", "a2"].find((q) => !taken.has(q));
      const moved = await http(server.url, "POST", `/api/v1/games/${id}/moves`, { card: sync.state.hand[0].id, square }, bearer(token));
      assert.equal(moved.status, 200, moved.text);
    });

    it("serve the playground to the token", async () => {
      const page = await http(server.url, "GET", "/colyseus/playground/", undefined, basic("any", TOKEN));
      assert.equal(page.status, 200, page.text.slice(0, 300));
      assert.match(page.headers.get("content-type") ?? "", /html/);
    });
  });
});
