/** The deliveries table of the SQLite adapter: a webhook delivery not finished yet per row, leased to a process. */
import type Database from "better-sqlite3";
import type { DeliveryRecord } from "../port";
import { pageSize } from "../shared";
import type { RecordWrites } from "./record-writes";

export const DELIVERIES_SCHEMA = `
CREATE TABLE IF NOT EXISTS deliveries (
  event_id TEXT PRIMARY KEY,
  lease_until TEXT NOT NULL,
  created_at TEXT NOT NULL,
  doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS deliveries_by_lease ON deliveries (lease_until, created_at);
`;

const deliveryRow = (d: DeliveryRecord) => ({ eventId: d.eventId, leaseUntil: d.leaseUntil, createdAt: d.createdAt, doc: JSON.stringify(d) });

export class SqliteDeliveries {
  private readonly save: Database.Statement;
  private readonly remove: Database.Statement;
  private readonly expireOf: Database.Statement;
  private readonly expired: Database.Statement;

  /**
   * `bookkeeping` runs a write waiting out a held lock and resolves at the commit, without waiting for the WAL
   * fsync (SqliteStore); `writes` holds the transaction several rows are written in (record-writes.ts).
   */
  constructor(
    db: Database.Database,
    private readonly writes: RecordWrites,
    private readonly bookkeeping: <T>(fn: () => T) => Promise<T>,
  ) {
    db.exec(DELIVERIES_SCHEMA);
    this.save = db.prepare(`INSERT INTO deliveries (event_id, lease_until, created_at, doc)
      VALUES (@eventId, @leaseUntil, @createdAt, @doc)
      ON CONFLICT (event_id) DO UPDATE SET lease_until = excluded.lease_until, doc = excluded.doc`);
    this.remove = db.prepare(`DELETE FROM deliveries WHERE event_id = ?`);
    this.expireOf = db.prepare(`UPDATE deliveries SET lease_until = @now, doc = json_set(doc, '$.leaseUntil', @now)
      WHERE json_extract(doc, '$.holder') = @holder AND lease_until > @now`);
    this.expired = db.prepare(`SELECT doc FROM deliveries WHERE lease_until <= ? ORDER BY created_at, event_id LIMIT ?`);
  }

  async saveAll(d: DeliveryRecord[]): Promise<void> {
    await this.bookkeeping(() => {
      this.writes.atomically(() => {
        for (const row of d) this.save.run(deliveryRow(row));
      });
    });
  }
  async removeAll(eventIds: string[]): Promise<void> {
    await this.bookkeeping(() => {
      this.writes.atomically(() => {
        for (const id of eventIds) this.remove.run(id);
      });
    });
  }
  async claim(expiredBy: string, leaseUntil: string, limit: number, holder?: string): Promise<DeliveryRecord[]> {
    return this.bookkeeping(() => {
      // One immediate transaction: another process sharing the file cannot read the same rows before the lease is set.
      return this.writes.atomically((): DeliveryRecord[] => {
        const claimed = (this.expired.all(expiredBy, pageSize(limit)) as { doc: string }[]).map((r) => ({
          ...(JSON.parse(r.doc) as DeliveryRecord),
          leaseUntil,
          ...(holder ? { holder } : {}),
        }));
        for (const d of claimed) this.save.run(deliveryRow(d));
        return claimed;
      });
    });
  }
  async expireOfHolder(holder: string, now: string): Promise<number> {
    return this.bookkeeping(() => this.expireOf.run({ holder, now }).changes);
  }
}
