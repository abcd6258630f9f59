/** The tournaments table of the SQLite adapter: a tournament per row, replaced by compare-and-set on its version. */
import type Database from "better-sqlite3";
import type { TournamentRecord, TournamentsPort } from "../port";
import { pageSize } from "../shared";
import { DocumentTable, type TableWrite } from "./document-table";

export const TOURNAMENTS_SCHEMA = `
CREATE TABLE IF NOT EXISTS tournaments (
  id TEXT PRIMARY KEY,
  created_at TEXT NOT NULL,
  version INTEGER NOT NULL,
  doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS tournaments_by_time ON tournaments (created_at, id);
`;

export class SqliteTournaments implements TournamentsPort {
  private readonly docs: DocumentTable<TournamentRecord>;

  /** `write` runs a write the store's way (waiting out a held lock, durable before it resolves). */
  constructor(db: Database.Database, write: TableWrite) {
    this.docs = new DocumentTable<TournamentRecord>(db, write, {
      table: "tournaments",
      key: { column: "id", member: "id" },
      columns: { created_at: (t) => t.createdAt },
      fixed: ["created_at"],
      versioned: true,
    });
  }

  async createTournament(t: TournamentRecord): Promise<void> {
    await this.docs.create(t);
  }
  async getTournament(id: string): Promise<TournamentRecord | null> {
    return this.docs.get(id);
  }
  async listTournaments(limit: number): Promise<TournamentRecord[]> {
    return this.docs.list("ORDER BY created_at DESC, id DESC LIMIT ?", pageSize(limit));
  }
  async replaceTournamentIf(t: TournamentRecord): Promise<boolean> {
    return this.docs.replaceIf(t);
  }
}
