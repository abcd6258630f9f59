import { strict as assert } from "node:assert";
import { Encoder } from "@colyseus/schema";
import { legalMoves, newGame } from "../../src/game";
import { commit, step, type GameContext } from "../../src/games/context";
import { GameRoomState } from "../../rooms/game-state";
import { Projector } from "../../rooms/projection";
import { game } from "../store/fixtures";

/** The replicated state as plain JSON, each hand as the set of its card ids (the order a hand keeps is its own). */
function plain(state: GameRoomState) {
  const json = JSON.parse(JSON.stringify(state.toJSON())) as { hands?: Record<string, { cards: { id: string }[] }> };
  const hands = Object.fromEntries(Object.entries(json.hands ?? {}).map(([seat, h]) => [seat, h.cards.map((c) => c.id).sort()]));
  return { ...json, hands };
}

const connected = { A: true, B: false };
const seated = (id: string) =>
  game(id, {
    status: "active",
    seats: {
      A: { playerId: "P1", name: "Ada", kind: "human", tokenHash: "aa" },
      B: { playerId: "P2", name: "Bo", kind: "human", tokenHash: "bb" },
    },
  });

describe("Projector", function () {
  for (const ruleset of ["classic", "mutators"] as const) {
    it(`keeps the state equal to a fresh projection after every move of whole games, and the hands equal the engine's (${ruleset})`, function () {
      for (let seed = 1; seed <= 10; seed++) {
        const record = seated(`G${seed}`);
        let ctx: GameContext = { record, engine: newGame({ ruleset }, seed, "salt"), timeline: [], endEvents: [] };
        const state = new GameRoomState();
        const projector = new Projector(state);
        projector.project(ctx, connected, 0);
        let n = 0;
        while (ctx.engine!.status === "active") {
          const moves = legalMoves(ctx.engine!);
          const m = moves[(seed * 7 + n++ * 13) % moves.length];
          const r = step(ctx, { kind: "place", card: m.card, square: m.square });
          assert.ok(r.ok);
          ctx = commit(ctx, r, new Date(n * 1000).toISOString());
          projector.project(ctx, connected, n);
          const fresh = new GameRoomState();
          new Projector(fresh).project(ctx, connected, n);
          assert.deepEqual(plain(state), plain(fresh), `seed ${seed}, move ${n}`);
          for (const seat of ["A", "B"] as const) {
            assert.deepEqual(plain(state).hands[seat], [...ctx.engine!.hands[seat]].sort(), `seed ${seed}, move ${n}, hand ${seat}`);
            assert.equal(state.seats.get(seat)?.handCount, ctx.engine!.hands[seat].length);
          }
          assert.equal(state.moveCount, n);
          assert.equal(state.board.size, n);
        }
        assert.equal(state.status, "finished");
      }
    });
  }

  it("projecting the same context again makes no patch; a changed connection does", function () {
    const ctx: GameContext = { record: seated("G1"), engine: newGame({ ruleset: "classic" }, 1, "salt"), timeline: [], endEvents: [] };
    const state = new GameRoomState();
    const projector = new Projector(state);
    projector.project(ctx, connected, 5);
    // The encoder Colyseus uses: it has changes to send only when a field was set.
    const encoder = new Encoder(state);
    encoder.discardChanges();
    projector.project(ctx, connected, 5);
    assert.equal(encoder.hasChanges, false, "projecting the same context again set a field");
    projector.project(ctx, { A: true, B: true }, 5);
    assert.equal(encoder.hasChanges, true);
    assert.equal(state.seats.get("B")?.connected, true);
  });
});
