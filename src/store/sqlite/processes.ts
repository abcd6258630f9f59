/** The processes table of the SQLite adapter: a record per server process sharing the store, with its heartbeat. */
import type Database from "better-sqlite3";
import type { ProcessesPort, ProcessRecord } from "../port";

export const PROCESSES_SCHEMA = `
CREATE TABLE IF NOT EXISTS processes (
  id TEXT PRIMARY KEY,
  heartbeat_at TEXT NOT NULL,
  doc TEXT NOT NULL
);
`;

export class SqliteProcesses implements ProcessesPort {
  private readonly save: Database.Statement;
  private readonly touch: Database.Statement;
  private readonly all: Database.Statement;
  private readonly removeIf: Database.Statement;

  /** `write` runs a write the store's way, waiting out a held lock; it resolves at the commit, before the WAL fsync. */
  constructor(
    db: Database.Database,
    private readonly write: <T>(fn: () => T) => Promise<T>,
  ) {
    db.exec(PROCESSES_SCHEMA);
    this.save = db.prepare(`INSERT INTO processes (id, heartbeat_at, doc) VALUES (@id, @heartbeatAt, @doc)
      ON CONFLICT (id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at, doc = excluded.doc`);
    this.touch = db.prepare(`UPDATE processes SET heartbeat_at = @heartbeatAt, doc = json_set(doc, '$.heartbeatAt', @heartbeatAt)
      WHERE id = @id`);
    this.all = db.prepare(`SELECT doc FROM processes ORDER BY id`);
    this.removeIf = db.prepare(`DELETE FROM processes WHERE id = ? AND heartbeat_at = ?`);
  }

  async registerProcess(p: ProcessRecord): Promise<void> {
    await this.write(() => this.save.run({ id: p.id, heartbeatAt: p.heartbeatAt, doc: JSON.stringify(p) }));
  }
  async touchProcess(id: string, heartbeatAt: string): Promise<boolean> {
    return this.write(() => this.touch.run({ id, heartbeatAt }).changes > 0);
  }
  async listProcesses(): Promise<ProcessRecord[]> {
    return (this.all.all() as { doc: string }[]).map((r) => JSON.parse(r.doc) as ProcessRecord);
  }
  async removeProcessIf(id: string, heartbeatAt: string): Promise<boolean> {
    return this.write(() => this.removeIf.run(id, heartbeatAt).changes > 0);
  }
}
