/**
 * Ratings against Glicko-2's own reference: Glickman's worked example ("Example of the Glicko-2 system",
 * 2013: a 1500/200/0.06 player beats 1400/30, loses to 1550/100 and 1700/300, and ends at 1464.06, RD
 * 151.52, volatility 0.05999) is computed here step by step from the paper's formulas, and the service's
 * rateGame must agree with that computation on a first result, whose size docs/RULES.md explains.
 */
import assert from "node:assert/strict";
import { DEFAULT_RATING, HOUSE_RATING, rateGame, type Rated } from "../../src/players/rating";

const SCALE = 173.7178;
const TAU = 0.5;

/** One rating period of Glicko-2 for `me` against `games` ([opponent, score]), steps 2 to 8 of the paper. */
function glicko2(me: Rated, games: Array<[Rated, number]>): Rated {
  const mu = (me.rating - 1500) / SCALE;
  const phi = me.rd / SCALE;
  const g = (p: number) => 1 / Math.sqrt(1 + (3 * p * p) / (Math.PI * Math.PI));
  const terms = games.map(([o, s]) => {
    const [mj, pj] = [(o.rating - 1500) / SCALE, o.rd / SCALE];
    const e = 1 / (1 + Math.exp(-g(pj) * (mu - mj)));
    return { g: g(pj), e, s };
  });
  const v = 1 / terms.reduce((sum, t) => sum + t.g * t.g * t.e * (1 - t.e), 0);
  const delta = v * terms.reduce((sum, t) => sum + t.g * (t.s - t.e), 0);
  // Step 5: the new volatility by the Illinois algorithm.
  const a = Math.log(me.volatility ** 2);
  const f = (x: number) => (Math.exp(x) * (delta ** 2 - phi ** 2 - v - Math.exp(x))) / (2 * (phi ** 2 + v + Math.exp(x)) ** 2) - (x - a) / TAU ** 2;
  let A = a;
  let B: number;
  if (delta ** 2 > phi ** 2 + v) B = Math.log(delta ** 2 - phi ** 2 - v);
  else {
    let k = 1;
    while (f(a - k * TAU) < 0) k++;
    B = a - k * TAU;
  }
  let [fA, fB] = [f(A), f(B)];
  while (Math.abs(B - A) > 1e-6) {
    const C = A + ((A - B) * fA) / (fB - fA);
    const fC = f(C);
    if (fC * fB <= 0) [A, fA] = [B, fB];
    else fA /= 2;
    [B, fB] = [C, fC];
  }
  const sigma = Math.exp(A / 2);
  const phiStar = Math.sqrt(phi ** 2 + sigma ** 2);
  const phiNew = 1 / Math.sqrt(1 / phiStar ** 2 + 1 / v);
  const muNew = mu + phiNew ** 2 * terms.reduce((sum, t) => sum + t.g * (t.s - t.e), 0);
  return { rating: SCALE * muNew + 1500, rd: SCALE * phiNew, volatility: sigma };
}

const near = (actual: number, expected: number, within: number, what: string) => assert.ok(Math.abs(actual - expected) <= within, `${what}: ${actual} is not ${expected} ± ${within}`);

describe("Unit: ratings against Glicko-2's reference example", () => {
  it("reproduces Glickman's worked example from the paper's formulas", () => {
    const out = glicko2({ rating: 1500, rd: 200, volatility: 0.06 }, [
      [{ rating: 1400, rd: 30, volatility: 0.06 }, 1],
      [{ rating: 1550, rd: 100, volatility: 0.06 }, 0],
      [{ rating: 1700, rd: 300, volatility: 0.06 }, 0],
    ]);
    near(out.rating, 1464.06, 0.01, "rating");
    near(out.rd, 151.52, 0.01, "RD");
    near(out.volatility, 0.05999, 0.00001, "volatility");
  });

  it("rates a first game exactly as the paper does: a new player's loss to the easy house costs about 473", () => {
    const house = { rating: HOUSE_RATING.easy, rd: 50, volatility: 0.06 };
    for (const score of [0, 0.5, 1]) {
      const [mine] = rateGame({ ...DEFAULT_RATING }, house, score);
      const paper = glicko2({ ...DEFAULT_RATING }, [[house, score]]);
      near(mine.rating, paper.rating, 0.01, `rating after ${score}`);
      near(mine.rd, paper.rd, 0.01, `RD after ${score}`);
    }
    // The figures docs/RULES.md gives ("Ratings"): a loss 1500 -> 1027, a win 1500 -> 1549.
    near(rateGame({ ...DEFAULT_RATING }, house, 0)[0].rating, 1026.6, 0.1, "a first loss to the easy house");
    near(rateGame({ ...DEFAULT_RATING }, house, 1)[0].rating, 1548.7, 0.1, "a first win against the easy house");
  });
});
