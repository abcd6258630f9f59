/**
 * The statements that write games, actions and players, prepared once per connection: the store's own and
 * the writer thread's (writer-thread.ts) both write those records through record-writes.ts. Each table's other
 * statements are prepared by its class (games.ts, players.ts, bots.ts, ...).
 */
import type { Database, Statement } from "better-sqlite3";

export function prepareStatements(db: Database) {
  const p = (sql: string): Statement => db.prepare(sql);
  return {
    insertGame: p(`INSERT INTO games (id, created_at, status, public, code_a, code_b, player_a, player_b, doc)
      VALUES (@id, @createdAt, @status, @public, @codeA, @codeB, @playerA, @playerB, @doc)`),
    updateGame: p(`UPDATE games SET status = @status, public = @public, code_a = @codeA, code_b = @codeB,
      player_a = @playerA, player_b = @playerB, doc = @doc WHERE id = @id`),
    getGame: p(`SELECT doc FROM games WHERE id = ?`),

    insertAction: p(`INSERT INTO actions (game_id, idx, at, action) VALUES (@gameId, @index, @at, @action)`),
    deleteAction: p(`DELETE FROM actions WHERE game_id = @gameId AND idx = @index`),

    insertPlayer: p(`INSERT INTO players (id, rating, doc) VALUES (@id, @rating, @doc)`),
    updatePlayer: p(`UPDATE players SET rating = @rating, doc = @doc WHERE id = @id`),
    getPlayer: p(`SELECT doc FROM players WHERE id = ?`),

    // The owner fence of a group-commit write: the game is still held under this epoch.
    gameOwnedAt: p(`SELECT 1 FROM games WHERE id = @id AND json_extract(doc, '$.ownerEpoch') = @epoch`),

    probe: p(`INSERT INTO health_probe (id, at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET at = excluded.at`),
  };
}

export type Statements = ReturnType<typeof prepareStatements>;
