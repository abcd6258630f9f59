import assert from "node:assert/strict";
import type { Level, Ruleset, RulesVersion } from "../../src/engine/types";
import { type AiLevel, runMatch } from "../../src/services/ai";

/**
 * Strength and seat balance by seeded self-play. Seeds are fixed, so each result is reproducible; the unit run
 * keeps the matches short (the big runs are `npm run selfplay`, figures in docs/BENCHMARKS.md and docs/RULES.md).
 */
function record(a: AiLevel, b: AiLevel, ruleset: Ruleset, games: number, seed: number): { a: number; b: number; detail: string } {
  const s = runMatch({ games, ruleset, a, b, seed });
  return { a: s.aWins, b: s.bWins, detail: `${ruleset}: ${a} ${s.aWins} - ${s.bWins} ${b}, ${s.draws} draws` };
}

/** The first mover's share of decided games over both rulesets, between two players of the same level. */
function firstShare(level: Level, games: number, seed: number, rulesVersion?: RulesVersion): { share: number; detail: string } {
  const runs = (["classic", "mutators"] as const).map((ruleset) => ({ ruleset, s: runMatch({ games, ruleset, a: level, b: level, seed, rulesVersion }) }));
  const first = runs.reduce((n, r) => n + r.s.firstWins, 0),
    second = runs.reduce((n, r) => n + r.s.secondWins, 0);
  const detail = runs.map((r) => `${r.ruleset}: first ${r.s.firstWins} - ${r.s.secondWins} second, ${r.s.draws} draws`).join("; ");
  return { share: first / Math.max(1, first + second), detail };
}

describe("Unit: house opponent strength", function () {
  this.timeout(180_000);
  // Games per ruleset and the least share of decided games, pooled over both rulesets (the hard pairings are
  // the costly ones). Hard against hard-2026 is the smaller edge, so it plays more games to a lower bar; at this
  // size it catches a broken hard, not a step back to the former one (docs/BENCHMARKS.md: the 400-game runs measure that).
  const pairings: Array<[AiLevel, AiLevel, number, number]> = [
    ["easy", "random", 40, 0.6],
    ["normal", "easy", 20, 0.6],
    ["hard", "normal", 16, 0.6],
    ["hard", "hard-2026", 30, 0.55],
  ];
  for (const [a, b, games, least] of pairings) {
    it(`wins ${Math.round(least * 100)}% or more of decided games when ${a} plays ${b} in seeded games`, () => {
      const runs = (["classic", "mutators"] as const).map((ruleset) => record(a, b, ruleset, games, 2024));
      const wins = runs.reduce((n, r) => n + r.a, 0),
        losses = runs.reduce((n, r) => n + r.b, 0);
      assert.ok(wins / Math.max(1, wins + losses) >= least, runs.map((r) => r.detail).join("; "));
    });
  }
});

describe("Unit: seat balance", function () {
  this.timeout(180_000);
  for (const [level, games] of [
    ["easy", 200],
    ["normal", 100],
  ] as const) {
    it(`gives the first mover about half the decided games between two ${level} players (current rules)`, () => {
      const { share, detail } = firstShare(level, games, 2024);
      assert.ok(share >= 0.4 && share <= 0.6, `${Math.round(100 * share)}%: ${detail}`);
    });
  }

  it("gives the first mover 45-55% of decided games between two easy players in mutators, seed 77", () => {
    // Mutators at easy was the cell furthest from even (the first mover took 163 of these 400 games while easy
    // left weak edges open for the last card's combo chains); the 2,000-game runs are in docs/RULES.md.
    const s = runMatch({ games: 400, ruleset: "mutators", a: "easy", b: "easy", seed: 77 });
    const share = s.firstWins / Math.max(1, s.firstWins + s.secondWins);
    assert.ok(share >= 0.45 && share <= 0.55, `first ${s.firstWins} - ${s.secondWins} second, ${s.draws} draws`);
  });

  it("gives the first mover 45-55% of decided games between two normal players in mutators, seed 77", () => {
    // Without its exact endgame normal misjudged the last placements, which in mutators favoured the first mover
    // (171 of these 300 games, 57%); the 2,000-game runs are in docs/RULES.md.
    const s = runMatch({ games: 300, ruleset: "mutators", a: "normal", b: "normal", seed: 77 });
    const share = s.firstWins / Math.max(1, s.firstWins + s.secondWins);
    assert.ok(share >= 0.45 && share <= 0.55, `first ${s.firstWins} - ${s.secondWins} second, ${s.draws} draws`);
  });

  it("measures the bias the current rules correct: under version 1 the second mover wins most decided games", () => {
    const { share, detail } = firstShare("easy", 200, 2024, 1);
    assert.ok(share < 0.4, `${Math.round(100 * share)}%: ${detail}`);
  });
});
