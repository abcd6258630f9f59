import { strict as assert } from "node:assert";
import { Socket } from "node:net";
import { Client } from "@colyseus/sdk";
import type { RunningServer } from "../../src/server";
import { matchMaker } from "@colyseus/core";
import { seatedFriendGame } from "../support/play";
import { bearer, bootServer, eventually, http } from "../support/server";

/** A friend game whose two seats are taken over REST: its id, the seats' tokens and a client to join its room. */
async function friendGame(url: string) {
  const { id, tokens } = await seatedFriendGame(url, { create: { seat: "A" } });
  return { id, tokens, client: new Client(url) };
}

/**
 * Counts every write the server makes to a socket it accepted (the clients' own sockets are in this process
 * too), WebSocket pings left out, from the call until `restore`.
 */
function countServerWrites() {
  const writes = new Map<Socket, number>();
  type WriteGeneric = (this: Socket, writev: boolean, data: unknown, ...rest: unknown[]) => unknown;
  const proto = Socket.prototype as unknown as { _writeGeneric: WriteGeneric };
  const original = proto._writeGeneric;
  proto._writeGeneric = function (this: Socket, writev: boolean, data: unknown, ...rest: unknown[]) {
    const first = writev ? (data as Array<{ chunk: Buffer }>)[0]?.chunk : (data as Buffer);
    if ((this as Socket & { server?: unknown }).server && !(Buffer.isBuffer(first) && first[0] === 0x89)) writes.set(this, (writes.get(this) ?? 0) + 1);
    return original.call(this, writev, data, ...rest);
  };
  return { writes, restore: () => (proto._writeGeneric = original) };
}

