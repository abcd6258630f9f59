import { strict as assert } from "node:assert";
import { Encoder, Reflection } from "@colyseus/schema";
import { newGame } from "../../src/engine";
import { GameRoomState } from "../../rooms/game-state";
import { Projector } from "../../rooms/projection";
import { GameStateSerializer } from "../../rooms/state-serializer";
import { game } from "../store/fixtures";

function projected(id: string, seed: number): GameRoomState {
  const record = game(id, {
    status: "active",
    ruleset: "mutators",
    seats: { A: { playerId: "P1", name: "Ada", kind: "human", tokenHash: "aa" }, B: { playerId: "P2", name: "Bo", kind: "human", tokenHash: "bb" } },
  });
  const state = new GameRoomState();
  new Projector(state).project({ record, engine: newGame({ ruleset: "mutators" }, seed, "salt"), timeline: [], endEvents: [] }, { A: true, B: true }, 0);
  return state;
}

describe("GameStateSerializer", function () {
  it("sends every room the reflection Colyseus would encode for it, encoded once", function () {
    const first = new GameStateSerializer();
    first.reset(new GameRoomState());
    const second = new GameStateSerializer();
    const state = projected("G2", 7);
    second.reset(state);
    const shared = first.handshake();
    assert.equal(second.handshake(), shared, "the second room reuses the first room's bytes");
    assert.deepEqual(Buffer.from(shared), Buffer.from(Reflection.encode(new Encoder(state))));
  });

  it("lets a client decode another room's full state with the shared reflection", function () {
    new GameStateSerializer().reset(new GameRoomState());
    const serializer = new GameStateSerializer();
    const state = projected("G3", 11);
    serializer.reset(state);
    // As a client SDK does: the handshake makes the decoder, then the full state frame (after its protocol byte).
    const decoder = Reflection.decode(serializer.handshake());
    decoder.decode(serializer.getFullState(), { offset: 1 });
    const json = decoder.state.toJSON() as { gameId: string; ruleset: string; mutators: string[]; seats: Record<string, { name: string }> };
    assert.equal(json.gameId, "G3");
    assert.equal(json.seats.A.name, "Ada");
    assert.equal(json.ruleset, "mutators");
    assert.deepEqual(json.mutators, newGame({ ruleset: "mutators" }, 11, "salt").mutators);
  });
});
