import { strict as assert } from "node:assert";
import { Client } from "@colyseus/sdk";
import type { RunningServer } from "../../src/server";
import { connectSeats, playRest, seatedFriendGame, SQUARES } from "../support/play";
import { bearer, bootServer, eventually, http } from "../support/server";
import { consumeWs, idsOf, joinWs, player, type WsPlayer } from "../support/ws";

/** A card id as the schema state and messages encode a string (msgpack fixstr: its length, then its bytes). */
const encoded = (id: string) => Buffer.concat([Buffer.from([0xa0 | id.length]), Buffer.from(id)]);
/** Whether raw frames name a card: as an encoded string, or in a move's notation. */
const named = (frames: Buffer, id: string) => frames.includes(encoded(id)) || frames.includes(`${id}@`);

describe("Integration: WebSocket clients play in the game room", function () {
  this.timeout(60_000);
  let server: RunningServer;
  before(async () => {
    server = await bootServer();
  });
  after(async () => server.close());

  /** A friend game between Ann and Bob, both seats taken over REST. */
  const friendGame = () => seatedFriendGame(server.url, { create: { name: "Ann" }, join: { name: "Bob" } });

  it("acks every move with moved, the last one included, and the finished game has rated both profiles", async () => {
    const { id, tokens, players } = await friendGame();
    const { A, B } = await connectSeats(server.url, { id, tokens });
    const [endA, endB] = await Promise.all([A.playToEnd(), B.playToEnd()]);
    // Read as soon as a seat's state says finished (the room announces the end after storing the ratings).
    const profiles = await Promise.all(Object.values(players).map((p) => http(server.url, "GET", `/api/v1/players/${p}`)));
    for (const p of profiles) assert.equal(p.json.player.games, 1, JSON.stringify(p.json.player));
    assert.equal(endA.status, "finished");
    assert.equal(endB.moveCount, 16);
    // Each seat's eight moves, the game's last one included, were acknowledged in order.
    for (const seat of [A, B]) {
      assert.equal(seat.moved.length, 8);
      assert.deepEqual(
        seat.moved.map((m) => m.n),
        [...seat.moved.map((m) => m.n)].sort((x, y) => x - y),
      );
    }
    assert.deepEqual(
      [...A.moved, ...B.moved].map((m) => m.n).sort((x, y) => x - y),
      Array.from({ length: 16 }, (_, i) => i + 1),
    );
    const record = await http(server.url, "GET", `/api/v1/games/${id}`);
    assert.equal(record.json.status, "finished");
  });

  it("plays a whole game between two WebSocket seats while a spectator watches; nobody sees another hand", async () => {
    const { id, tokens } = await friendGame();
    const spectator = await joinWs(server.url, id);
    const { A, B } = await connectSeats(server.url, { id, tokens });
    const [endA, endB] = await Promise.all([A.playToEnd(), B.playToEnd()]);
    assert.equal(endA.moveCount, 16);
    assert.equal(endB.status, "finished");
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(spectator.hands, [], "a spectator received a hand");
    for (const s of [...spectator.seen, ...A.seen, ...B.seen]) assert.equal(s.hands, undefined, "the public state holds a hand");
    assert.ok(
      A.hands.some((h) => h.cards.length > 0),
      "a seat receives its own hand",
    );
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
      await eventually(() => (mover.hands.at(-1)?.cards.length ?? 0) > 0, "the mover's hand");
      const hand = mover.hands.at(-1)!.cards;
      // One frame after the other: the move reaches the room while the resignation is still being stored.
      mover.room.send("resign");
      mover.room.send("move", { card: hand[0].id, square: "a1" });
      await eventually(() => mover.refused.length > 0, "the move's refusal");
      assert.equal(mover.refused[0].code, "game_over", JSON.stringify(mover.refused));
      await eventually(() => watcher.room.state.status === "finished", "the end shown to the other seat");
      const record = (await http(server.url, "GET", `/api/v1/games/${id}`)).json;
      // Resigned before any placement: the game is aborted, not won (src/services/games/early-end.ts).
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
    const { A, B } = await connectSeats(server.url, { id, tokens });
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
  /**
   * Waits until a seat's last received hand is its true hand (the REST sync view of the same seat: the
   * engine's hand) and its `legal` list the engine's legal moves (every card of the hand on every empty
   * square while it is the seat's turn, else none); then checks the cards' faces and the message's move count.
   */
  async function holdsTrueHand(p: WsPlayer, id: string, seat: string, token: string, when: string) {
    const st = (await http(server.url, "GET", `/api/v1/games/${id}/sync`, undefined, bearer(token))).json.state;
    const ids = idsOf(st.hand);
    const empty = SQUARES.filter((q) => !st.board.some((c: { square: string }) => c.square === q));
    const legal = st.status === "active" && st.turn === seat ? [...new Set(ids)].flatMap((c) => empty.map((q) => `${c}@${q}`)).sort() : [];
    const same = (a: string[], b: string[]) => JSON.stringify(a) === JSON.stringify(b);
    await eventually(() => {
      const h = p.hands.at(-1);
      return h !== undefined && same(idsOf(h.cards), ids) && same([...h.legal].sort(), legal);
    }, `${seat} holds its true hand ${when} (move ${st.moveCount})`);
    const h = p.hands.at(-1)!;
    if (legal.length > 0) assert.equal(h.n, st.moveCount, `${when}: the hand says which move it follows`);
    for (const c of h.cards) {
      const def = st.hand.find((d: { id: string }) => d.id === c.id);
      assert.deepEqual(c, { id: def.id, name: def.name, element: def.element, ...def.ranks, champion: def.champion ?? "" }, `${when}: the face of ${c.id}`);
    }
  }

  it("keeps each seat's true hand at the start, after every move (its own over WebSocket or REST, the opponent's) and a reconnection; a spectator's frames never name a card only held in a hand", async () => {
    const a = await http(server.url, "POST", "/api/v1/games", { opponent: "friend", name: "Ann", seat: "A" });
    const id = a.json.game.id as string;
    const tokens: Record<string, string> = { A: a.json.playerToken };
    const seats: Record<string, WsPlayer> = { A: await joinWs(server.url, id, tokens.A) };
    const spectator = await joinWs(server.url, id);
    // Before the game starts a seat holds nothing.
    await eventually(() => seats.A.hands.length === 1, "A's hand on join");
    assert.deepEqual(seats.A.hands[0], { n: 0, cards: [], legal: [], via: "hand" });
    const b = await http(server.url, "POST", "/api/v1/games/join", { code: a.json.code, name: "Bob" });
    tokens.B = b.json.playerToken;
    seats.B = await joinWs(server.url, id, tokens.B);
    for (const seat of ["A", "B"]) await holdsTrueHand(seats[seat], id, seat, tokens[seat], "at the start");
    const client = new Client(server.url);
    let n = 0;
    while ((await http(server.url, "GET", `/api/v1/games/${id}`)).json.status === "active") {
      const turn = (await http(server.url, "GET", `/api/v1/games/${id}`)).json.turn as string;
      const mover = seats[turn];
      const legal = mover.hands.at(-1)!.legal;
      n++;
      if (n === 5) {
        // A move over REST: the seat's WebSocket client gets its new hand as a `hand` message.
        const [card, square] = legal.at(-1)!.split("@");
        assert.equal((await http(server.url, "POST", `/api/v1/games/${id}/moves`, { card, square }, bearer(tokens[turn]))).status, 200);
      } else {
        const acks = mover.moved.length;
        mover.room.send("move", { move: legal.at(-1) });
        await eventually(() => mover.moved.length > acks, `move ${n} acknowledged`);
        assert.equal(mover.moved.at(-1)!.n, n);
        assert.deepEqual(mover.moved.at(-1)!.hand.legal, [], "not the mover's turn after its move");
      }
      for (const seat of ["A", "B"]) await holdsTrueHand(seats[seat], id, seat, tokens[seat], `after move ${n}`);
      if (n === 7) {
        // An abnormal drop of seat A's socket, then the SDK's reconnection with its token: a new client.
        const token = seats.A.room.reconnectionToken;
        const frames = seats.A.frames;
        (seats.A.room.connection as any).transport.ws.close();
        await new Promise((r) => setTimeout(r, 300));
        seats.A = player(await client.reconnect(token));
        await holdsTrueHand(seats.A, id, "A", tokens.A, "after a reconnection");
        seats.A.frames.unshift(...frames);
      }
    }
    assert.equal(n, 16);
    await eventually(() => spectator.room.state.status === "finished", "the end shown to the spectator");
    // Every card ever held, and every card that reached the board (cards never leave it).
    const board = new Set<string>(((await http(server.url, "GET", `/api/v1/games/${id}`)).json.board as Array<{ card: string }>).map((c) => c.card));
    const heldBy = (seat: string) => new Set(seats[seat].hands.flatMap((h) => h.cards.map((c) => c.id)));
    const handOnly = (seat: string) => [...heldBy(seat)].filter((c) => !board.has(c));
    const [A, B] = [handOnly("A"), handOnly("B")];
    assert.ok(A.length > 0 && B.length > 0, "each seat ends holding cards nobody else saw");
    // The check can fail: the board's cards are in the spectator's frames...
    const watched = Buffer.concat(spectator.frames);
    for (const c of board) assert.ok(watched.includes(encoded(c)), `board card ${c} reached the spectator`);
    // ...and no card only ever held in a hand is, nor in the other seat's frames.
    assert.deepEqual(spectator.hands, []);
    for (const c of [...A, ...B]) assert.equal(named(watched, c), false, `${c}, held in a hand, reached the spectator`);
    for (const c of A.filter((x) => !heldBy("B").has(x))) assert.equal(named(Buffer.concat(seats.B.frames), c), false, `A's ${c} reached B`);
    for (const c of B.filter((x) => !heldBy("A").has(x))) assert.equal(named(Buffer.concat(seats.A.frames), c), false, `B's ${c} reached A`);
    await Promise.all([seats.A, seats.B, spectator].filter((p) => p.room.connection.isOpen).map((p) => p.leave()));
  });

  it("keeps a seat's true hand against the house, whichever moves first", async () => {
    for (let g = 0; g < 2; g++) {
      const a = await http(server.url, "POST", "/api/v1/games", { opponent: "house", seat: g === 0 ? "A" : "B" });
      const id = a.json.game.id as string;
      const seat = a.json.seat as string;
      const me = await joinWs(server.url, id, a.json.playerToken);
      let moves = 0;
      for (;;) {
        const record = (await http(server.url, "GET", `/api/v1/games/${id}`)).json;
        if (record.status !== "active") break;
        // The house moves on its own: wait for the turn to come back (or the game to end).
        if (record.turn !== seat) {
          await eventually(() => me.hands.at(-1)?.n === record.moveCount + 1 || me.room.state.status === "finished", "the house's move");
          continue;
        }
        await holdsTrueHand(me, id, seat, a.json.playerToken, `after the house's move ${record.moveCount}`);
        const acks = me.moved.length;
        me.room.send("move", { move: me.hands.at(-1)!.legal[0] });
        await eventually(() => me.moved.length > acks, "the move acknowledged");
        moves++;
      }
      assert.equal(moves, 8);
      await me.leave();
    }
  });
});
