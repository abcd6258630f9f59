import { strict as assert } from "node:assert";
import fc from "fast-check";
import { buildSchedule, countedDeals, dealDone, releaseWave, roundRobin } from "../../src/services/leagues/schedule";
import type { LeagueDeal, LeagueOutcome } from "../../src/store/port";

const players = (n: number) => Array.from({ length: n }, (_, i) => `BOT-${i}`);

function schedule(n: number, deals: number): LeagueDeal[] {
  let seed = 0;
  let id = 0;
  return buildSchedule(
    players(n),
    deals,
    () => ++seed,
    () => `g${++id}`,
  );
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
      assert.deepEqual(
        d.games.map((g) => [g.first, g.second]),
        [
          [d.a, d.b],
          [d.b, d.a],
        ],
      );
    }
    const perPair = new Map<string, number[]>();
    for (const d of s) perPair.set([d.a, d.b].sort().join(" "), [...(perPair.get([d.a, d.b].sort().join(" ")) ?? []), d.deal]);
    for (const deals of perPair.values()) assert.deepEqual(deals, [0, 1, 2]);
  });

  it("releases waves in which nobody has more than `parallel` deals unfinished, until every deal is played", function () {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 9 }),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 3 }),
        fc.array(fc.nat(), { minLength: 400, maxLength: 400 }),
        (n, deals, parallel, picks) => {
          const s = schedule(n, deals);
          const released = new Set<number>();
          const open: number[] = [];
          const outcomes = new Map<string, LeagueOutcome>();
          releaseWave(s, released, open, parallel);
          let k = 0;
          while (!s.every((d) => dealDone(d, outcomes))) {
            const busy = new Map<string, number>();
            for (const i of open) for (const p of [s[i].a, s[i].b]) busy.set(p, (busy.get(p) ?? 0) + 1);
            assert.deepEqual(
              open,
              [...released].filter((i) => !dealDone(s[i], outcomes)).sort((x, y) => x - y),
            );
            assert.ok([...busy.values()].every((v) => v <= parallel));
            // Nothing released could have been: every unreleased deal has an entrant at the limit.
            for (const d of s.filter((_, i) => !released.has(i))) assert.ok((busy.get(d.a) ?? 0) >= parallel || (busy.get(d.b) ?? 0) >= parallel);
            const playing = open.flatMap((i) => s[i].games).filter((g) => !outcomes.has(g.gameId));
            assert.ok(playing.length > 0, "something is always being played");
            outcomes.set(playing[picks[k++ % picks.length] % playing.length].gameId, "first");
            open.splice(0, open.length, ...open.filter((i) => !dealDone(s[i], outcomes)));
            releaseWave(s, released, open, parallel);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it("counts a deal once both games are decided, and not at all when one is void", function () {
    const s = schedule(3, 1);
    const outcomes = new Map<string, LeagueOutcome>([
      [s[0].games[0].gameId, "first"],
      [s[1].games[0].gameId, "draw"],
      [s[1].games[1].gameId, "second"],
      [s[2].games[0].gameId, "void"],
      [s[2].games[1].gameId, "first"],
    ]);
    assert.deepEqual(
      countedDeals(s, outcomes).map((d) => d.games.map((g) => g.outcome)),
      [["draw", "second"]],
    );
  });
});
