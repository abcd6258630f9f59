/** The verified_urls table of the SQLite adapter: when each webhook callback URL was last verified. */
import type Database from "better-sqlite3";

export const VERIFIED_URLS_SCHEMA = `
CREATE TABLE IF NOT EXISTS verified_urls (
  url TEXT PRIMARY KEY,
  at TEXT NOT NULL
);
`;

export class SqliteVerifiedUrls {
  private readonly mark: Database.Statement;
  private readonly at: Database.Statement;

  /** `write` runs a write the store's way (waiting out a held lock, durable before it resolves). */
  constructor(
    db: Database.Database,
    private readonly write: <T>(fn: () => T) => Promise<T>,
  ) {
    db.exec(VERIFIED_URLS_SCHEMA);
    this.mark = db.prepare(`INSERT INTO verified_urls (url, at) VALUES (?, ?) ON CONFLICT (url) DO UPDATE SET at = excluded.at`);
    this.at = db.prepare(`SELECT at FROM verified_urls WHERE url = ?`);
  }

  async markVerified(url: string, at: string): Promise<void> {
    await this.write(() => this.mark.run(url, at));
  }
  async verifiedAt(url: string): Promise<string | null> {
    return (this.at.get(url) as { at: string } | undefined)?.at ?? null;
  }
}
