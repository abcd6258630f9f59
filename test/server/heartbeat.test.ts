import { strict as assert } from "node:assert";
import { WebSocket } from "ws";
import type { RunningServer } from "../../src/server";
import { openJoined, reserveSeat, socketUrl } from "../support/raw-ws";
import { bootServer, http } from "../support/server";

/**
 * The transport's heartbeat (src/edges/transport/heartbeat.ts) as a client sees it, with Colyseus' 3 s period.
 * In the slow suite (test/suites/index.cjs): its three tests wait out real periods, about 25 s in all; the
 * heartbeat's passes themselves are tested without a server or a clock in test/transport/heartbeat.test.ts.
 */
describe("Integration: the WebSocket heartbeat", function () {
  this.timeout(30_000);
  let server: RunningServer;
  let gameId: string;
  before(async () => {
    server = await bootServer();
    const a = await http(server.url, "POST", "/api/v1/games", { opponent: "friend", name: "Ann" });
    gameId = a.json.game.id;
  });
  after(async () => server.close());

  async function spectate(options: { autoPong: boolean }): Promise<WebSocket> {
    const url = socketUrl(server.url, await reserveSeat(server.url, gameId));
    const ws = await openJoined(url);
    if (!options.autoPong) (ws as unknown as { _autoPong: boolean })._autoPong = false;
    return ws;
  }

  it("pings a connected client within a period and keeps it while it answers", async () => {
    const ws = await spectate({ autoPong: true });
    let pings = 0;
    ws.on("ping", () => pings++);
    await new Promise((r) => setTimeout(r, 7000));
    assert.ok(pings >= 2, `pinged ${pings} times in 7 s`);
    assert.equal(ws.readyState, WebSocket.OPEN);
    ws.close();
  });

  it("does not ping a client that sends frames of its own, and keeps it though it answers no ping", async () => {
    const ws = await spectate({ autoPong: false });
    let pings = 0;
    ws.on("ping", () => pings++);
    // A frame a second (a WebSocket ping from the client here; a move does the same): the socket shows it is alive.
    ws.ping();
    const talk = setInterval(() => ws.ping(), 1000);
    await new Promise((r) => setTimeout(r, 10_000));
    clearInterval(talk);
    // At most the one ping a pass may have sent before the first frame arrived (three or four without the skip).
    assert.ok(pings <= 1, `pinged ${pings} times in 10 s`);
    assert.equal(ws.readyState, WebSocket.OPEN, "not cut: it was never silent for a period");
    ws.close();
  });

  it("cuts a client that stops answering pings", async () => {
    const ws = await spectate({ autoPong: false });
    const started = Date.now();
    const closed = await new Promise<number>((resolve) => ws.once("close", (code) => resolve(code)));
    // Cut after two unanswered pings: between two and three periods after the first one.
    assert.equal(closed, 1006, "terminated, not closed with a handshake");
    assert.ok(Date.now() - started < 12_000);
  });
});
