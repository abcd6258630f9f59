/** The ratings port: players' rating histories. */

/** One point of a player's rating history: what one rated game left the rating at. */
export interface RatingPoint {
  playerId: string;
  gameId: string;
  /** When the game was rated (its end). */
  at: string;
  /** The profile's game count after this game: the point's place in the history, from 1. */
  n: number;
  /** Glicko-2 rating and deviation after the game, unrounded. */
  rating: number;
  rd: number;
  /** What the rating step took and gave (absent on points rated before steps were kept): the public log's entry carries it. */
  step?: RatingStep;
}

/** A Glicko-2 rating, deviation and volatility, unrounded. */
export interface StepRating {
  rating: number;
  rd: number;
  volatility: number;
}

/** One rating step as the server took it (src/services/players/rating.ts, rateSeat), so anyone can recompute it. */
export interface RatingStep {
  /** The player's rating before the game. */
  before: StepRating;
  /** The opponent's before the game (a house player's fixed rating). */
  opponent: StepRating;
  /** The house level, when the opponent was a house player. */
  house?: "easy" | "normal" | "hard";
  /** 1 won, 0.5 draw, 0 lost. */
  score: number;
  /** The volatility after (the point's rating and rd are the rest of the after-values). */
  volatility: number;
  /** The profile's previous point: null, never rated before; absent, not known (a profile rated before points were kept). */
  previous?: { gameId: string; n: number } | null;
}
/** A point as its profile carries it (PlayerRecord.lastRated). */
export type RatingPointOf = Omit<RatingPoint, "playerId">;

/**
 * Players' rating histories: one point per rated game, added by the profile write that carries it
 * (PlayerRecord.lastRated). SQLite adds it in the same transaction as the profile; MongoDB right after the
 * profile's write (a crash between the two loses that one point, never the rating). Adding a point twice keeps one.
 */
export interface RatingsPort {
  /** A player's points whose `n` is above `after` (0: from the first), oldest first, at most `limit`. */
  ratingHistory(playerId: string, after: number, limit: number): Promise<RatingPoint[]>;
  /** For each of `playerIds` whose history has a point for the game: that point and the one before it (null: none). */
  ratingChanges(gameId: string, playerIds: readonly string[]): Promise<{ after: RatingPoint; before: RatingPoint | null }[]>;
}
