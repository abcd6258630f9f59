import { strict as assert } from "node:assert";
import { legalMoves, newGame, spectatorView, type GameEvent, type GameState } from "../../src/engine";
import { advance, placementDetails, snapshotAfter, step, type GameContext } from "../../src/services/games/context";
import { recordChanges, recordPatch } from "../../src/services/games/record";
import type { GameRecord } from "../../src/store/port";
import { game } from "../store/fixtures";

/** The fields of a spectator view that a timeline entry keeps: the snapshot must equal them, never drift. */
const picked = (s: GameState) => {
  const v = spectatorView(s);
  return JSON.parse(
    JSON.stringify({ board: v.board, score: v.score, turn: v.turn, hands: v.hands, pile: v.pile, status: v.status, winner: v.winner, decidedBy: v.decidedBy }),
  ) as unknown;
};

describe("GameContext timeline", function () {
  for (const ruleset of ["classic", "mutators"] as const) {
    it(`keeps after each placement the public snapshot a spectator saw then (${ruleset}, whole games)`, function () {
      for (let seed = 1; seed <= 20; seed++) {
        let ctx: GameContext = { record: game(`G${seed}`), engine: newGame({ ruleset }, seed, "salt"), timeline: [], endEvents: [] };
        const states: GameState[] = [];
        const events: GameEvent[][] = [];
        while (ctx.engine!.status === "active") {
          const moves = legalMoves(ctx.engine!);
          const m = moves[(seed * 7 + states.length * 13) % moves.length];
          const r = step(ctx, { kind: "place", card: m.card, square: m.square });
          assert.ok(r.ok);
          ctx = advance(ctx, r, new Date(0).toISOString());
          states.push(r.state);
          events.push(r.events);
        }
        assert.equal(ctx.timeline.length, 16);
        assert.deepEqual(
          placementDetails(ctx, 0).map((d) => d.events),
          events,
          `seed ${seed}: the events derived from the actions are those each placement had`,
        );
        assert.ok(
          ctx.timeline.every((at) => typeof at === "string"),
          "a live context keeps each placement's time only",
        );
        ctx.timeline.forEach((_entry, i) => {
          assert.deepEqual(JSON.parse(JSON.stringify(snapshotAfter(ctx, i))), picked(states[i]), `seed ${seed}, move ${i + 1}`);
        });
      }
    });
  }
});

describe("recordChanges: what a move's write stores", function () {
  it("leaves out an unchanged status and winner, and merged in turn equals the record derived at the end", function () {
    for (let seed = 1; seed <= 10; seed++) {
      const record = game(`G${seed}`, { status: "active" });
      let ctx: GameContext = { record, engine: newGame({ ruleset: "classic" }, seed, "salt"), timeline: [], endEvents: [] };
      let stored: Partial<GameRecord> = { ...record };
      let finishing = 0;
      let at = "";
      while (ctx.engine!.status === "active") {
        const m = legalMoves(ctx.engine!)[seed % 3 === 0 ? 0 : legalMoves(ctx.engine!).length - 1];
        const r = step(ctx, { kind: "place", card: m.card, square: m.square });
        assert.ok(r.ok);
        at = new Date(ctx.timeline.length * 1000).toISOString();
        const next = advance(ctx, r, at);
        const patch = recordChanges(ctx, next, at);
        assert.equal(patch.moveCount, next.timeline.length);
        if (next.engine!.status === "active") {
          assert.ok(!("status" in patch) && !("winner" in patch), `seed ${seed}: a move that does not end the game writes no status or winner`);
        } else {
          finishing++;
          assert.equal(patch.status, "finished");
          assert.ok("winner" in patch || recordPatch(next, at).winner === null);
        }
        stored = { ...stored, ...patch };
        ctx = next;
      }
      assert.equal(finishing, 1);
      assert.deepEqual({ ...stored, ...recordPatch(ctx, at) }, stored, `seed ${seed}: the writes add up to the derived record`);
    }
  });
});
