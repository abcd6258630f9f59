/** The subscriptions table of the SQLite adapter: a webhook subscription per row, unique by its key. */
import type Database from "better-sqlite3";
import type { SubscriptionRecord } from "../port";
import { copy, matchesArguments } from "../shared";
import { parse, type RecordWrites } from "./record-writes";

export const SUBSCRIPTIONS_SCHEMA = `
CREATE TABLE IF NOT EXISTS subscriptions (
  id TEXT PRIMARY KEY,
  key TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS subscriptions_by_name ON subscriptions (name, expires_at);
CREATE INDEX IF NOT EXISTS subscriptions_by_expiry ON subscriptions (expires_at);
-- findGameSubscriptions: a live game's room loads its subscriptions by game (the query's expression, verbatim).
CREATE INDEX IF NOT EXISTS subscriptions_by_game ON subscriptions (json_extract(doc, '$.arguments.game_id'));
`;

type DocRow = { doc: string };

const subscriptionRow = (s: SubscriptionRecord) => ({ id: s.id, key: s.key, name: s.name, expiresAt: s.expiresAt, doc: JSON.stringify(s) });
const parseAll = (rows: DocRow[]): SubscriptionRecord[] => rows.map((r) => JSON.parse(r.doc) as SubscriptionRecord);

export class SqliteSubscriptions {
  private readonly insert: Database.Statement;
  private readonly update: Database.Statement;
  private readonly byKey: Database.Statement;
  private readonly byId: Database.Statement;
  private readonly deleteByKey: Database.Statement;
  private readonly deleteById: Database.Statement;
  private readonly live: Database.Statement;
  private readonly ofGame: Database.Statement;
  private readonly deleteExpired: Database.Statement;

  /**
   * `durable` runs a write the store's way (waiting out a held lock, durable before it resolves); `bookkeeping`
   * waits out a held lock and resolves at the commit, for the dispatcher's bookkeeping (SqliteStore). `writes`
   * holds the read-merge-write of a record (record-writes.ts).
   */
  constructor(
    db: Database.Database,
    private readonly writes: RecordWrites,
    private readonly durable: <T>(fn: () => T) => Promise<T>,
    private readonly bookkeeping: <T>(fn: () => T) => Promise<T>,
  ) {
    db.exec(SUBSCRIPTIONS_SCHEMA);
    this.insert = db.prepare(`INSERT INTO subscriptions (id, key, name, expires_at, doc)
      VALUES (@id, @key, @name, @expiresAt, @doc)`);
    this.update = db.prepare(`UPDATE subscriptions SET key = @key, name = @name, expires_at = @expiresAt, doc = @doc
      WHERE id = @id`);
    this.byKey = db.prepare(`SELECT doc FROM subscriptions WHERE key = ?`);
    this.byId = db.prepare(`SELECT doc FROM subscriptions WHERE id = ?`);
    this.deleteByKey = db.prepare(`DELETE FROM subscriptions WHERE key = ?`);
    this.deleteById = db.prepare(`DELETE FROM subscriptions WHERE id = ?`);
    this.live = db.prepare(`SELECT doc FROM subscriptions WHERE name = ? AND expires_at > ? ORDER BY rowid`);
    this.ofGame = db.prepare(`SELECT doc FROM subscriptions WHERE json_extract(doc, '$.arguments.game_id') = ? ORDER BY rowid`);
    this.deleteExpired = db.prepare(`DELETE FROM subscriptions WHERE expires_at <= ?`);
  }

  async upsert(s: SubscriptionRecord): Promise<SubscriptionRecord> {
    return this.durable(() => {
      return this.writes.atomically((): SubscriptionRecord => {
        const existing = parse<SubscriptionRecord>(this.byKey.get(s.key) as DocRow | undefined);
        if (!existing) {
          const created = copy(s);
          this.insert.run(subscriptionRow(created));
          return created;
        }
        // Same key = same subscription: it keeps its id and creation time, everything else is replaced.
        const replaced = copy({ ...s, id: existing.id, createdAt: existing.createdAt });
        this.update.run(subscriptionRow(replaced));
        return replaced;
      });
    });
  }
  async getByKey(key: string): Promise<SubscriptionRecord | null> {
    return parse<SubscriptionRecord>(this.byKey.get(key) as DocRow | undefined);
  }
  async removeByKey(key: string): Promise<boolean> {
    return this.durable(() => this.deleteByKey.run(key).changes > 0);
  }
  async remove(id: string): Promise<void> {
    await this.durable(() => this.deleteById.run(id));
  }
  async patch(id: string, patch: Partial<SubscriptionRecord>): Promise<void> {
    await this.bookkeeping(() => this.writes.update<SubscriptionRecord>(this.byId, id, patch, "id", (s) => this.update.run(subscriptionRow(s))));
  }
  async find(name: string, match: Record<string, unknown>, now: string): Promise<SubscriptionRecord[]> {
    return parseAll(this.live.all(name, now) as DocRow[]).filter((s) => matchesArguments(s.arguments, match));
  }
  async ofGameId(gameId: string): Promise<SubscriptionRecord[]> {
    return parseAll(this.ofGame.all(gameId) as DocRow[]);
  }
  async removeExpired(now: string): Promise<number> {
    return this.bookkeeping(() => this.deleteExpired.run(now).changes);
  }
}
