import { strict as assert } from "node:assert";
import { Client } from "@colyseus/sdk";
import type { RunningServer } from "../../src/server";
import { pickMove, playRest, seatedFriendGame } from "../support/play";
import { bearer, bootServer, eventually, http } from "../support/server";
import { player } from "../support/ws";

/**
 * What a game's life shows through the server's sockets. The pipeline's own steps (the turn clock, the waiting
 * time's abort, a resignation's result) are tested on the game actor without a server: test/games/actor/game-actor.test.ts.
 */
describe("Integration: game lifecycle (hosted matches, early aborts, reconnection)", function () {
  this.timeout(60_000);
  let server: RunningServer;
  before(async () => {
    server = await bootServer();
  });
  after(async () => server.close());

  it("runs a hosted match: the organiser gets two invites, two players join and play it out", async () => {
    const h = await http(server.url, "POST", "/api/v1/games", { opponent: "hosted", ruleset: "mutators" });
    assert.equal(h.status, 201);
    assert.equal(h.json.game.status, "waiting");
    assert.equal(h.json.playerToken, undefined);
    const { A, B } = h.json.seats;
    assert.match(A.inviteUrl, new RegExp(`/join/${A.code}$`));
    const a = await http(server.url, "POST", "/api/v1/games/join", { code: A.code, name: "Ann" });
    assert.equal(a.json.seat, "A");
    assert.equal(a.json.game.status, "waiting");
    const again = await http(server.url, "POST", "/api/v1/games/join", { code: A.code });
    assert.equal(again.status, 409);
    assert.equal(again.json.code, "already_joined");
    const b = await http(server.url, "POST", "/api/v1/games/join", { code: B.code.toLowerCase(), name: "Bob" });
    assert.equal(b.json.seat, "B");
    assert.equal(b.json.game.status, "active");
    const ends = await Promise.all([playRest(server.url, h.json.game.id, a.json.playerToken), playRest(server.url, h.json.game.id, b.json.playerToken)]);
    assert.equal(ends[0].status, "finished");
  });

  it("aborts a game resigned before both seats placed a card, and leaves both ratings unchanged", async () => {
    const { id, tokens, players } = await seatedFriendGame(server.url, { create: { name: "Early" }, join: { name: "Bird" } });
    const ratings = async () => Promise.all(Object.values(players).map(async (p) => (await http(server.url, "GET", `/api/v1/players/${p}`)).json.player));
    const before = await ratings();
    // One placement only (the first mover's), then the other seat resigns.
    const turn = (await http(server.url, "GET", `/api/v1/games/${id}`)).json.turn as string;
    const view = (await http(server.url, "GET", `/api/v1/games/${id}/sync`, undefined, bearer(tokens[turn]))).json;
    assert.equal((await http(server.url, "POST", `/api/v1/games/${id}/moves`, pickMove(view.state), bearer(tokens[turn]))).status, 200);
    const r = await http(server.url, "POST", `/api/v1/games/${id}/resign`, {}, bearer(tokens[turn === "A" ? "B" : "A"]));
    assert.equal(r.status, 200, r.text);
    assert.deepEqual([r.json.status, r.json.decidedBy, r.json.winner], ["finished", "aborted", null]);
    // Ratings are applied just after a game ends: give a rated game the time it would take, then compare.
    await new Promise((res) => setTimeout(res, 500));
    const after = await ratings();
    assert.deepEqual(
      after.map((p) => [p.rating, p.games]),
      before.map((p) => [p.rating, p.games]),
    );
  });

  it("lets a dropped WebSocket seat reconnect and keep its seat and hand", async () => {
    const a = await http(server.url, "POST", "/api/v1/games", { opponent: "friend" });
    await http(server.url, "POST", "/api/v1/games/join", { code: a.json.code });
    const client = new Client(server.url);
    const first = player(await client.joinById(a.json.game.id, { playerToken: a.json.playerToken }));
    await eventually(() => (first.hands.at(-1)?.cards.length ?? 0) > 0, "the seat's hand");
    const hand = first.hands.at(-1)!;
    const token = first.room.reconnectionToken;
    (first.room.connection as any).transport.ws.close(); // an abnormal drop, not a leave
    await new Promise((r) => setTimeout(r, 300));
    const back = player(await client.reconnect(token));
    await eventually(() => back.room.state.seats?.get(a.json.seat)?.connected === true, "the seat shown connected again");
    // The reconnected client is sent its hand again (it may have missed messages while away).
    await eventually(() => back.hands.length > 0, "the hand sent again");
    assert.deepEqual({ ...back.hands.at(-1)!, via: "hand" }, { ...hand, via: "hand" });
    await back.leave();
  });
});
