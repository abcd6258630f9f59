import { strict as assert } from "node:assert";
import { Client } from "@colyseus/sdk";
import type { RunningServer } from "../../src/server";
import { bootServer, eventually, http } from "../support/server";

describe("Integration: one patch per accepted action", function () {
  let server: RunningServer;
  before(async function () {
    server = await bootServer();
  });
  after(async function () {
    await server.close();
  });

  it("sends the mover exactly one state patch per accepted move, before its ack", async function () {
    const a = await http(server.url, "POST", "/api/v1/games", { opponent: "friend", seat: "A" });
    const b = await http(server.url, "POST", "/api/v1/games/join", { code: a.json.code });
    const id = a.json.game.id as string;
    const tokens: Record<string, string> = { A: a.json.playerToken, B: b.json.playerToken };
    const client = new Client(server.url);
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
      await eventually(() => (["A", "B"] as const).every((s) => (rooms.A.state).seats?.get(s)?.connected), "both seats connected");
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
        await eventually(() => (rooms.A.state).moveCount === n + 1 && (rooms.B.state).moveCount === n + 1, "both views updated");
      }
    } finally {
      await Promise.all([rooms.A.leave(true), rooms.B.leave(true)]);
    }
  });
});
