import { strict as assert } from "node:assert";
import fc from "fast-check";
import { allPlayed, buildSchedule, countedDeals, dealDone, releaseWave, roundRobin } from "../../src/leagues/schedule";
import type { LeagueDeal } from "../../src/store/port";

const players = (n: number) => Array.from({ length: n }, (_, i) => `BOT-${i}`);

function schedule(n: number, deals: number): LeagueDeal[] {
  let seed = 0;
  let id = 0;
  return buildSchedule(players(n), deals, () => ++seed, () => `g${++id}`);
}

describe("League schedule", function () {
  it("meets every pair once per round-robin, nobody twice in a round", function () {
    for (let n = 2; n <= 16; n++) {
      const rounds = roundRobin(players(n));
      const pairs = rounds.flat().map(([a, b]) => [a, b].sort().join(" "));
      assert.equal(pairs.length, (n * (n - 1)) / 2);
      assert.equal(new Set(pairs).size, pairs.length);
      for (const round of rounds) assert.equal(new Set(round.flat()).size, round.length * 2);
    }
  });

  it("gives every pair `deals` deals, each two games on one seed with each entrant moving first once", function () {
    const s = schedule(5, 3);
    assert.equal(s.length, 10 * 3);
    const seeds = new Set(s.map((d) => d.seed));
    assert.equal(seeds.size, s.length, "every deal its own seed");
    const ids = s.flatMap((d) => d.games.map((g) => g.gameId));
    assert.equal(new Set(ids).size, ids.length);
    for (const d of s) {
      assert.deepEqual(d.games.map((g) => [g.first, g.second]), [[d.a, d.b], [d.b, d.a]]);
    }
    const perPair = new Map<string, number[]>();
    for (const d of s) perPair.set([d.a, d.b].sort().join(" "), [...(perPair.get([d.a, d.b].sort().join(" ")) ?? []), d.deal]);
    for (const deals of perPair.values()) assert.deepEqual(deals, [0, 1, 2]);
  });

  it("releases waves in which nobody has more than `parallel` deals unfinished, until every deal is played", function () {
    fc.assert(fc.property(
      fc.integer({ min: 2, max: 9 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 }), fc.array(fc.nat(), { minLength: 400, maxLength: 400 }),
      (n, deals, parallel, picks) => {
        const s = schedule(n, deals);
        releaseWave(s, parallel);
        let k = 0;
        while (!allPlayed({ schedule: s })) {
          const busy = new Map<string, number>();
          for (const d of s.filter((x) => x.released && !dealDone(x))) for (const p of [d.a, d.b]) busy.set(p, (busy.get(p) ?? 0) + 1);
          assert.ok([...busy.values()].every((v) => v <= parallel));
          // Nothing released could have been: every unreleased deal has an entrant at the limit.
          for (const d of s.filter((x) => !x.released)) assert.ok((busy.get(d.a) ?? 0) >= parallel || (busy.get(d.b) ?? 0) >= parallel);
          const open = s.filter((x) => x.released).flatMap((x) => x.games).filter((g) => !g.outcome);
          assert.ok(open.length > 0, "something is always being played");
          open[picks[k++ % picks.length] % open.length].outcome = "first";
          releaseWave(s, parallel);
        }
      },
    ), { numRuns: 60 });
  });

  it("counts a deal once both games are decided, and not at all when one is void", function () {
    const s = schedule(3, 1);
    s[0].games[0].outcome = "first";
    s[1].games[0].outcome = "draw";
    s[1].games[1].outcome = "second";
    s[2].games[0].outcome = "void";
    s[2].games[1].outcome = "first";
    assert.deepEqual(countedDeals(s).map((d) => d.games.map((g) => g.outcome)), [["draw", "second"]]);
  });
});
