import { strict as assert } from "node:assert";
import { legalMoves, newGame, spectatorView, type GameState } from "../../src/game";
import { commit, step, type GameContext } from "../../src/games/context";
import { game } from "../store/fixtures";

/** The fields of a spectator view that a timeline entry keeps: the snapshot must equal them, never drift. */
const picked = (s: GameState) => {
  const v = spectatorView(s);
  return JSON.parse(JSON.stringify({ board: v.board, score: v.score, turn: v.turn, hands: v.hands, pile: v.pile, status: v.status, winner: v.winner, decidedBy: v.decidedBy })) as unknown;
};

describe("GameContext timeline", function () {
  for (const ruleset of ["classic", "mutators"] as const) {
    it(`keeps after each placement the public snapshot a spectator saw then (${ruleset}, whole games)`, function () {
      for (let seed = 1; seed <= 20; seed++) {
        let ctx: GameContext = { record: game(`G${seed}`), engine: newGame({ ruleset }, seed, "salt"), timeline: [], endEvents: [] };
        const states: GameState[] = [];
        while (ctx.engine!.status === "active") {
          const moves = legalMoves(ctx.engine!);
          const m = moves[(seed * 7 + states.length * 13) % moves.length];
          const r = step(ctx, { kind: "place", card: m.card, square: m.square });
          assert.ok(r.ok);
          ctx = commit(ctx, r, new Date(0).toISOString());
          states.push(r.state);
        }
        assert.equal(ctx.timeline.length, 16);
        ctx.timeline.forEach((entry, i) => {
          assert.deepEqual(JSON.parse(JSON.stringify(entry.state)), picked(states[i]), `seed ${seed}, move ${i + 1}`);
        });
      }
    });
  }
});
