/** The leagues table of the SQLite adapter: a league per row, its document replaced by compare-and-set on its version. */
import type Database from "better-sqlite3";
import type { LeagueRecord } from "../port";
import { pageSize } from "../shared";

export const LEAGUES_SCHEMA = `
CREATE TABLE IF NOT EXISTS leagues (
  id TEXT PRIMARY KEY,
  created_at TEXT NOT NULL,
  version INTEGER NOT NULL,
  doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS leagues_by_time ON leagues (created_at, id);
`;

type Row = { doc: string } | undefined;

export class SqliteLeagues {
  private readonly insert: Database.Statement;
  private readonly byId: Database.Statement;
  private readonly newest: Database.Statement;
  private readonly replace: Database.Statement;

  /** `write` runs a write the store's way (waiting out a held lock, durable before it resolves). */
  constructor(db: Database.Database, private readonly write: <T>(fn: () => T) => Promise<T>) {
    db.exec(LEAGUES_SCHEMA);
    this.insert = db.prepare("INSERT INTO leagues (id, created_at, version, doc) VALUES (@id, @createdAt, @version, @doc)");
    this.byId = db.prepare("SELECT doc FROM leagues WHERE id = ?");
    this.newest = db.prepare("SELECT doc FROM leagues ORDER BY created_at DESC, id DESC LIMIT ?");
    this.replace = db.prepare("UPDATE leagues SET version = @version, doc = @doc WHERE id = @id AND version = @version - 1");
  }

  async create(l: LeagueRecord): Promise<void> {
    await this.write(() => this.insert.run({ id: l.id, createdAt: l.createdAt, version: l.version, doc: JSON.stringify(l) }));
  }
  async get(id: string): Promise<LeagueRecord | null> {
    const row = this.byId.get(id) as Row;
    return row ? (JSON.parse(row.doc) as LeagueRecord) : null;
  }
  async list(limit: number): Promise<LeagueRecord[]> {
    return (this.newest.all(pageSize(limit)) as { doc: string }[]).map((r) => JSON.parse(r.doc) as LeagueRecord);
  }
  async replaceIf(l: LeagueRecord): Promise<boolean> {
    return this.write(() => this.replace.run({ id: l.id, version: l.version, doc: JSON.stringify(l) }).changes === 1);
  }
}
