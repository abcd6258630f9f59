import { strict as assert } from "node:assert";
import fc from "fast-check";
import { bootstrapIntervals, fitBradleyTerry, quantile, type PairResult, type Unit } from "../../src/shared/standings/bradley-terry";
import { leagueTable } from "../../src/shared/standings/league-table";
import { makeRng, rand01 } from "../../src/services/ai/rng";

const ELO = 400 / Math.LN10;

/** Plays `perPair` games between every pair of entrants of the given (Elo-scale) strengths, seeded. */
function simulate(strengths: number[], perPair: number, seed: number, drawShare = 0): PairResult[] {
  const rng = makeRng(seed);
  const games: PairResult[] = [];
  for (let a = 0; a < strengths.length; a++) {
    for (let b = a + 1; b < strengths.length; b++) {
      const p = 1 / (1 + 10 ** ((strengths[b] - strengths[a]) / 400));
      for (let k = 0; k < perPair; k++) {
        const u = rand01(rng);
        // A draw takes its share from the middle, so a's expected score stays p.
        const score = u < p * (1 - drawShare) ? 1 : u < p * (1 - drawShare) + drawShare ? 0.5 : 0;
        games.push({ a, b, score });
      }
    }
  }
  return games;
}

const centred = (xs: number[]): number[] => {
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  return xs.map((x) => x - mean);
};

/** Hunter's MM algorithm with the same virtual draw against a reference of strength 1: a second, independent fit. */
function mmFit(size: number, games: PairResult[]): number[] {
  const w = Array.from({ length: size }, () => 0.5);
  const n = Array.from({ length: size }, () => new Array<number>(size).fill(0));
  for (const g of games) {
    w[g.a] += g.score;
    w[g.b] += 1 - g.score;
    n[g.a][g.b]++;
    n[g.b][g.a]++;
  }
  let p = new Array<number>(size).fill(1);
  for (let it = 0; it < 100000; it++) {
    const next = p.map((pi, i) => {
      let denominator = 1 / (pi + 1);
      for (let j = 0; j < size; j++) if (j !== i && n[i][j] > 0) denominator += n[i][j] / (pi + p[j]);
      return w[i] / denominator;
    });
    const moved = Math.max(...next.map((x, i) => Math.abs(Math.log(x / p[i]))));
    p = next;
    if (moved < 1e-13) break;
  }
  return centred(p.map((x) => Math.log(x) * ELO));
}

