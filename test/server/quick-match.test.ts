import { strict as assert } from "node:assert";
import { Client } from "@colyseus/sdk";
import type { RunningServer } from "../../src/server";
import { playRest } from "../support/play";
import { bootServer, http } from "../support/server";
import { consumeWs } from "../support/ws";

describe("Integration: quick-match through Colyseus matchmaking", function () {
  this.timeout(60_000);
  let server: RunningServer;
  before(async () => {
    server = await bootServer();
  });
  after(async () => server.close());

  it("pairs two REST agents: the first waits on its ticket, the second is matched at once", async () => {
    const first = await http(server.url, "POST", "/api/v1/games/quick-match", { ruleset: "mutators", name: "One" });
    assert.equal(first.status, 202);
    assert.equal(first.json.status, "queued");
    assert.match(first.json.ticket, /^qm_/);
    const polling = http(server.url, "GET", `/api/v1/games/quick-match/${first.json.ticket}?timeout=10`);
    const second = await http(server.url, "POST", "/api/v1/games/quick-match", { ruleset: "mutators", name: "Two", wait: 5, reserveSeat: true });
    assert.equal(second.status, 200);
    assert.equal(second.json.status, "matched");
    const matched = await polling;
    assert.equal(matched.status, 200);
    assert.equal(matched.json.status, "matched");
    assert.equal(matched.json.game.id, second.json.game.id);
    assert.notEqual(matched.json.seat, second.json.seat);
    assert.equal(matched.json.game.ruleset, "mutators");
    // Asked for, the matched answer carries the seat's reservation; not asked for, none.
    assert.equal(second.json.seatReservation.roomId, second.json.game.id);
    assert.equal(matched.json.seatReservation, undefined);
    const ws = await consumeWs(server.url, second.json.seatReservation);
    assert.equal(ws.room.roomId, second.json.game.id);
    await ws.leave();
    assert.equal(matched.json.game.mutators.length, 2);
    const ends = await Promise.all([
      playRest(server.url, matched.json.game.id, matched.json.playerToken),
      playRest(server.url, second.json.game.id, second.json.playerToken),
    ]);
    assert.equal(ends[0].status, "finished");
  });

  it("pairs a WebSocket client in the queue room with a REST agent", async () => {
    const client = new Client(server.url);
    const queue = await client.joinOrCreate("quick", { ruleset: "classic", name: "Socket" });
    const matchedMsg = new Promise<any>((resolve) => queue.onMessage("matched", resolve));
    queue.onMessage("queued", () => undefined);
    const rest = await http(server.url, "POST", "/api/v1/games/quick-match", { ruleset: "classic", name: "Rest", wait: 10 });
    assert.equal(rest.status, 200);
    const m = await matchedMsg;
    assert.equal(m.gameId, rest.json.game.id);
    assert.match(m.playerToken, /^pt_/);
    await queue.leave();
    // The reservation came with the match: the seat connects without a matchmaking request.
    assert.equal(m.seatReservation.roomId, m.gameId);
    assert.ok(!JSON.stringify(m.seatReservation).includes(m.playerToken), "the reservation does not repeat the token");
    const ws = await consumeWs(server.url, m.seatReservation);
    assert.equal(ws.room.roomId, m.gameId);
    const [wsEnd, restEnd] = await Promise.all([ws.playToEnd(), playRest(server.url, rest.json.game.id, rest.json.playerToken)]);
    assert.equal(wsEnd.status, "finished");
    assert.equal(restEnd.moveCount, 16);
  });

  it("leaves the queue with DELETE and forgets unknown tickets", async () => {
    const q = await http(server.url, "POST", "/api/v1/games/quick-match", { ruleset: "classic" });
    assert.equal(q.status, 202);
    const left = await http(server.url, "DELETE", `/api/v1/games/quick-match/${q.json.ticket}`);
    assert.equal(left.status, 200);
    assert.equal(left.json.removed, true);
    assert.equal((await http(server.url, "GET", `/api/v1/games/quick-match/${q.json.ticket}`)).status, 404);
    // A later agent is not paired with the one that left.
    const next = await http(server.url, "POST", "/api/v1/games/quick-match", { ruleset: "classic" });
    assert.equal(next.status, 202);
    await http(server.url, "DELETE", `/api/v1/games/quick-match/${next.json.ticket}`);
    assert.equal((await http(server.url, "GET", "/api/v1/games/quick-match/qm_doesnotexist")).json.code, "not_found");
  });
});
