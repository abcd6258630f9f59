import assert from "node:assert/strict";
import fc from "fast-check";
import { apply, legalMoves, newGame, RULES_VERSIONS } from "../../src/engine";
import type { GameState, Ruleset, RulesVersion } from "../../src/engine/types";
import { makeRng, randInt } from "../../src/services/ai/rng";
import { IDS, cardIndex, fromState, place, simMoves, squareName } from "../../src/services/ai/sim";

/** The search's rules must be the engine's: compare every position of seeded random games. */
function compareGame(ruleset: Ruleset, seed: number, choice: number, rulesVersion: RulesVersion): void {
  let state: GameState = newGame({ ruleset, rulesVersion }, seed, "sim");
  let { rules, sim } = fromState(state);
  const rng = makeRng(choice);
  while (state.status === "active") {
    const moves = legalMoves(state);
    const simList = simMoves(sim).map(([c, sq]) => `${IDS[c]}@${squareName(sq)}`);
    assert.deepEqual(
      simList,
      moves.map((m) => `${m.card}@${m.square}`),
    );
    const m = moves[randInt(rng, 0, moves.length - 1)];
    const res = apply(state, { kind: "place", card: m.card, square: m.square });
    assert.ok(res.ok);
    state = res.state;
    sim = place(sim, rules, cardIndex(m.card), "abcd".indexOf(m.square[0]) + 4 * (Number(m.square[1]) - 1));
    const fresh = fromState(state).sim;
    assert.deepEqual([...sim.cards], [...fresh.cards], `cards after ${m.card}@${m.square} (seed ${seed})`);
    assert.deepEqual(
      [...sim.owner].filter((_, i) => sim.cards[i] >= 0),
      [...fresh.owner].filter((_, i) => fresh.cards[i] >= 0),
      `owners after ${m.card}@${m.square} (seed ${seed}, ${ruleset}, ${state.mutators.join("+")}, version ${rulesVersion})`,
    );
    assert.deepEqual(sim.score, fresh.score);
    assert.deepEqual(sim.hands, fresh.hands);
    assert.equal(sim.turn, fresh.turn);
    assert.equal(sim.empty, fresh.empty);
    rules = { ...rules };
  }
}

describe("Unit: search simulator", () => {
  // Every version: games stored under an older one are still reviewed, and version 3 changes the last placement.
  it("matches the engine on every position when random games are replayed through both, under every rules version", () => {
    fc.assert(
      fc.property(
        fc.constantFrom<Ruleset>("classic", "mutators"),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.integer(),
        fc.constantFrom(...RULES_VERSIONS),
        (ruleset, seed, choice, version) => {
          compareGame(ruleset, seed, choice, version);
        },
      ),
      { numRuns: 600 },
    );
  });
});
