/**
 * The rating history table of the SQLite adapter: one row per rated game per player, added by the profile
 * write that carries it (PlayerRecord.lastRated), inside that write's transaction.
 */
import type Database from "better-sqlite3";
import type { PlayerRecord, RatingPoint, RatingsPort, RatingStep } from "../port";
import { pageSize } from "../shared";

export const RATINGS_SCHEMA = `
CREATE TABLE IF NOT EXISTS rating_history (
  player_id TEXT NOT NULL,
  n INTEGER NOT NULL,
  game_id TEXT NOT NULL,
  at TEXT NOT NULL,
  rating REAL NOT NULL,
  rd REAL NOT NULL,
  step TEXT,
  PRIMARY KEY (player_id, n)
);
CREATE UNIQUE INDEX IF NOT EXISTS rating_history_by_game ON rating_history (player_id, game_id);
`;

type Row = { player_id: string; n: number; game_id: string; at: string; rating: number; rd: number; step: string | null };

const pointOf = (r: Row): RatingPoint => ({
  playerId: r.player_id,
  gameId: r.game_id,
  at: r.at,
  n: r.n,
  rating: r.rating,
  rd: r.rd,
  ...(r.step ? { step: JSON.parse(r.step) as RatingStep } : {}),
});

export class SqliteRatings implements RatingsPort {
  private readonly insert: Database.Statement;
  private readonly page: Database.Statement;
  private readonly ofGame: Database.Statement;
  private readonly previous: Database.Statement;

  constructor(db: Database.Database) {
    // A point already held (the same game, or the same place) is kept as it is: writing a profile again adds nothing.
    this.insert = db.prepare(
      "INSERT OR IGNORE INTO rating_history (player_id, n, game_id, at, rating, rd, step) VALUES (@playerId, @n, @gameId, @at, @rating, @rd, @step)",
    );
    this.page = db.prepare("SELECT * FROM rating_history WHERE player_id = ? AND n > ? ORDER BY n LIMIT ?");
    this.ofGame = db.prepare("SELECT * FROM rating_history WHERE player_id = ? AND game_id = ?");
    this.previous = db.prepare("SELECT * FROM rating_history WHERE player_id = ? AND n < ? ORDER BY n DESC LIMIT 1");
  }

  /** Adds the profile's newest point, if it has one; runs inside the caller's transaction (the profile's write). */
  addFrom(p: PlayerRecord): void {
    if (p.lastRated) this.insert.run({ playerId: p.id, ...p.lastRated, step: p.lastRated.step ? JSON.stringify(p.lastRated.step) : null });
  }

  async ratingHistory(playerId: string, after: number, limit: number): Promise<RatingPoint[]> {
    const rows = this.page.all(playerId, Math.max(0, Math.floor(after)), pageSize(limit)) as Row[];
    return rows.map(pointOf);
  }

  async ratingChanges(gameId: string, playerIds: readonly string[]): Promise<{ after: RatingPoint; before: RatingPoint | null }[]> {
    const out: { after: RatingPoint; before: RatingPoint | null }[] = [];
    for (const playerId of new Set(playerIds)) {
      const after = this.ofGame.get(playerId, gameId) as Row | undefined;
      if (!after) continue;
      const before = this.previous.get(playerId, after.n) as Row | undefined;
      out.push({ after: pointOf(after), before: before ? pointOf(before) : null });
    }
    return out;
  }
}
