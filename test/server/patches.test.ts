import { strict as assert } from "node:assert";
import { Client } from "@colyseus/sdk";
import type { RunningServer } from "../../src/server";
import { SQUARES } from "../support/play";
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
    const rooms = { A: await client.joinById(id, { playerToken: tokens.A }), B: await client.joinById(id, { playerToken: tokens.B }) };
    try {
      const patches = { A: 0, B: 0 };
      const acks = { A: 0, B: 0 };
      for (const seat of ["A", "B"] as const) {
        rooms[seat].onStateChange(() => patches[seat]++);
        rooms[seat].onMessage("moved", () => acks[seat]++);
        rooms[seat].onMessage("refused", (m) => assert.fail(`refused: ${JSON.stringify(m)}`));
      }
      // Both seats connected (each join was one patch): from here on only moves change the state.
      await eventually(() => (["A", "B"] as const).every((s) => (rooms.A.state).seats?.get(s)?.connected), "both seats connected");
      for (let n = 0; n < 4; n++) {
        const state = rooms.A.state;
        const seat = state.turn as "A" | "B";
        const before = patches[seat];
        const hand = (rooms[seat].state).hands.get(seat).cards;
        const square = SQUARES.find((q) => !state.board.has(q))!;
        const ackBefore = acks[seat];
        rooms[seat].send("move", { card: hand[0].id, square });
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
