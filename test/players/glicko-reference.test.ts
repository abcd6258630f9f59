/**
 * Ratings against Glicko-2's published figures: Glickman's worked example ("Example of the Glicko-2 system",
 * 2013: a 1500/200/0.06 player beats 1400/30, loses to 1550/100 and 1700/300 in one rating period, τ = 0.5,
 * and ends at 1464.06, RD 151.52, volatility 0.05999) through the project's own rating system, and the
 * first-game results docs/RULES.md gives, whose size it explains.
 */
import assert from "node:assert/strict";
import { DEFAULT_RATING, HOUSE_RATING, ratePeriod, rateGame } from "../../src/services/players/rating";

const near = (actual: number, expected: number, within: number, what: string) =>
  assert.ok(Math.abs(actual - expected) <= within, `${what}: ${actual} is not ${expected} ± ${within}`);

describe("Unit: ratings against Glicko-2's reference example", () => {
  it("gives the figures of Glickman's worked example", () => {
    const out = ratePeriod({ rating: 1500, rd: 200, volatility: 0.06 }, [
      [{ rating: 1400, rd: 30, volatility: 0.06 }, 1],
      [{ rating: 1550, rd: 100, volatility: 0.06 }, 0],
      [{ rating: 1700, rd: 300, volatility: 0.06 }, 0],
    ]);
    // The paper's figures, rounded as it prints them.
    near(out.rating, 1464.06, 0.01, "rating");
    near(out.rd, 151.52, 0.01, "RD");
    near(out.volatility, 0.05999, 0.00001, "volatility");
    // The example hardly depends on τ: any τ from 0.2 to 0.8 prints 0.05999 too. Unrounded, τ = 0.5 gives
    // 0.0599959843 (the figure of other implementations, e.g. the Rust crate skillratings' glicko2_rating_period
    // example), τ = 0.3 0.0599986 and τ = 0.8 0.0599897: this pins the system's τ.
    near(out.volatility, 0.0599959843, 1e-9, "volatility, unrounded");
  });

  it("rates a game as a rating period of that one game for each seat: a new player's loss to the easy house costs about 473", () => {
    const house = { rating: HOUSE_RATING.easy, rd: 50, volatility: 0.06 };
    for (const score of [0, 0.5, 1]) {
      const [mine, theirs] = rateGame({ ...DEFAULT_RATING }, house, score);
      assert.deepEqual(mine, ratePeriod({ ...DEFAULT_RATING }, [[house, score]]), `the new player after ${score}`);
      assert.deepEqual(theirs, ratePeriod(house, [[{ ...DEFAULT_RATING }, 1 - score]]), `the house after ${score}`);
    }
    // The figures docs/RULES.md gives ("Ratings"): a loss 1500 -> 1027 (RD 350 -> 303), a win 1500 -> 1549.
    const [lost] = rateGame({ ...DEFAULT_RATING }, house, 0);
    near(lost.rating, 1026.6, 0.1, "a first loss to the easy house");
    near(lost.rd, 303, 0.5, "the RD after a first game");
    near(rateGame({ ...DEFAULT_RATING }, house, 1)[0].rating, 1548.7, 0.1, "a first win against the easy house");
  });
});
