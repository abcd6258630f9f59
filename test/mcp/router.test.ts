import { strict as assert } from "node:assert";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import pino from "pino";
import { createMcpRouter, type McpDeps, type McpRouter } from "../../src/edges/mcp";
import { connect } from "./helpers";

/** Mounts the router at /mcp on a loopback port, trusting `trustProxy` proxies. */
async function serve(router: McpRouter, trustProxy = 0): Promise<{ http: Server; base: string }> {
  const app = express();
  if (trustProxy) app.set("trust proxy", trustProxy);
  app.use("/mcp", router);
  const http = app.listen(0, "127.0.0.1");
  await new Promise((r) => http.once("listening", r));
  return { http, base: `http://127.0.0.1:${(http.address() as AddressInfo).port}` };
}

describe("Unit: MCP router sessions", function () {
  this.timeout(20_000);
  let router: McpRouter;
  let http: Server;
  let base: string;

  before(async () => {
    const deps = {
      gameCreation: {},
      gamePlay: {},
      gameReads: {},
      quick: {},
      players: {},
      events: { subscriptions: {} },
      log: pino({ level: "silent" }),
      limits: { scale: 1 },
      idleMs: 1000,
    };
    router = createMcpRouter(deps as unknown as McpDeps);
    ({ http, base } = await serve(router));
  });
  after(async () => {
    await router.close();
    await new Promise((r) => http.close(r));
  });

  it("ends a session when it stays idle longer than idleMs, and a new one can be initialized", async () => {
    const first = await connect(base);
    const tools = (await first.client.listTools()).tools.length;
    assert.ok(tools > 0);
    await new Promise((r) => setTimeout(r, 2500));
    await assert.rejects(first.client.listTools(), /404|Session not found|unknown or expired session/i);
    await first.client.close();
    const second = await connect(base);
    assert.equal((await second.client.listTools()).tools.length, tools);
    await second.close();
  });
});

describe("Unit: MCP sessions per address", function () {
  this.timeout(20_000);
  let router: McpRouter;
  let http: Server;
  let base: string;

  before(async () => {
    const deps = {
      gameCreation: {},
      gamePlay: {},
      gameReads: {},
      quick: {},
      players: {},
      events: { subscriptions: {} },
      log: pino({ level: "silent" }),
      limits: { scale: 1000 },
      sessionsPerAddress: 3,
      maxSessions: 100,
    };
    router = createMcpRouter(deps as unknown as McpDeps);
    // One trusted proxy: X-Forwarded-For names the client, so the test can speak from several addresses.
    ({ http, base } = await serve(router, 1));
  });
  after(async () => {
    await router.close();
    await new Promise((r) => http.close(r));
  });

  const initialize = (from: string) =>
    fetch(`${base}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "x-forwarded-for": from },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      }),
    });

  it("refuses an address its next session once it holds the cap, while other addresses get in", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await initialize("203.0.113.7");
      assert.equal(r.status, 200, await r.text());
      ids.push(r.headers.get("mcp-session-id")!);
    }
    const refused = await initialize("203.0.113.7");
    assert.equal(refused.status, 429);
    assert.match(((await refused.json()) as { error: { message: string } }).error.message, /3 open sessions/);
    assert.ok(Number(refused.headers.get("retry-after")) > 0);
    const other = await initialize("198.51.100.2");
    assert.equal(other.status, 200, await other.text());

    // Ending one of its sessions gives the address room for a new one.
    const ended = await fetch(`${base}/mcp`, {
      method: "DELETE",
      headers: { "mcp-session-id": ids[0], "x-forwarded-for": "203.0.113.7", "mcp-protocol-version": "2025-06-18" },
    });
    assert.equal(ended.status, 200, await ended.text());
    assert.equal((await initialize("203.0.113.7")).status, 200);
  });
});
