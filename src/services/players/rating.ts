/**
 * Ratings use Glicko-2 (the `glicko2` package). Each finished game is rated on its own as one rating
 * period, which is how most online game servers apply it. The house opponent has a fixed rating per level
 * and is never updated itself.
 */
import { Glicko2 } from "glicko2";

export const DEFAULT_RATING = { rating: 1500, rd: 350, volatility: 0.06 };
export const HOUSE_RATING: Record<"easy" | "normal" | "hard", number> = { easy: 1100, normal: 1450, hard: 1800 };
export type HouseLevel = keyof typeof HOUSE_RATING;

export interface Rated {
  rating: number;
  rd: number;
  volatility: number;
}

/** The house player of a level as a rating step sees it: its fixed rating, a settled deviation and the default volatility. */
export const houseRated = (level: HouseLevel): Rated => ({ rating: HOUSE_RATING[level], rd: 50, volatility: DEFAULT_RATING.volatility });

/** A seat's score in a rating step: 1 it won, 0.5 a draw, 0 it lost. */
export const scoreOf = (winner: "A" | "B" | "draw" | null, seat: "A" | "B"): number => (winner === "draw" ? 0.5 : winner === seat ? 1 : 0);

/** The rating system every result goes through: τ = 0.5 and the paper's defaults. */
const system = () => new Glicko2({ tau: 0.5, ...DEFAULT_RATING, vol: DEFAULT_RATING.volatility });
const out = (p: ReturnType<Glicko2["makePlayer"]>): Rated => ({ rating: p.getRating(), rd: p.getRd(), volatility: p.getVol() });

/**
 * One seat's rating step: its new rating after one game against `opponent` (both as they were before it),
 * `score` 1, 0.5 or 0. The one rating step there is: the server rates each seat of a finished game with it, and
 * the public log's verifier (src/services/log/check.ts) recomputes every logged step with it. Pure: the same numbers in
 * give the same floating-point numbers out (each seat's update reads only the pre-game values of both).
 */
export function rateSeat(me: Rated, opponent: Rated, score: number): Rated {
  return ratePeriod(me, [[opponent, score]]);
}

/** New ratings of `a` and `b` after one game; `scoreA` is 1 (a won), 0.5 (draw) or 0: rateSeat for each. */
export function rateGame(a: Rated, b: Rated, scoreA: number): [Rated, Rated] {
  return [rateSeat(a, b, scoreA), rateSeat(b, a, 1 - scoreA)];
}

/**
 * The new rating of `me` after one rating period of several games ([opponent, score]), by the same system as
 * rateGame: the shape of Glickman's worked example, against which test/players/glicko-reference.test.ts
 * checks it (the server rates each game as its own period).
 */
export function ratePeriod(me: Rated, games: Array<[Rated, number]>): Rated {
  const g = system();
  const p = g.makePlayer(me.rating, me.rd, me.volatility);
  g.updateRatings(games.map(([o, score]) => [p, g.makePlayer(o.rating, o.rd, o.volatility), score]));
  return out(p);
}

const LADDER: Array<[number, string]> = [
  [2200, "master"],
  [1900, "diamond"],
  [1600, "platinum"],
  [1300, "gold"],
  [1000, "silver"],
  [-Infinity, "bronze"],
];

/** The rank name for a rating: bronze < silver < gold < platinum < diamond < master. */
export const rankOf = (rating: number): string => LADDER.find(([floor]) => rating >= floor)![1];

/** Provisional until the rating deviation has settled or the player has few games. */
export const isProvisional = (rd: number, games: number): boolean => rd > 110 || games < 5;
