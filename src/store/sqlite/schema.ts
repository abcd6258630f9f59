/**
 * SQLite schema of the tables both connections write (games, actions, players: the store's own and the writer
 * thread's, writer-thread.ts) and of the health probe; every other table's schema is in its class's file
 * (bots.ts, tournaments.ts, ...). The numbered migrations (migrations.ts) create them all, and add what a
 * store made by an earlier version lacks. Records live in a JSON `doc` column (keeps the adapter small and
 * the port's records verbatim); the columns beside it exist only to be indexed and filtered on.
 */
/**
 * A player the leaderboard lists (RankOptions.listed): at least one game, not moved to an account. Queries
 * that filter on it use this text verbatim.
 */
export const LISTED_PLAYER = `json_extract(doc, '$.games') > 0 AND json_extract(doc, '$.movedTo') IS NULL`;

export const SCHEMA = `
CREATE TABLE IF NOT EXISTS games (
  id TEXT PRIMARY KEY,
  created_at TEXT NOT NULL,
  status TEXT NOT NULL,
  public INTEGER NOT NULL,
  code_a TEXT,
  code_b TEXT,
  player_a TEXT,
  player_b TEXT,
  doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS games_by_created ON games (created_at, id);
CREATE INDEX IF NOT EXISTS games_by_status ON games (status, created_at, id);
CREATE INDEX IF NOT EXISTS games_by_public ON games (public, created_at, id);
CREATE INDEX IF NOT EXISTS games_by_code_a ON games (code_a) WHERE code_a IS NOT NULL;
CREATE INDEX IF NOT EXISTS games_by_code_b ON games (code_b) WHERE code_b IS NOT NULL;

CREATE TABLE IF NOT EXISTS actions (
  game_id TEXT NOT NULL,
  idx INTEGER NOT NULL,
  at TEXT NOT NULL,
  action TEXT NOT NULL,
  PRIMARY KEY (game_id, idx)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS players (
  id TEXT PRIMARY KEY,
  rating REAL NOT NULL,
  doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS players_by_rating ON players (rating DESC, id);
-- rankPlayers' listed option (the player leaderboard): OFFSET steps over this index alone instead of reading
-- every skipped profile's document to test the filter (many profiles never finish a game).
CREATE INDEX IF NOT EXISTS players_listed_by_rating ON players (rating DESC, id) WHERE ${LISTED_PLAYER};

-- One row the health check rewrites: a write that is stored and synced shows the store can keep one.
CREATE TABLE IF NOT EXISTS health_probe (
  id INTEGER PRIMARY KEY,
  at TEXT NOT NULL
);
`;
