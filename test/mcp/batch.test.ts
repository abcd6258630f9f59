import { strict as assert } from "node:assert";
import { testConfig } from "../../src/shared/config";
import type { RunningServer } from "../../src/server";
import { bootServer, http } from "../support/server";
import { connect } from "./helpers";

const ACCEPT = { accept: "application/json, text/event-stream" };

/** Opens a session by hand (initialize, then initialized) and returns its id. */
async function session(url: string): Promise<string> {
  const init = await http(
    url,
    "POST",
    "/mcp",
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "batch-test", version: "1" } },
    },
    ACCEPT,
  );
  assert.equal(init.status, 200, init.text);
  const id = init.headers.get("mcp-session-id") as string;
  const ack = await http(url, "POST", "/mcp", { jsonrpc: "2.0", method: "notifications/initialized" }, { ...ACCEPT, "mcp-session-id": id });
  assert.equal(ack.status, 202, ack.text);
  return id;
}

describe("Integration: MCP batches", function () {
  this.timeout(30_000);
  let server: RunningServer;
  before(async () => {
    server = await bootServer();
  });
  after(async () => server?.close());

  it("refuses a JSON-RPC batch as a whole with -32600 and runs none of its calls", async () => {
    const id = await session(server.url);
    const before = (await http(server.url, "GET", "/api/v1/games?status=active&limit=100")).json.games.length;
    const batch = Array.from({ length: 5 }, (_, i) => ({
      jsonrpc: "2.0",
      id: 10 + i,
      method: "tools/call",
      params: { name: "create_game", arguments: { opponent: "house" } },
    }));
    const res = await http(server.url, "POST", "/mcp", batch, { ...ACCEPT, "mcp-session-id": id });
    assert.equal(res.status, 400, res.text.slice(0, 200));
    assert.equal(res.json.error.code, -32600);
    assert.match(res.json.error.message, /batch/);
    const after = (await http(server.url, "GET", "/api/v1/games?status=active&limit=100")).json.games.length;
    assert.equal(after, before, "no game was created");
    const single = await http(server.url, "POST", "/mcp", batch[0], { ...ACCEPT, "mcp-session-id": id });
    assert.equal(single.status, 200, "one call per POST still works");
  });
});

describe("Integration: long-polls per address", function () {
  this.timeout(30_000);
  let server: RunningServer;
  before(async () => {
    server = await bootServer({ limits: { ...testConfig().limits, longPollsPerAddress: 2 } });
  });
  after(async () => server?.close());

  it("refuses a third parked long-poll from one address over REST and MCP alike, and serves it again once one ends", async () => {
    const created = await http(server.url, "POST", "/api/v1/games", { opponent: "friend" });
    const game = created.json.game.id as string;
    const syncPath = `/api/v1/games/${game}/sync?since=0&timeout=15`;
    const parked = [http(server.url, "GET", syncPath), http(server.url, "GET", syncPath)];
    await new Promise((r) => setTimeout(r, 500));

    const third = await http(server.url, "GET", syncPath);
    assert.equal(third.status, 429, third.text);
    assert.equal(third.json.code, "rate_limited");
    assert.ok(Number(third.headers.get("retry-after")) > 0);
    const mcp = await connect(server.url);
    try {
      const refused = await mcp.raw("sync", { game_id: game, since: 0, timeout: 15 });
      assert.equal(refused.isError, true);
      assert.equal(refused.structuredContent.code, "rate_limited");
      assert.equal((await http(server.url, "GET", `/api/v1/games/${game}/sync?since=0&timeout=0`)).status, 200, "a read that does not wait is not a long-poll");

      const joined = await http(server.url, "POST", "/api/v1/games/join", { code: created.json.code });
      assert.equal(joined.status, 200, joined.text);
      assert.deepEqual(
        (await Promise.all(parked)).map((p) => p.status),
        [200, 200],
      );
      const again = await mcp.raw("sync", { game_id: game, since: 0, timeout: 1 });
      assert.equal(again.isError, undefined, JSON.stringify(again.structuredContent));
    } finally {
      await mcp.close();
    }
  });
});
