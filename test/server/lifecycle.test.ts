import { strict as assert } from "node:assert";
import { Client } from "@colyseus/sdk";
import type { RunningServer } from "../../src/server";
import { pickMove, playOpening, playRest } from "../support/play";
import { bearer, bootServer, eventually, http } from "../support/server";
import { player } from "../support/ws";

describe("Integration: game lifecycle (hosted matches, clocks, aborts, resignation, reconnection)", function () {
  this.timeout(60_000);
  let server: RunningServer;
  before(async () => {
    server = await bootServer({ waitingGameTtlS: 5 });
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

  it("aborts a friend game nobody joins, and refuses its invite afterwards", async () => {
    const f = await http(server.url, "POST", "/api/v1/games", { opponent: "friend" });
    await new Promise((r) => setTimeout(r, 6000));
    const g = await http(server.url, "GET", `/api/v1/games/${f.json.game.id}`);
    assert.equal(g.json.status, "finished");
    assert.equal(g.json.decidedBy, "aborted");
    assert.equal(g.json.winner, null);
    const late = await http(server.url, "POST", "/api/v1/games/join", { code: f.json.code });
    assert.equal(late.status, 410);
    assert.equal(late.json.code, "code_expired");
  });

  it("ends a game on the turn clock: the seat that ran out of time loses", async function () {
    this.timeout(30_000);
    const a = await http(server.url, "POST", "/api/v1/games", { opponent: "friend", turnSeconds: 10 });
    const b = await http(server.url, "POST", "/api/v1/games/join", { code: a.json.code });
    const id = a.json.game.id;
    const tokens: Record<string, string> = { [a.json.seat]: a.json.playerToken, [b.json.seat]: b.json.playerToken };
    for (let i = 0; i < 2; i++) {
      const turn = (await http(server.url, "GET", `/api/v1/games/${id}`)).json.turn;
      const view = (await http(server.url, "GET", `/api/v1/games/${id}/sync`, undefined, bearer(tokens[turn]))).json;
      await http(server.url, "POST", `/api/v1/games/${id}/moves`, pickMove(view.state), bearer(tokens[turn]));
    }
    const idle = (await http(server.url, "GET", `/api/v1/games/${id}`)).json.turn as string;
    const waited = await http(server.url, "GET", `/api/v1/games/${id}/sync?since=2&timeout=15`);
    assert.equal(waited.json.status, "finished");
    assert.equal(waited.json.decidedBy, "timeout");
    assert.equal(waited.json.winner, idle === "A" ? "B" : "A");
  });

  it("ends a game on resignation, and refuses moves after the end", async () => {
    const a = await http(server.url, "POST", "/api/v1/games", { opponent: "house" });
    await playOpening(server.url, a.json.game.id, [a.json.playerToken]);
    const r = await http(server.url, "POST", `/api/v1/games/${a.json.game.id}/resign`, {}, bearer(a.json.playerToken));
    assert.equal(r.status, 200);
    assert.equal(r.json.decidedBy, "resignation");
    assert.equal(r.json.winner, a.json.seat === "A" ? "B" : "A");
    const late = await http(server.url, "POST", `/api/v1/games/${a.json.game.id}/moves`, { card: "E1", square: "a1" }, bearer(a.json.playerToken));
    assert.equal(late.json.code, "game_over");
    const replay = await http(server.url, "GET", `/api/v1/games/${a.json.game.id}/replay`);
    assert.equal(replay.json.decidedBy, "resignation");
  });

  it("aborts a game resigned before both seats placed a card, and leaves both ratings unchanged", async () => {
    const a = await http(server.url, "POST", "/api/v1/games", { opponent: "friend", name: "Early" });
    const b = await http(server.url, "POST", "/api/v1/games/join", { code: a.json.code, name: "Bird" });
    const id = a.json.game.id as string;
    const players = [a.json.player.id as string, b.json.player.id as string];
    const ratings = async () => Promise.all(players.map(async (p) => (await http(server.url, "GET", `/api/v1/players/${p}`)).json.player));
    const before = await ratings();
    // One placement only (the first mover's), then the other seat resigns.
    const turn = (await http(server.url, "GET", `/api/v1/games/${id}`)).json.turn as string;
    const tokens: Record<string, string> = { [a.json.seat]: a.json.playerToken, [b.json.seat]: b.json.playerToken };
    const view = (await http(server.url, "GET", `/api/v1/games/${id}/sync`, undefined, bearer(tokens[turn]))).json;
    assert.equal((await http(server.url, "POST", `/api/v1/games/${id}/moves`, pickMove(view.state), bearer(tokens[turn]))).status, 200);
    const r = await http(server.url, "POST", `/api/v1/games/${id}/resign`, {}, bearer(tokens[turn === "A" ? "B" : "A"]));
    assert.equal(r.status, 200, r.text);
    assert.deepEqual([r.json.status, r.json.decidedBy, r.json.winner], ["finished", "aborted", null]);
    // Ratings are applied just after a game ends: give a rated game the time it would take, then compare.
    await new Promise((res) => setTimeout(res, 500));
    const after = await ratings();
    assert.deepEqual(after.map((p) => [p.rating, p.games]), before.map((p) => [p.rating, p.games]));
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