describe("Bradley-Terry ratings", function () {
  it("recovers known strengths from simulated games", function () {
    const truth = centred([-300, -120, 0, 80, 140, 200]);
    const { ratings } = fitBradleyTerry(truth.length, simulate(truth, 600, 7));
    for (let i = 0; i < truth.length; i++) assert.ok(Math.abs(ratings[i] - truth[i]) < 25, `entrant ${i}: ${ratings[i]} vs ${truth[i]}`);
  });

  it("counts a draw as half a win each way: the fit of draws equals that of a win and a loss", function () {
    const draws = fitBradleyTerry(3, [
      { a: 0, b: 1, score: 0.5 },
      { a: 0, b: 1, score: 0.5 },
      { a: 1, b: 2, score: 1 },
    ]).ratings;
    const split = fitBradleyTerry(3, [
      { a: 0, b: 1, score: 1 },
      { a: 0, b: 1, score: 0 },
      { a: 1, b: 2, score: 1 },
    ]).ratings;
    draws.forEach((r, i) => assert.ok(Math.abs(r - split[i]) < 1e-9));
  });

  it("agrees with an independent MM fit of the same model", function () {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 8 }).chain((size) =>
          fc
            .array(
              fc.record({ a: fc.nat(size - 1), b: fc.nat(size - 1), score: fc.constantFrom<0 | 0.5 | 1>(0, 0.5, 1) }).filter((g) => g.a !== g.b),
              { maxLength: 60 },
            )
            .map((games) => ({ size, games })),
        ),
        ({ size, games }) => {
          const newton = fitBradleyTerry(size, games).ratings;
          const mm = mmFit(size, games);
          newton.forEach((r, i) => assert.ok(Math.abs(r - mm[i]) < 1e-6, `entrant ${i}: ${r} vs ${mm[i]}`));
        },
      ),
      { numRuns: 100 },
    );
  });

  it("stays finite when an entrant wins or loses everything, and rates nobody without games", function () {
    const { ratings } = fitBradleyTerry(
      3,
      Array.from({ length: 50 }, () => ({ a: 0, b: 1, score: 1 as const })),
    );
    assert.ok(ratings.every(Number.isFinite));
    assert.ok(ratings[0] > 300 && ratings[1] < -300 && Math.abs(ratings[2]) < 200);
    assert.deepEqual(fitBradleyTerry(4, []).ratings, [0, 0, 0, 0]);
  });

  describe("invariance", function () {
    const league = fc.integer({ min: 2, max: 7 }).chain((size) =>
      fc.record({
        size: fc.constant(size),
        games: fc.array(
          fc.record({ a: fc.nat(size - 1), b: fc.nat(size - 1), score: fc.constantFrom<0 | 0.5 | 1>(0, 0.5, 1) }).filter((g) => g.a !== g.b),
          { maxLength: 40 },
        ),
        perm: fc.shuffledSubarray(
          Array.from({ length: size }, (_, i) => i),
          { minLength: size, maxLength: size },
        ),
        order: fc.array(fc.nat(), { minLength: 40, maxLength: 40 }),
      }),
    );
    const close = (x: number[], y: number[]) => x.forEach((v, i) => assert.ok(Math.abs(v - y[i]) < 1e-7, `${i}: ${v} vs ${y[i]}`));

    it("renaming the entrants renames their ratings", function () {
      fc.assert(
        fc.property(league, ({ size, games, perm }) => {
          const base = fitBradleyTerry(size, games).ratings;
          const renamed = fitBradleyTerry(
            size,
            games.map((g) => ({ a: perm[g.a], b: perm[g.b], score: g.score })),
          ).ratings;
          close(
            base,
            base.map((_, i) => renamed[perm[i]]),
          );
        }),
        { numRuns: 100 },
      );
    });

    it("the order of the games, and which entrant a game lists first, change nothing", function () {
      fc.assert(
        fc.property(league, ({ size, games, order }) => {
          const base = fitBradleyTerry(size, games).ratings;
          const shuffled = games
            .map((g, i) => ({ g, k: order[i] }))
            .sort((x, y) => x.k - y.k)
            .map(({ g }) => g);
          close(base, fitBradleyTerry(size, shuffled).ratings);
          close(
            base,
            fitBradleyTerry(
              size,
              games.map((g) => ({ a: g.b, b: g.a, score: (1 - g.score) as 0 | 0.5 | 1 })),
            ).ratings,
          );
        }),
        { numRuns: 100 },
      );
    });

    it("reversing every result negates every rating, and ratings average 0", function () {
      fc.assert(
        fc.property(league, ({ size, games }) => {
          const base = fitBradleyTerry(size, games).ratings;
          close(
            base.map((r) => -r),
            fitBradleyTerry(
              size,
              games.map((g) => ({ ...g, score: (1 - g.score) as 0 | 0.5 | 1 })),
            ).ratings,
          );
          assert.ok(Math.abs(base.reduce((s, r) => s + r, 0)) < 1e-7);
        }),
        { numRuns: 100 },
      );
    });
  });
});

