import assert from "node:assert/strict";
import { apply, buildReplay, newGame } from "../../src/engine";
import type { GameState } from "../../src/engine/types";
import { markOf, reviewGame } from "../../src/services/ai";
import { REVIEW_DEPTH, REVIEW_POSITIONAL } from "../../src/services/ai/review";
import { rootValues, toPlacement } from "../../src/services/ai/search";
import { fromState, simMoves } from "../../src/services/ai/sim";

/**
 * Plays the first legal move each turn, except at the first middle-game ply where the review's search sees a
 * gap of at least three cards between the best and the worst move: there it plays the worst (or the best).
 */
function gameWith(seed: number, pickWorst: boolean): { state: GameState; target: number } {
  let state = newGame({ ruleset: "classic" }, seed, "review");
  let target = -1;
  while (state.status === "active") {
    const { rules, sim } = fromState(state);
    const moves = simMoves(sim);
    let choice = moves[0];
    if (target < 0 && sim.empty > 6) {
      const values = rootValues(sim, rules, REVIEW_DEPTH, { nodes: 1e9, winBonus: 0, beam: 0, positional: REVIEW_POSITIONAL }, moves);
      if (Math.max(...values) - Math.min(...values) >= 6) {
        target = state.moves.length;
        choice = moves[values.indexOf(pickWorst ? Math.min(...values) : Math.max(...values))];
      }
    }
    const m = toPlacement(choice);
    const res = apply(state, { kind: "place", card: m.card, square: m.square });
    assert.ok(res.ok);
    state = res.state;
  }
  return { state, target };
}

describe("Unit: review", () => {
  it("marks a deliberately bad move as a mistake or blunder", () => {
    const { state, target } = gameWith(31337, true);
    assert.ok(target >= 0, "no position with a clear best and worst move");
    const review = reviewGame(buildReplay(state, { id: "bad", players: { A: "a", B: "b" }, replayUrl: "" }));
    const bad = review.moves[target];
    assert.ok(bad.mark === "mistake" || bad.mark === "blunder", `marked ${bad.mark} with swing ${bad.swing}`);
    assert.notEqual(bad.best, bad.played);
    const seat = bad.seat;
    assert.ok(review.summary[seat].mistakes + review.summary[seat].blunders >= 1);
  });

  it("marks the best move as best", () => {
    const { state, target } = gameWith(31337, false);
    assert.ok(target >= 0, "no position with a clear best and worst move");
    const review = reviewGame(buildReplay(state, { id: "good", players: { A: "a", B: "b" }, replayUrl: "" }));
    assert.equal(review.moves[target].mark, "best");
    assert.equal(review.moves[target].swing, 0);
    assert.equal(review.moves[target].best, review.moves[target].played);
  });

  it("reviews every move of a game and summarises both seats", () => {
    const { state } = gameWith(5, false);
    const review = reviewGame(buildReplay(state, { id: "g5", players: { A: "a", B: "b" }, replayUrl: "" }));
    assert.equal(review.gameId, "g5");
    assert.equal(review.moves.length, 16);
    for (const m of review.moves) {
      assert.ok(m.swing >= 0);
      assert.equal(m.mark, markOf(m.swing));
    }
    for (const seat of ["A", "B"] as const) {
      const s = review.summary[seat];
      assert.ok(s.accuracy >= 0 && s.accuracy <= 100);
    }
  });

  it("maps swings to marks by the documented thresholds", () => {
    assert.deepEqual([0, 0.5, 2, 4, 6].map(markOf), ["best", "good", "inaccuracy", "mistake", "blunder"]);
  });
});
