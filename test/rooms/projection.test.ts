import { strict as assert } from "node:assert";
import { Encoder } from "@colyseus/schema";
import { boardCells, legalMoves, newGame } from "../../src/engine";
import { advance, step, type GameContext } from "../../src/services/games/context";
import { GameRoomState } from "../../rooms/game-state";
import { Projector } from "../../rooms/projection";
import { game } from "../store/fixtures";

/** The replicated state as plain JSON. */
const plain = (state: GameRoomState) => JSON.parse(JSON.stringify(state.toJSON())) as Record<string, unknown>;

/** The schema instances a state's encoder tracks (each has its own change tree). */
const instances = (encoder: Encoder) => Object.keys(encoder.root.changeTrees).length;

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
    it(`keeps the state equal to a fresh projection after every move of whole games, public, flat, with the engine's board (${ruleset})`, function () {
      for (let seed = 1; seed <= 10; seed++) {
        const record = seated(`game-${seed}`);
        let ctx: GameContext = { record, engine: newGame({ ruleset }, seed, "salt"), timeline: [], endEvents: [] };
        const state = new GameRoomState();
        const encoder = new Encoder(state);
        const projector = new Projector(state);
        projector.project(ctx, connected, 0);
        let n = 0;
        while (ctx.engine!.status === "active") {
          const moves = legalMoves(ctx.engine!);
          const m = moves[(seed * 7 + n++ * 13) % moves.length];
          const r = step(ctx, { kind: "place", card: m.card, square: m.square });
          assert.ok(r.ok);
          ctx = advance(ctx, r, new Date(n * 1000).toISOString());
          projector.project(ctx, connected, n);
          const fresh = new GameRoomState();
          new Projector(fresh).project(ctx, connected, n);
          assert.deepEqual(plain(state), plain(fresh), `seed ${seed}, move ${n}`);
          const cells = boardCells(ctx.engine!.board);
          assert.deepEqual(Object.fromEntries(state.board.entries()), Object.fromEntries(cells.map((c) => [c.square, c.card])));
          assert.deepEqual(Object.fromEntries(state.owners.entries()), Object.fromEntries(cells.map((c) => [c.square, c.owner])));
          for (const seat of ["A", "B"] as const) assert.equal(state.seats.get(seat)?.handCount, ctx.engine!.hands[seat].length);
          // No card of a hand is anywhere in the replicated state.
          const json = JSON.stringify(plain(state));
          const onBoard = new Set(cells.map((c) => c.card));
          for (const id of [...ctx.engine!.hands.A, ...ctx.engine!.hands.B])
            if (!onBoard.has(id)) assert.ok(!json.includes(`"${id}"`), `${id} of a hand is in the state`);
          assert.equal(state.moveCount, n);
          // A fixed number of schema instances, whatever the game's length: no instance per card.
          assert.equal(instances(encoder), 9, `seed ${seed}, move ${n}`);
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
