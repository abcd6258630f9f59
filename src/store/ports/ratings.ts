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
