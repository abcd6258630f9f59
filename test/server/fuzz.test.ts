import { strict as assert } from "node:assert";
import fc from "fast-check";
import { matchMaker, Room } from "@colyseus/core";
import { Client } from "@colyseus/sdk";
import type { RunningServer } from "../../src/server";
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { WebSocket } from "ws";
import { floodUntilClosed, openJoined, probeHealth, reserveSeat, socketUrl } from "../support/raw-ws";
import { seatedFriendGame } from "../support/play";
import { bearer, bootServer, http } from "../support/server";

/** Random JSON-ish values, including the awkward ones (huge numbers, deep nesting, odd strings). */
const junk = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.string({ maxLength: 80 }),
  fc.constantFrom("", "{", "[]", "null", "\u0000", '{"move":', "%%%", '{"__proto__":{"x":1}}'),
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
    ({ id, tokens } = await seatedFriendGame(server.url));
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

  // The attacks of issue 12 (a PING flood from a spectator seat, raw frames of other protocol types, sockets
  // with no reservation). The 1 s bounds are generous functional checks: the budget is 20 frames a second.
  for (const [what, byte] of [
    ["PING (0x12)", 0x12],
    ["ROOM_INPUT (0x13)", 0x13],
    ["unknown (0x00)", 0x00],
  ] as const) {
    it(`closes a spectator socket that floods ${what} frames, and /healthz keeps answering`, async () => {
      const ws = await openJoined(socketUrl(server.url, await reserveSeat(server.url, id)));
      ws.send(Buffer.from([0x0a])); // JOIN_ROOM acknowledged, as the SDK does
      const flood = floodUntilClosed(ws, Buffer.from([byte]), 1000);
      const health = await probeHealth(server.url, flood);
      const { code, sent } = await flood;
      assert.equal(code, 4008, `closed with ${code} after ${sent} frames`);
      for (const h of health) assert.ok(h.status === 200 && h.ms < 1000, `healthz ${JSON.stringify(h)} during the flood`);
    });
  }

  it("closes five flooding sockets at once while the game's seats play on", async () => {
    const sockets = await Promise.all([1, 2, 3, 4, 5].map(async () => openJoined(socketUrl(server.url, await reserveSeat(server.url, id)))));
    const floods = Promise.all(sockets.map((ws) => floodUntilClosed(ws, Buffer.from([0x12]), 1000)));
    const health = await probeHealth(server.url, floods);
    for (const { code } of await floods) assert.equal(code, 4008);
    for (const h of health) assert.ok(h.status === 200 && h.ms < 1000, `healthz ${JSON.stringify(h)} during the floods`);
    assert.equal(JSON.stringify((await http(server.url, "GET", `/api/v1/games/${id}`)).json), snapshot);
  });

  it("refuses a socket with no seat reservation before the handshake", async () => {
    const fake = { sessionId: "nosuchsession", roomId: id, processId: "p" };
    for (const url of [server.url.replace(/^http/, "ws") + "/", socketUrl(server.url, fake)]) {
      const { status, type, body } = await new Promise<{ status: number; type: string | undefined; body: string }>((resolve, reject) => {
        const ws = new WebSocket(url);
        ws.once("open", () => reject(new Error(`${url} was opened`)));
        ws.once("unexpected-response", (_req, res) => {
          let text = "";
          res.on("data", (c: Buffer) => (text += c.toString()));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, type: res.headers["content-type"], body: text }));
        });
        ws.once("error", reject);
      });
      assert.equal(status, 403, url);
      assert.equal(type, "application/problem+json");
      assert.equal(JSON.parse(body).status, 403);
      assert.match(JSON.parse(body).detail, /no seat reservation/);
    }
  });

  it("keeps serving when clients reset their sockets while the refusal is written", async () => {
    const { port } = new URL(server.url);
    const upgrade = (path: string) =>
      `GET ${path} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`;
    const resets = Array.from(
      { length: 100 },
      (_, i) =>
        new Promise<void>((resolve) => {
          const socket = connect(Number(port), "127.0.0.1", () => {
            socket.write(upgrade(i % 2 ? "/" : `/${id}/nosuchsession`));
            // A reset (RST, not FIN) as the 403 goes out: writing the refusal then fails with ECONNRESET or EPIPE.
            setTimeout(() => socket.resetAndDestroy(), i % 3);
          });
          socket.on("error", () => {});
          socket.on("close", () => resolve());
        }),
    );
    await Promise.all(resets);
    assert.equal((await http(server.url, "GET", "/healthz")).status, 200);
    assert.equal(JSON.stringify((await http(server.url, "GET", `/api/v1/games/${id}`)).json), snapshot);
  });

  it("refuses a reservation's socket a second time once it has been used", async () => {
    const r = await reserveSeat(server.url, id);
    const ws = await openJoined(socketUrl(server.url, r));
    ws.close();
    const status = await new Promise<number>((resolve, reject) => {
      const again = new WebSocket(socketUrl(server.url, r));
      again.once("open", () => reject(new Error("a used reservation was opened again")));
      again.once("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
      again.once("error", reject);
    });
    assert.equal(status, 403);
  });

  /**
   * POSTs `total` bytes of a JSON array in 64 KiB chunks, chunked (no Content-Length); stops at the answer,
   * or with `untilClosed` goes on writing until the server ends the connection (`closedAfter` bytes).
   */
  function postChunked(path: string, total: number, untilClosed = false): Promise<{ status: number; body: string; sent: number; closedAfter: number }> {
    return new Promise((resolve, reject) => {
      const url = new URL(path, server.url);
      let sent = 0;
      let answered = false;
      let closed = false;
      let answer: { status: number; body: string; sent: number } | null = null;
      const settle = () => answer && (!untilClosed || closed) && resolve({ ...answer, closedAfter: sent });
      const req = httpRequest(
        { hostname: url.hostname, port: url.port, path: url.pathname, method: "POST", headers: { "content-type": "application/json" } },
        (res) => {
          answered = !untilClosed;
          let body = "";
          res.on("data", (c: Buffer) => (body += c.toString()));
          res.on("end", () => {
            answer = { status: res.statusCode ?? 0, body, sent };
            settle();
          });
        },
      );
      req.on("error", (e) => (answer || answered ? undefined : reject(e)));
      req.on("close", () => {
        closed = true;
        settle();
      });
      const chunk = Buffer.alloc(64 * 1024, "1,");
      const write = () => {
        if (answered || closed) return;
        if (sent >= total) return void req.end();
        sent += chunk.length;
        if (req.write(chunk)) setImmediate(write);
        else req.once("drain", write);
      };
      req.write("[");
      write();
    });
  }

  /** POSTs a body with its Content-Length; an answer that comes before the body was taken is kept. */
  function postSized(path: string, body: Buffer): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const url = new URL(path, server.url);
      let answered = false;
      const headers = { "content-type": "application/json", "content-length": String(body.length) };
      const req = httpRequest({ hostname: url.hostname, port: url.port, path: url.pathname, method: "POST", headers }, (res) => {
        answered = true;
        let text = "";
        res.on("data", (c: Buffer) => (text += c.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on("error", (e) => (answered ? undefined : reject(e)));
      req.end(body);
    });
  }

  it("answers 413 to a 2 MB matchmaking body and keeps none of it: the server's memory does not grow", async () => {
    const body = Buffer.from("[" + "1,".repeat(1024 * 1024) + "1]");
    // The rest of a refused body is read off the socket and dropped (so the client reads its 413): garbage,
    // which a collection takes back. What is measured is what stays after one.
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const retained = () => {
      gc();
      const m = process.memoryUsage();
      return m.heapUsed + m.arrayBuffers;
    };
    await postSized(`/matchmake/joinById/${id}`, body);
    const before = retained();
    for (let i = 0; i < 20; i++) {
      const r = await postSized(`/matchmake/joinById/${id}`, body);
      assert.equal(r.status, 413, r.body);
      assert.equal(JSON.parse(r.body).code, "payload_too_large");
    }
    const grown = retained() - before;
    assert.ok(grown < 16 * 1024 * 1024, `memory in use grew ${grown} bytes over twenty 2 MB bodies`);
  });

  it("checks a chunked body while reading it, on every route: 413 before the body has been sent", async () => {
    for (const path of [`/matchmake/joinById/${id}`, "/api/v1/games", "/mcp"]) {
      const r = await postChunked(path, 16 * 1024 * 1024);
      assert.equal(r.status, 413, `${path}: ${r.body}`);
      assert.equal(JSON.parse(r.body).code, "payload_too_large", `${path}: ${r.body}`);
      assert.ok(r.sent < 16 * 1024 * 1024, `${path}: the whole body (${r.sent} bytes) was read before the answer`);
    }
    // A route that answers without reading (a 404 here) is not made to read the rest: the connection ends.
    // Which answer comes first is a race between the route's 404 and the body's first 64 KiB chunk reaching
    // the cap (a 413 then, after which at most 16 MB more are read and dropped so that the client can read
    // it): either way the server stops reading.
    const unread = await postChunked("/no-such-page", 32 * 1024 * 1024, true);
    assert.ok([404, 413].includes(unread.status), `${unread.status}: ${unread.body}`);
    assert.ok(unread.closedAfter < 32 * 1024 * 1024, `the server took all ${unread.closedAfter} bytes`);
  });

  it("limits bodies on every route the process serves", async () => {
    const big = "[" + "1,".repeat(40 * 1024) + "1]"; // 80 KiB: past the 64 KiB default
    for (const path of ["/api/v1/games", "/mcp", "/matchmake/joinById/x", "/healthz", "/no-such-page", "/metrics"]) {
      const r = await http(server.url, "POST", path, big);
      assert.equal(r.status, 413, `${path} -> ${r.status} ${r.text}`);
      assert.equal(r.json?.code ?? (r.json?.error?.message ? "payload_too_large" : undefined), "payload_too_large", `${path}: ${r.text}`);
    }
    const ok = await http(server.url, "POST", `/matchmake/joinById/${id}`, {});
    assert.equal(ok.status, 200, ok.text);
  });

  it("closes a socket that sends a frame before it has joined its room", async () => {
    // A room whose join takes a while, so the socket is open before the join is over.
    class SlowJoinRoom extends Room {
      override async onJoin() {
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    matchMaker.defineRoomType("slow_join_test", SlowJoinRoom);
    try {
      const listing = await matchMaker.createRoom("slow_join_test", {});
      const seat = await matchMaker.reserveSeatFor(listing, {});
      const url = socketUrl(server.url, { sessionId: seat.sessionId, roomId: seat.roomId, processId: listing.processId });
      const code = await new Promise<number>((resolve, reject) => {
        const ws = new WebSocket(url);
        ws.once("open", () => ws.send(Buffer.from([0x12])));
        ws.once("close", (c) => resolve(c));
        setTimeout(() => reject(new Error("the socket was not closed")), 3000);
        ws.once("error", reject);
      });
      assert.equal(code, 4008);
      await matchMaker.getLocalRoomById(listing.roomId)?.disconnect();
    } finally {
      matchMaker.removeRoomType("slow_join_test");
    }
  });
});