describe("Bootstrap intervals", function () {
  it("draw the same intervals from the same seed, other ones from another", function () {
    const games = simulate([0, 50, 100], 20, 3);
    const units: Unit[] = games.map((g) => [g]);
    const one = bootstrapIntervals(3, units, { seed: 11, resamples: 200 });
    assert.deepEqual(bootstrapIntervals(3, units, { seed: 11, resamples: 200 }), one);
    assert.notDeepEqual(bootstrapIntervals(3, units, { seed: 12, resamples: 200 }), one);
  });

  it("hold the point estimate and narrow as games are added", function () {
    const truth = centred([-100, 0, 100]);
    const width = (perPair: number) => {
      const games = simulate(truth, perPair, 5);
      const fit = fitBradleyTerry(3, games).ratings;
      const ci = bootstrapIntervals(
        3,
        games.map((g) => [g]),
        { seed: 1, resamples: 300 },
      );
      ci.forEach((c, i) => assert.ok(c.low <= fit[i] && fit[i] <= c.high));
      return ci.reduce((s, c) => s + c.high - c.low, 0);
    };
    assert.ok(width(400) < width(25) / 2.5);
  });

  it("cover the true strengths about 95% of the time", function () {
    this.timeout(60_000);
    const truth = centred([-150, -50, 0, 60, 140]);
    let covered = 0;
    let total = 0;
    for (let trial = 0; trial < 40; trial++) {
      const games = simulate(truth, 40, 1000 + trial, 0.1);
      const ci = bootstrapIntervals(
        truth.length,
        games.map((g) => [g]),
        { seed: trial, resamples: 300 },
      );
      ci.forEach((c, i) => {
        total++;
        if (c.low <= truth[i] && truth[i] <= c.high) covered++;
      });
    }
    // 200 intervals at a nominal 95%: below 88% or at 100% would say the intervals are too narrow or too wide.
    const share = covered / total;
    assert.ok(share >= 0.88 && share < 1, `coverage ${share}`);
  });

  it("interpolates quantiles between order statistics", function () {
    assert.equal(quantile([1, 2, 3, 4, 5], 0.5), 3);
    assert.equal(quantile([0, 10], 0.25), 2.5);
    assert.equal(quantile([7], 0.975), 7);
  });
});

describe("League table", function () {
  it("counts games, wins, draws and losses per entrant over complete deals, voids a deal with a void game, and ranks by rating", function () {
    const deals = [
      {
        games: [
          { first: "A", second: "B", outcome: "first" as const },
          { first: "B", second: "A", outcome: "second" as const },
        ],
      },
      {
        games: [
          { first: "A", second: "C", outcome: "draw" as const },
          { first: "C", second: "A", outcome: "void" as const },
        ],
      },
      {
        games: [
          { first: "B", second: "C", outcome: "first" as const },
          { first: "C", second: "B", outcome: null },
        ],
      },
    ];
    const table = leagueTable(["C", "B", "A"], deals, "l_test", 100);
    // Only the first deal is complete and void-free; the second's void game voids it, the third is undecided.
    assert.deepEqual(
      table.map((r) => [r.rank, r.playerId, r.games, r.wins, r.draws, r.losses, r.voided]),
      [
        [1, "A", 2, 2, 0, 0, 1],
        [2, "C", 0, 0, 0, 0, 1],
        [3, "B", 2, 0, 0, 2, 0],
      ],
    );
    for (const r of table) assert.ok(r.low <= r.rating && r.rating <= r.high);
    assert.deepEqual(leagueTable(["C", "B", "A"], deals, "l_test", 100), table);
  });

  it("computes the worked example of docs/TOURNAMENTS.md", function () {
    const d = (a: string, b: string, one: "first" | "second", two: "first" | "second") => ({
      games: [
        { first: a, second: b, outcome: one },
        { first: b, second: a, outcome: two },
      ],
    });
    const deals = [
      d("Ann", "Ben", "first", "first"),
      d("Ann", "Cal", "first", "second"),
      d("Ben", "Cal", "first", "first"),
      d("Ann", "Ben", "first", "second"),
      d("Ann", "Cal", "first", "second"),
      d("Ben", "Cal", "first", "second"),
    ];
    assert.deepEqual(
      leagueTable(["Ann", "Ben", "Cal"], deals, "l_worked_example").map((r) => [r.playerId, r.rating, r.low, r.high, r.games, r.wins, r.losses]),
      [
        ["Ann", 207.3, 90.4, 385.7, 8, 7, 1],
        ["Ben", 0, -171.5, 171.5, 8, 4, 4],
        ["Cal", -207.3, -380, -84.3, 8, 1, 7],
      ],
    );
  });
});