describe("Integration: one patch per accepted action", function () {
  let server: RunningServer;
  before(async function () {
    server = await bootServer();
  });
  after(async function () {
    await server.close();
  });

  it("sends the mover exactly one state patch per accepted move, before its ack", async function () {
    const { id, tokens, client } = await friendGame(server.url);
    const patches = { A: 0, B: 0 };
    const acks = { A: 0, B: 0 };
    // Hands are messages, not state: they do not count as patches.
    const hands: Record<"A" | "B", { n: number; legal: string[] } | undefined> = { A: undefined, B: undefined };
    /** Joins a seat and listens at once: its hand comes right behind its full state. */
    const join = async (seat: "A" | "B") => {
      const room = await client.joinById(id, { playerToken: tokens[seat] });
      room.onStateChange(() => patches[seat]++);
      room.onMessage("moved", (m) => {
        acks[seat]++;
        hands[seat] = { n: m.n, ...m.hand };
      });
      room.onMessage("hand", (m) => (hands[seat] = m));
      room.onMessage("refused", (m) => assert.fail(`refused: ${JSON.stringify(m)}`));
      return room;
    };
    const rooms = { A: await join("A"), B: await join("B") };
    try {
      // Both seats connected (each join was one patch): from here on only moves change the state.
      await eventually(() => (["A", "B"] as const).every((s) => rooms.A.state.seats?.get(s)?.connected), "both seats connected");
      for (let n = 0; n < 4; n++) {
        const state = rooms.A.state;
        const seat = state.turn as "A" | "B";
        const before = patches[seat];
        await eventually(() => hands[seat]?.n === n, "the seat to move sent its hand for this move");
        const hand = hands[seat]!;
        const ackBefore = acks[seat];
        rooms[seat].send("move", { move: hand.legal[0] });
        await eventually(() => acks[seat] > ackBefore, `move ${n + 1} acknowledged`);
        // The patch and the ack travel on one socket, patch first: by the ack, exactly one patch came.
        assert.equal(patches[seat] - before, 1, `move ${n + 1}: one patch`);
        await eventually(() => rooms.A.state.moveCount === n + 1 && rooms.B.state.moveCount === n + 1, "both views updated");
      }
    } finally {
      await Promise.all([rooms.A.leave(true), rooms.B.leave(true)]);
    }
  });

  it("writes to each seat's socket once per move: the patch with the mover's ack, or with the hand of the seat to move", async function () {
    const { id, tokens, client } = await friendGame(server.url);
    const hands: Record<"A" | "B", { n: number; legal: string[] } | undefined> = { A: undefined, B: undefined };
    const acks = { A: 0, B: 0 };
    const join = async (seat: "A" | "B") => {
      const room = await client.joinById(id, { playerToken: tokens[seat] });
      room.onStateChange(() => undefined);
      room.onMessage("moved", (m) => {
        acks[seat]++;
        hands[seat] = { n: m.n, ...m.hand };
      });
      room.onMessage("hand", (m) => (hands[seat] = m));
      room.onMessage("refused", (m) => assert.fail(`refused: ${JSON.stringify(m)}`));
      return room;
    };
    const rooms = { A: await join("A"), B: await join("B") };
    const { writes, restore } = countServerWrites();
    try {
      await eventually(() => (["A", "B"] as const).every((s) => rooms.A.state.seats?.get(s)?.connected), "both seats connected");
      for (let n = 0; n < 4; n++) {
        const seat = rooms.A.state.turn as "A" | "B";
        const other = seat === "A" ? "B" : "A";
        await eventually(() => hands[seat]?.n === n, "the seat to move got its hand");
        const ackBefore = acks[seat];
        writes.clear();
        rooms[seat].send("move", { move: hands[seat]!.legal[0] });
        await eventually(
          () => acks[seat] > ackBefore && hands[other]?.n === n + 1 && rooms[other].state.moveCount === n + 1,
          `move ${n + 1} answered and shown`,
        );
        assert.deepEqual([...writes.values()], [1, 1], `move ${n + 1}: one write to each seat's socket`);
      }
    } finally {
      restore();
      await Promise.all([rooms.A.leave(true), rooms.B.leave(true)]);
    }
  });
  it("writes to each WebSocket client once per move sent over REST: each seat's patch with its hand, the spectator's patch", async function () {
    const { id, tokens, client } = await friendGame(server.url);
    const hands: Record<"A" | "B", { n: number; legal: string[] } | undefined> = { A: undefined, B: undefined };
    const join = async (seat: "A" | "B") => {
      const room = await client.joinById(id, { playerToken: tokens[seat] });
      room.onStateChange(() => undefined);
      room.onMessage("hand", (m) => (hands[seat] = m));
      return room;
    };
    const rooms = { A: await join("A"), B: await join("B") };
    const spectator = await client.joinById(id, {});
    spectator.onStateChange(() => undefined);
    const { writes, restore } = countServerWrites();
    try {
      // Every client has its full state (the spectator's comes once its join is acknowledged) before writes count.
      await eventually(
        () => [rooms.A, rooms.B, spectator].every((r) => (["A", "B"] as const).every((s) => r.state.seats?.get(s)?.connected)),
        "both seats connected",
      );
      // The room's WebSocket clients' server-side sockets: the REST requests' sockets are not counted.
      const sockets = new Map(matchMaker.getLocalRoomById(id).clients.map((c) => [(c.ref as unknown as { _socket: Socket })._socket, c]));
      assert.equal(sockets.size, 3);
      for (let n = 0; n < 4; n++) {
        const seat = rooms.A.state.turn as "A" | "B";
        await eventually(() => hands[seat]?.n === n, "the seat to move got its hand");
        writes.clear();
        const moved = await http(server.url, "POST", `/api/v1/games/${id}/moves`, { move: hands[seat]!.legal[0] }, bearer(tokens[seat]));
        assert.equal(moved.status, 200, JSON.stringify(moved.json));
        await eventually(() => hands.A?.n === n + 1 && hands.B?.n === n + 1 && spectator.state.moveCount === n + 1, `move ${n + 1} shown`);
        const counted = [...sockets.keys()].map((s) => writes.get(s) ?? 0);
        assert.deepEqual(counted, [1, 1, 1], `move ${n + 1}: one write to each WebSocket client`);
      }
    } finally {
      restore();
      await Promise.all([rooms.A.leave(true), rooms.B.leave(true), spectator.leave(true)]);
    }
  });
});
