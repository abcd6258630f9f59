import { strict as assert } from "node:assert";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import pino from "pino";
import { createMcpRouter, type McpDeps, type McpRouter } from "../../src/mcp";
import { connect } from "./helpers";

describe("Unit: MCP router sessions", function () {
  this.timeout(20_000);
  let router: McpRouter;
  let http: Server;
  let base: string;

  before(async () => {
    const deps = { games: {}, quick: {}, players: {}, events: { subscriptions: {} }, log: pino({ level: "silent" }), limits: { scale: 1 }, idleMs: 1000 };
    router = createMcpRouter(deps as unknown as McpDeps);
    const app = express();
    app.use("/mcp", router);
    http = app.listen(0, "127.0.0.1");
    await new Promise((r) => http.once("listening", r));
    base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  after(async () => {
    await router.close();
    await new Promise((r) => http.close(r));
  });

  it("ends a session when it stays idle longer than idleMs, and a new one can be initialized", async () => {
    const first = await connect(base);
    await first.client.listTools();
    await new Promise((r) => setTimeout(r, 2500));
    await assert.rejects(first.client.listTools(), /404|Session not found|unknown or expired session/i);
    await first.client.close();
    const second = await connect(base);
    assert.equal((await second.client.listTools()).tools.length, 12);
    await second.close();
  });
});
