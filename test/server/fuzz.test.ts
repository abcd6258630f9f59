import { strict as assert } from "node:assert";
import fc from "fast-check";
import { Client } from "@colyseus/sdk";
import type { RunningServer } from "../../src/server";
import { bearer, bootServer, http } from "../support/server";

/** Random JSON-ish values, including the awkward ones (huge numbers, deep nesting, odd strings). */
const junk = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.string({ maxLength: 80 }),
  fc.constantFrom("", "{", "[]", "null", "\u0000", "{\"move\":", "%%%", "{\"__proto__\":{\"x\":1}}"),
);

// FUZZ_SCALE=N multiplies the number of random cases (CI runs the default; a longer hunt: FUZZ_SCALE=30).
describe("Fuzz: random input never breaks the server or changes a game", function () {
  this.timeout(120_000);
  let server: RunningServer;
  let id: string;
  let tokens: Record<string, string>;
  let snapshot: string;
  before(async () => {
    server = await bootServer();
    const a = await http(server.url, "POST", "/api/v1/games", { opponent: "friend" });
    const b = await http(server.url, "POST", "/api/v1/games/join", { code: a.json.code });
    id = a.json.game.id;
    tokens = { [a.json.seat]: a.json.playerToken, [b.json.seat]: b.json.playerToken };
    snapshot = JSON.stringify((await http(server.url, "GET", `/api/v1/games/${id}`)).json);
  });
  after(async () => server.close());

  const paths = () => [
    "/api/v1/games",
    "/api/v1/games/join",
    "/api/v1/games/quick-match",
    `/api/v1/games/${id}/moves`,
    `/api/v1/games/${id}/resign`,
    "/api/v1/games/events/subscribe",
    "/api/v1/games/events/unsubscribe",
  ];

  it("answers random bodies with 4xx problem documents and leaves the game untouched", async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(6), junk, fc.boolean(), async (p, body, withToken) => {
        const path = paths()[p];
        if (path.endsWith("/resign") && withToken) return; // a valid resignation is not junk
        const raw = typeof body === "string" ? body : JSON.stringify(body);
        const r = await http(server.url, "POST", path, raw, withToken ? bearer(tokens.A) : {});
        assert.ok(r.status < 500, `${path} ${raw} -> ${r.status} ${r.text}`);
        if (r.status >= 400) assert.equal(typeof r.json?.code, "string", r.text);
      }),
      { numRuns: 250 * Number(process.env.FUZZ_SCALE ?? 1) },
    );
    assert.equal(JSON.stringify((await http(server.url, "GET", `/api/v1/games/${id}`)).json), snapshot);
  });

  it("answers random query strings and ids without a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 30 }), fc.string({ maxLength: 30 }), async (q, gid) => {
        const target = `/api/v1/games/${encodeURIComponent(gid || "x")}/sync?since=${encodeURIComponent(q)}&timeout=${encodeURIComponent(q)}`;
        const r = await http(server.url, "GET", target);
        assert.ok(r.status < 500, `${target} -> ${r.status}`);
        const list = await http(server.url, "GET", `/api/v1/games?limit=${encodeURIComponent(q)}&cursor=${encodeURIComponent(gid)}`);
        assert.ok(list.status < 500, `list ${q} ${gid} -> ${list.status} ${list.text}`);
      }),
      { numRuns: 150 * Number(process.env.FUZZ_SCALE ?? 1) },
    );
  });

  it("answers not_found, never a 5xx, for ids that name Object.prototype members", async () => {
    for (const gid of ["toString", "constructor", "__proto__", "hasOwnProperty", "valueOf"]) {
      const reads = [`/api/v1/games/${gid}`, `/api/v1/games/${gid}/sync?since=0&timeout=0`, `/api/v1/games/${gid}/replay`];
      for (const target of reads) {
        const r = await http(server.url, "GET", target);
        assert.equal(r.status, 404, `${target} -> ${r.status} ${r.text}`);
        assert.equal(r.json?.code, "not_found");
      }
      const move = await http(server.url, "POST", `/api/v1/games/${gid}/moves`, { move: "x" }, bearer(tokens.A));
      assert.ok(move.status === 404 || move.status === 401, `moves ${gid} -> ${move.status} ${move.text}`);
      await assert.rejects(new Client(server.url).joinById(gid, {}), /not found/);
    }
    assert.equal(JSON.stringify((await http(server.url, "GET", `/api/v1/games/${id}`)).json), snapshot);
  });

  it("survives random WebSocket messages from seats and spectators without a state change", async () => {
    const client = new Client(server.url);
    const seat = await client.joinById(id, { playerToken: tokens.B });
    const watcher = await client.joinById(id, {});
    const refused: unknown[] = [];
    for (const r of [seat, watcher]) {
      r.onMessage("refused", (m) => refused.push(m));
      r.onMessage("moved", () => undefined);
    }
    const types = fc.constantFrom("move", "resign-x", "chat", "move ", "", "__proto__");
    // Paced below the rooms' per-client message limit (20/s), so every message reaches the room.
    const samples = fc.sample(fc.tuple(types, junk, fc.boolean()), 80);
    for (const [type, message, asSeat] of samples) {
      (asSeat ? seat : watcher).send(type || "move", message);
      await new Promise((r) => setTimeout(r, 40));
    }
    await new Promise((r) => setTimeout(r, 500));
    assert.ok(refused.length > 0);
    assert.equal(JSON.stringify((await http(server.url, "GET", `/api/v1/games/${id}`)).json), snapshot);
    assert.equal((await http(server.url, "GET", "/healthz")).status, 200);
    await seat.leave();
    await watcher.leave();
  });

  it("drops a client that floods the room with messages, and the game goes on", async () => {
    const client = new Client(server.url);
    const seat = await client.joinById(id, { playerToken: tokens.A });
    const flooder = await client.joinById(id, {});
    flooder.onMessage("refused", () => undefined);
    const dropped = new Promise<number>((resolve) => flooder.onLeave((code) => resolve(code)));
    for (let i = 0; i < 100; i++) flooder.send("move", { card: "E1", square: "a1" });
    const code = await Promise.race([dropped, new Promise<number>((r) => setTimeout(() => r(-1), 5000))]);
    assert.notEqual(code, -1, "the flooding client was not dropped");
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(seat.state.status, "active");
    assert.equal(JSON.stringify((await http(server.url, "GET", `/api/v1/games/${id}`)).json), snapshot);
    await seat.leave();
  });
});
