import assert from "node:assert/strict";
import type { Level, Ruleset } from "../../src/game/types";
import { runMatch } from "../../src/ai";

/**
 * Strength by seeded self-play. Seeds are fixed, so each result is reproducible; the unit run keeps the
 * matches short (the big runs are `npm run selfplay`), and asks for a clear majority of decided games.
 */
function record(a: Level, b: Level, ruleset: Ruleset, games: number, seed: number): { a: number; b: number; detail: string } {
  const s = runMatch({ games, ruleset, a, b, seed });
  return { a: s.aWins, b: s.bWins, detail: `${ruleset}: ${a} ${s.aWins} - ${s.bWins} ${b}, ${s.draws} draws` };
}

describe("Unit: house opponent strength", function () {
  this.timeout(180_000);
  // Games per ruleset; the share is pooled over both rulesets (the hard pairing is the costly one).
  const pairings: Array<[Level, Level, number]> = [["easy", "random", 40], ["normal", "easy", 20], ["hard", "normal", 16]];
  for (const [a, b, games] of pairings) {
    it(`wins a clear majority when ${a} plays ${b} in seeded games`, () => {
      const runs = (["classic", "mutators"] as const).map((ruleset) => record(a, b, ruleset, games, 2024));
      const wins = runs.reduce((n, r) => n + r.a, 0), losses = runs.reduce((n, r) => n + r.b, 0);
      assert.ok(wins / Math.max(1, wins + losses) >= 0.6, runs.map((r) => r.detail).join("; "));
    });
  }
});
