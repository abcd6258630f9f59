/** The tournaments table of the SQLite adapter: a tournament per row, replaced by compare-and-set on its version. */
import type Database from "better-sqlite3";
import type { TournamentRecord, TournamentsPort } from "../port";
import { pageSize } from "../shared";

export const TOURNAMENTS_SCHEMA = `
CREATE TABLE IF NOT EXISTS tournaments (
  id TEXT PRIMARY KEY,
  created_at TEXT NOT NULL,
  version INTEGER NOT NULL,
  doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS tournaments_by_time ON tournaments (created_at, id);
`;

type Row = { doc: string } | undefined;

export class SqliteTournaments implements TournamentsPort {
  private readonly insert: Database.Statement;
  private readonly byId: Database.Statement;
  private readonly newest: Database.Statement;
  private readonly replace: Database.Statement;

  /** `write` runs a write the store's way (waiting out a held lock, durable before it resolves). */
  constructor(
    db: Database.Database,
    private readonly write: <T>(fn: () => T) => Promise<T>,
  ) {
    db.exec(TOURNAMENTS_SCHEMA);
    this.insert = db.prepare(`INSERT INTO tournaments (id, created_at, version, doc) VALUES (@id, @createdAt, @version, @doc)`);
    this.byId = db.prepare(`SELECT doc FROM tournaments WHERE id = ?`);
    this.newest = db.prepare(`SELECT doc FROM tournaments ORDER BY created_at DESC, id DESC LIMIT ?`);
    this.replace = db.prepare(`UPDATE tournaments SET version = @version, doc = @doc WHERE id = @id AND version = @version - 1`);
  }

  async createTournament(t: TournamentRecord): Promise<void> {
    await this.write(() => this.insert.run({ id: t.id, createdAt: t.createdAt, version: t.version, doc: JSON.stringify(t) }));
  }
  async getTournament(id: string): Promise<TournamentRecord | null> {
    const row = this.byId.get(id) as Row;
    return row ? (JSON.parse(row.doc) as TournamentRecord) : null;
  }
  async listTournaments(limit: number): Promise<TournamentRecord[]> {
    return (this.newest.all(pageSize(limit)) as { doc: string }[]).map((r) => JSON.parse(r.doc) as TournamentRecord);
  }
  async replaceTournamentIf(t: TournamentRecord): Promise<boolean> {
    return this.write(() => this.replace.run({ id: t.id, version: t.version, doc: JSON.stringify(t) }).changes === 1);
  }
}
