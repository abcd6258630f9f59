import { strict as assert } from "node:assert";
import { Writable } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import pino from "pino";
import { z } from "zod";
import { LongPolls } from "../../src/edges/api/long-polls";
import { AppError } from "../../src/shared/errors";
import { createSessionServer, type SessionDeps } from "../../src/edges/mcp/session-server";

/** A session server over fake services, with every log line kept as text. */
async function session(overrides: Partial<SessionDeps>) {
  const lines: string[] = [];
  const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
  const log = pino({ level: "debug" }, sink);
  const deps = {
    gameCreation: {},
    gamePlay: {},
    gameReads: {},
    quick: {},
    players: {},
    events: { subscriptions: {} },
    log,
    version: "test",
    longPolls: new LongPolls(20),
    address: "127.0.0.1",
    ...overrides,
  } as SessionDeps;
  const server = createSessionServer(deps);
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "unit", version: "1" });
  await Promise.all([server.connect(a), client.connect(b)]);
  return { client, lines, close: () => client.close() };
}

describe("Unit: MCP session server", () => {
  it("never logs the player token when a tool is refused", async () => {
    const gamePlay = { move: async () => Promise.reject(new AppError("unauthorized", "wrong player token for this game")) };
    const s = await session({ gamePlay: gamePlay as never });
    const r: any = await s.client.callTool({ name: "move", arguments: { game_id: "g1", player_token: "pt_secret-token-123", move: "E7@b3" } });
    assert.equal(r.structuredContent.code, "unauthorized");
    assert.ok(s.lines.some((l) => l.includes('"tool":"move"')));
    assert.ok(!s.lines.join("").includes("pt_secret-token-123"));
    await s.close();
  });

  it("answers code internal without the message when a service throws an unexpected error", async () => {
    const gameReads = { record: async () => Promise.reject(new Error("disk on fire at /var/secret")) };
    const s = await session({ gameReads: gameReads as never });
    const r: any = await s.client.callTool({ name: "get_game", arguments: { game_id: "g1" } });
    assert.equal(r.isError, true);
    assert.equal(r.structuredContent.code, "internal");
    assert.ok(!r.content[0].text.includes("disk on fire"));
    assert.ok(s.lines.some((l) => l.includes('"level":50')));
    await s.close();
  });

  it("passes validated arguments with defaults to the service when a tool is called", async () => {
    let seen: unknown[] = [];
    const gameReads = { sync: async (...args: unknown[]) => ((seen = args), { status: "active" }) };
    const s = await session({ gameReads: gameReads as never });
    const r: any = await s.client.callTool({ name: "sync", arguments: { game_id: "g1" } });
    assert.deepEqual(r.structuredContent, { status: "active" });
    assert.deepEqual(seen, ["g1", undefined, 0, 0]);
    await s.close();
  });

  it("answers -32602 for an unknown tool and other refusals of events methods as -32000 with data.code", async () => {
    const subscriptions = { unsubscribe: async () => Promise.reject(new AppError("not_found", "no game with id g1")) };
    const s = await session({ events: { subscriptions } as never });
    await assert.rejects(s.client.callTool({ name: "teleport", arguments: {} }), (e: { code: number }) => e.code === -32602);
    await assert.rejects(
      s.client.request({ method: "events/unsubscribe", params: { name: "game.move" } }, z.looseObject({})),
      (e: { code: number; data: { code: string } }) => e.code === -32000 && e.data.code === "not_found",
    );
    await s.close();
  });
});
