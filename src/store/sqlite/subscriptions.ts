/**
 * The webhook tables of the SQLite adapter (SubscriptionsPort): a subscription per row, unique by its key; a
 * delivery not finished yet per row, leased to a process; and when each callback URL was last verified.
 */
import type Database from "better-sqlite3";
import type { DeliveryRecord, SubscriptionRecord, SubscriptionsPort } from "../port";
import { copy, matchesArguments, pageSize } from "../shared";
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

export const DELIVERIES_SCHEMA = `
CREATE TABLE IF NOT EXISTS deliveries (
  event_id TEXT PRIMARY KEY,
  lease_until TEXT NOT NULL,
  created_at TEXT NOT NULL,
  doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS deliveries_by_lease ON deliveries (lease_until, created_at);
`;

export const VERIFIED_URLS_SCHEMA = `
CREATE TABLE IF NOT EXISTS verified_urls (
  url TEXT PRIMARY KEY,
  at TEXT NOT NULL
);
`;

type DocRow = { doc: string };

const subscriptionRow = (s: SubscriptionRecord) => ({ id: s.id, key: s.key, name: s.name, expiresAt: s.expiresAt, doc: JSON.stringify(s) });
const parseAll = (rows: DocRow[]): SubscriptionRecord[] => rows.map((r) => JSON.parse(r.doc) as SubscriptionRecord);
const deliveryRow = (d: DeliveryRecord) => ({ eventId: d.eventId, leaseUntil: d.leaseUntil, createdAt: d.createdAt, doc: JSON.stringify(d) });

export class SqliteSubscriptions implements SubscriptionsPort {
  private readonly insert: Database.Statement;
  private readonly update: Database.Statement;
  private readonly byKey: Database.Statement;
  private readonly byId: Database.Statement;
  private readonly deleteByKey: Database.Statement;
  private readonly deleteById: Database.Statement;
  private readonly live: Database.Statement;
  private readonly ofGame: Database.Statement;
  private readonly deleteExpired: Database.Statement;
  private readonly saveDelivery: Database.Statement;
  private readonly deleteDelivery: Database.Statement;
  private readonly expireOf: Database.Statement;
  private readonly expired: Database.Statement;
  private readonly markUrl: Database.Statement;
  private readonly urlAt: Database.Statement;

  /**
   * `durable` runs a write the store's way (waiting out a held lock, durable before it resolves); `bookkeeping`
   * waits out a held lock and resolves at the commit, without waiting for the WAL fsync, for the dispatcher's
   * bookkeeping (SqliteStore). `writes` holds the read-merge-write of a record and the transaction several
   * rows are written in (record-writes.ts).
   */
  constructor(
    db: Database.Database,
    private readonly writes: RecordWrites,
    private readonly durable: <T>(fn: () => T) => Promise<T>,
    private readonly bookkeeping: <T>(fn: () => T) => Promise<T>,
  ) {
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
    this.saveDelivery = db.prepare(`INSERT INTO deliveries (event_id, lease_until, created_at, doc)
      VALUES (@eventId, @leaseUntil, @createdAt, @doc)
      ON CONFLICT (event_id) DO UPDATE SET lease_until = excluded.lease_until, doc = excluded.doc`);
    this.deleteDelivery = db.prepare(`DELETE FROM deliveries WHERE event_id = ?`);
    this.expireOf = db.prepare(`UPDATE deliveries SET lease_until = @now, doc = json_set(doc, '$.leaseUntil', @now)
      WHERE json_extract(doc, '$.holder') = @holder AND lease_until > @now`);
    this.expired = db.prepare(`SELECT doc FROM deliveries WHERE lease_until <= ? ORDER BY created_at, event_id LIMIT ?`);
    this.markUrl = db.prepare(`INSERT INTO verified_urls (url, at) VALUES (?, ?) ON CONFLICT (url) DO UPDATE SET at = excluded.at`);
    this.urlAt = db.prepare(`SELECT at FROM verified_urls WHERE url = ?`);
  }

  // ---- subscriptions ----
  async upsertSubscription(s: SubscriptionRecord): Promise<SubscriptionRecord> {
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
  async getSubscriptionByKey(key: string): Promise<SubscriptionRecord | null> {
    return parse<SubscriptionRecord>(this.byKey.get(key) as DocRow | undefined);
  }
  async deleteSubscriptionByKey(key: string): Promise<boolean> {
    return this.durable(() => this.deleteByKey.run(key).changes > 0);
  }
  async deleteSubscription(id: string): Promise<void> {
    await this.durable(() => this.deleteById.run(id));
  }
  async updateSubscription(id: string, patch: Partial<SubscriptionRecord>): Promise<void> {
    await this.bookkeeping(() => this.writes.update<SubscriptionRecord>(this.byId, id, patch, "id", (s) => this.update.run(subscriptionRow(s))));
  }
  async findSubscriptions(name: string, match: Record<string, unknown>, now: string): Promise<SubscriptionRecord[]> {
    return parseAll(this.live.all(name, now) as DocRow[]).filter((s) => matchesArguments(s.arguments, match));
  }
  async findGameSubscriptions(gameId: string): Promise<SubscriptionRecord[]> {
    return parseAll(this.ofGame.all(gameId) as DocRow[]);
  }
  async deleteExpiredSubscriptions(now: string): Promise<number> {
    return this.bookkeeping(() => this.deleteExpired.run(now).changes);
  }

  // ---- deliveries: every write is bookkeeping ----
  async saveDeliveries(d: DeliveryRecord[]): Promise<void> {
    await this.bookkeeping(() => {
      this.writes.atomically(() => {
        for (const row of d) this.saveDelivery.run(deliveryRow(row));
      });
    });
  }
  async deleteDeliveries(eventIds: string[]): Promise<void> {
    await this.bookkeeping(() => {
      this.writes.atomically(() => {
        for (const id of eventIds) this.deleteDelivery.run(id);
      });
    });
  }
  async claimDeliveries(expiredBy: string, leaseUntil: string, limit: number, holder?: string): Promise<DeliveryRecord[]> {
    return this.bookkeeping(() => {
      // One immediate transaction: another process sharing the file cannot read the same rows before the lease is set.
      return this.writes.atomically((): DeliveryRecord[] => {
        const claimed = (this.expired.all(expiredBy, pageSize(limit)) as DocRow[]).map((r) => ({
          ...(JSON.parse(r.doc) as DeliveryRecord),
          leaseUntil,
          ...(holder ? { holder } : {}),
        }));
        for (const d of claimed) this.saveDelivery.run(deliveryRow(d));
        return claimed;
      });
    });
  }
  async expireDeliveriesOf(holder: string, now: string): Promise<number> {
    return this.bookkeeping(() => this.expireOf.run({ holder, now }).changes);
  }

  // ---- verified callback URLs ----
  async markUrlVerified(url: string, at: string): Promise<void> {
    await this.durable(() => this.markUrl.run(url, at));
  }
  async urlVerifiedAt(url: string): Promise<string | null> {
    return (this.urlAt.get(url) as { at: string } | undefined)?.at ?? null;
  }
}
