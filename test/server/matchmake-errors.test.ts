import { strict as assert } from "node:assert";
import type { WebSocket } from "ws";
import type { RunningServer } from "../../src/server";
import { openJoined, reserveSeat, socketUrl } from "../support/raw-ws";
import { seatedFriendGame } from "../support/play";
import { bootServer, http } from "../support/server";

const problem = (r: { status: number; headers: Headers; json: any }, status: number, code: string) => {
  assert.equal(r.status, status, JSON.stringify(r.json));
  assert.match(r.headers.get("content-type") ?? "", /^application\/problem\+json/);
  assert.equal(r.json.code, code);
  assert.equal(r.json.status, status);
  assert.equal(r.headers.get("api-version"), "1");
};

describe("Integration: matchmaking refusals, preflights and room requests", function () {
  this.timeout(60_000);
  let server: RunningServer;
  let id: string;
  before(async () => {
    server = await bootServer();
    ({ id } = await seatedFriendGame(server.url));
  });
  after(async () => server?.close());

  it("answers an unknown room id, room name or method with a 404 problem document", async () => {
    problem(await http(server.url, "POST", "/matchmake/joinById/nosuchroom", {}), 404, "not_found");
    problem(await http(server.url, "POST", "/matchmake/joinOrCreate/nosuchname", {}), 404, "not_found");
    problem(await http(server.url, "POST", "/matchmake/teleport/game", {}), 404, "not_found");
  });

  it("answers an expired or missing reconnection token with a 4xx problem document", async () => {
    problem(await http(server.url, "POST", `/matchmake/reconnect/${id}`, { reconnectionToken: "abc:def" }), 410, "code_expired");
    problem(await http(server.url, "POST", `/matchmake/reconnect/${id}`, {}), 400, "bad_request");
  });

  it("answers a room's own refusal with its status and code, and a malformed body with bad_request", async () => {
    const refused = await http(server.url, "POST", "/matchmake/joinOrCreate/quick", { ruleset: "chess" });
    problem(refused, 400, "bad_request");
    assert.match(refused.json.detail, /ruleset/);
    problem(await http(server.url, "POST", "/matchmake/joinById/" + id, "{nope"), 400, "bad_request");
  });

  it("carries API-Version on CORS preflights, of the API and of matchmaking", async () => {
    for (const path of ["/api/v1/games", "/matchmake/joinById/x", "/mcp"]) {
      const r = await fetch(`${server.url}${path}`, { method: "OPTIONS", headers: { origin: "https://example.com", "access-control-request-method": "POST" } });
      assert.equal(r.status, 204, path);
      assert.equal(r.headers.get("api-version"), "1", path);
      assert.ok(r.headers.get("access-control-allow-origin"), path);
    }
  });

  it("closes a socket that sends a room request (protocol 21) without answering it, and the game is unchanged", async () => {
    const before = JSON.stringify((await http(server.url, "GET", `/api/v1/games/${id}`)).json);
    const ws: WebSocket = await openJoined(socketUrl(server.url, await reserveSeat(server.url, id)));
    ws.send(Buffer.from([0x0a])); // JOIN_ROOM acknowledged, as the SDK does
    const frames: Buffer[] = [];
    ws.on("message", (d: Buffer) => frames.push(d));
    const closed = new Promise<number>((resolve) => ws.once("close", (code) => resolve(code)));
    // ROOM_REQUEST, request id 1, type "move" (a string), then a msgpack payload of the wrong shape (nil).
    ws.send(Buffer.from([21, 1, 0xa4, ...Buffer.from("move"), 0xc0]));
    const code = await Promise.race([closed, new Promise<number>((r) => setTimeout(() => r(-1), 3000))]);
    ws.terminate();
    assert.equal(code, 4008, "the socket was closed as a policy violation");
    const text = Buffer.concat(frames).toString("latin1");
    assert.doesNotMatch(text, /TypeError|Cannot read|undefined/);
    assert.equal(frames.filter((f) => f[0] === 22).length, 0, "no room response was sent");
    assert.equal(JSON.stringify((await http(server.url, "GET", `/api/v1/games/${id}`)).json), before);
  });
});
