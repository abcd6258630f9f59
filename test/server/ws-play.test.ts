import { strict as assert } from "node:assert";
import { Client } from "@colyseus/sdk";
import type { RunningServer } from "../../src/server";
import { playRest } from "../support/play";
import { bootServer, eventually, http } from "../support/server";
import { consumeWs, joinWs } from "../support/ws";

const cardIdsOfHands = (state: any): string[] => Object.values(state.hands ?? {}).flatMap((h: any) => h.cards.map((c: any) => c.id));

describe("Integration: WebSocket clients play in the game room", function () {
  this.timeout(60_000);
  let server: RunningServer;
  before(async () => {
    server = await bootServer();
  });
  after(async () => server.close());

  async function friendGame() {
    const a = await http(server.url, "POST", "/api/v1/games", { opponent: "friend", name: "Ann" });
    const b = await http(server.url, "POST", "/api/v1/games/join", { code: a.json.code, name: "Bob" });
    return {
      id: a.json.game.id as string,
      tokens: { [a.json.seat]: a.json.playerToken, [b.json.seat]: b.json.playerToken } as Record<string, string>,
      players: [a.json.player.id, b.json.player.id] as string[],
    };
  }

  it("acks every move with moved, the last one included, and the finished game has rated both profiles", async () => {
    const { id, tokens, players } = await friendGame();
    const A = await joinWs(server.url, id, tokens.A);
    const B = await joinWs(server.url, id, tokens.B);
    const [endA, endB] = await Promise.all([A.playToEnd(), B.playToEnd()]);
    // Read as soon as a seat's state says finished (the room announces the end after storing the ratings).
    const profiles = await Promise.all(players.map((p) => http(server.url, "GET", `/api/v1/players/${p}`)));
    for (const p of profiles) assert.equal(p.json.player.games, 1, JSON.stringify(p.json.player));
    assert.equal(endA.status, "finished");
    assert.equal(endB.moveCount, 16);
    // Each seat's eight moves, the game's last one included, were acknowledged in order.
    for (const seat of [A, B]) {
      assert.equal(seat.moved.length, 8);
      assert.deepEqual(seat.moved.map((m) => m.n), [...seat.moved.map((m) => m.n)].sort((x, y) => x - y));
    }
    assert.deepEqual([...A.moved, ...B.moved].map((m) => m.n).sort((x, y) => x - y), Array.from({ length: 16 }, (_, i) => i + 1));
    const record = await http(server.url, "GET", `/api/v1/games/${id}`);
    assert.equal(record.json.status, "finished");
  });

  it("plays a whole game between two WebSocket seats while a spectator watches; nobody sees another hand", async () => {
    const { id, tokens } = await friendGame();
    const spectator = await joinWs(server.url, id);
    const A = await joinWs(server.url, id, tokens.A);
    const B = await joinWs(server.url, id, tokens.B);
    const [endA, endB] = await Promise.all([A.playToEnd(), B.playToEnd()]);
    assert.equal(endA.moveCount, 16);
    assert.equal(endB.status, "finished");
    await new Promise((r) => setTimeout(r, 100));
    for (const s of spectator.seen) assert.deepEqual(cardIdsOfHands(s), [], "spectator saw a hand");
    for (const [p, seat] of [[A, "A"], [B, "B"]] as const) {
      for (const s of p.seen) assert.deepEqual(Object.keys(s.hands ?? {}).filter((k) => k !== seat), [], `${seat} saw another hand`);
    }
    assert.ok(A.seen.some((s) => cardIdsOfHands(s).length > 0), "a seat sees its own hand");
    assert.equal(spectator.seen.at(-1).status, "finished");
    const replay = await http(server.url, "GET", `/api/v1/games/${id}/replay`);
    assert.equal(replay.status, 200);
    assert.equal(replay.json.moveCount, 16);
  });

  it("plays a WebSocket seat against a REST agent", async () => {
    const { id, tokens } = await friendGame();
    const ws = await joinWs(server.url, id, tokens.A);
    const [wsEnd, restEnd] = await Promise.all([ws.playToEnd(), playRest(server.url, id, tokens.B)]);
    assert.equal(wsEnd.status, "finished");
    assert.equal(restEnd.moveCount, 16);
    assert.deepEqual({ A: wsEnd.scoreA, B: wsEnd.scoreB }, restEnd.state.score);
  });

  it("connects the seats created and joined with reserveSeat by their seat reservations, each usable once", async () => {
    const a = await http(server.url, "POST", "/api/v1/games", { opponent: "friend", name: "Ann", reserveSeat: true });
    assert.equal(a.status, 201, a.text);
    const b = await http(server.url, "POST", "/api/v1/games/join", { code: a.json.code, name: "Bob", reserveSeat: true });
    assert.equal(b.status, 200, b.text);
    for (const answer of [a.json, b.json]) {
      assert.equal(answer.seatReservation.roomId, answer.game.id);
      // The token is checked when the socket connects; the reservation does not repeat it.
      assert.ok(!JSON.stringify(answer.seatReservation).includes(answer.playerToken));
    }
    const [A, B] = await Promise.all([consumeWs(server.url, a.json.seatReservation), consumeWs(server.url, b.json.seatReservation)]);
    const [endA, endB] = await Promise.all([A.playToEnd(), B.playToEnd()]);
    assert.equal(endA.status, "finished");
    assert.equal(endB.moveCount, 16);
    assert.equal(A.moved.length + B.moved.length, 16);
    // A reservation is spent once it is used.
    await assert.rejects(consumeWs(server.url, a.json.seatReservation));
    // Asked for nothing, nothing is reserved; a hosted game's creator has no seat to reserve.
    const plain = await http(server.url, "POST", "/api/v1/games", { opponent: "house" });
    assert.equal(plain.json.seatReservation, undefined);
    const hosted = await http(server.url, "POST", "/api/v1/games", { opponent: "hosted", reserveSeat: true });
    assert.equal(hosted.status, 400);
    assert.match(hosted.json.detail, /hosted/);
  });

  it("refuses an action sent right behind the game's finishing one (game_over) and keeps the room open", async () => {
    const { id, tokens } = await friendGame();
    const turn = (await http(server.url, "GET", `/api/v1/games/${id}`)).json.turn as string;
    const other = turn === "A" ? "B" : "A";
    const mover = await joinWs(server.url, id, tokens[turn]);
    const watcher = await joinWs(server.url, id, tokens[other]);
    try {
      await eventually(() => mover.room.state.hands?.size > 0, "the mover's hand");
      const hand = [...mover.room.state.hands.values()][0].cards;
      // One frame after the other: the move reaches the room while the resignation is still being stored.
      mover.room.send("resign");
      mover.room.send("move", { card: hand[0].id, square: "a1" });
      await eventually(() => mover.refused.length > 0, "the move's refusal");
      assert.equal(mover.refused[0].code, "game_over", JSON.stringify(mover.refused));
      await eventually(() => watcher.room.state.status === "finished", "the end shown to the other seat");
      const record = (await http(server.url, "GET", `/api/v1/games/${id}`)).json;
      // Resigned before any placement: the game is aborted, not won (src/games/early-end.ts).
      assert.deepEqual([record.status, record.decidedBy, record.winner, record.moveCount], ["finished", "aborted", null, 0]);
      assert.equal(mover.room.connection.isOpen, true, "the room did not close its clients");
    } finally {
      // A seat the room closed has left already.
      await Promise.all([mover, watcher].filter((p) => p.room.connection.isOpen).map((p) => p.leave()));
    }
  });

  it("refuses a wrong token at join, and moves from a spectator or out of turn with a refused message", async () => {
    const { id, tokens } = await friendGame();
    await assert.rejects(joinWs(server.url, id, "pt_" + "y".repeat(43)));
    const spectator = await joinWs(server.url, id);
    const A = await joinWs(server.url, id, tokens.A);
    const B = await joinWs(server.url, id, tokens.B);
    const waiting = A.room.state.turn === "A" ? B : A;
    spectator.room.send("move", { card: "E1", square: "a1" });
    waiting.room.send("move", { card: "E1", square: "a1" });
    waiting.room.send("move", { nonsense: true });
    waiting.room.send("dance", {});
    await eventually(() => spectator.refused.length >= 1 && waiting.refused.length >= 3, "the four refusals");
    assert.equal(spectator.refused[0]?.code, "unauthorized");
    assert.deepEqual(waiting.refused.map((r) => r.code).sort(), ["bad_request", "bad_request", "not_your_turn"]);
    assert.equal(A.room.state.moveCount, 0);
    await Promise.all([A.leave(), B.leave(), spectator.leave()]);
  });

  it("refuses matchmaking that would create a game room or enter one without its id, and changes nothing", async () => {
    const { id } = await friendGame();
    const before = (await http(server.url, "GET", `/api/v1/games/${id}`)).json;
    const client = new Client(server.url);
    for (const attempt of [
      () => client.create("game", { gameId: id }),
      () => client.join("game", {}),
      () => client.joinOrCreate("game", { gameId: id }),
      () => client.create("quick", { ruleset: "classic" }),
    ]) {
      await assert.rejects(attempt(), (e: { code?: number; message?: string }) => e.code === 403 && /joinById|joinOrCreate/.test(e.message ?? ""));
    }
    await assert.rejects(client.joinOrCreate("quick", { ruleset: "__proto__" }), (e: { code?: number }) => e.code === 400);
    assert.deepEqual((await http(server.url, "GET", `/api/v1/games/${id}`)).json, before);
    const spectator = await joinWs(server.url, id);
    assert.equal(spectator.room.roomId, id);
    await spectator.leave();
  });
});
