/** The processes table of the SQLite adapter: a record per server process sharing the store, with its heartbeat. */
import type Database from "better-sqlite3";
import type { ProcessesPort, ProcessRecord } from "../port";
import { DocumentTable, type TableWrite } from "./document-table";

export const PROCESSES_SCHEMA = `
CREATE TABLE IF NOT EXISTS processes (
  id TEXT PRIMARY KEY,
  heartbeat_at TEXT NOT NULL,
  doc TEXT NOT NULL
);
`;

export class SqliteProcesses implements ProcessesPort {
  private readonly docs: DocumentTable<ProcessRecord>;
  private readonly touch: Database.Statement;
  private readonly removeIf: Database.Statement;

  /** `write` runs a write the store's way, waiting out a held lock; it resolves at the commit, before the WAL fsync. */
  constructor(
    db: Database.Database,
    private readonly write: TableWrite,
  ) {
    this.docs = new DocumentTable<ProcessRecord>(db, write, {
      table: "processes",
      key: { column: "id", member: "id" },
      columns: { heartbeat_at: (p) => p.heartbeatAt },
    });
    this.touch = db.prepare(`UPDATE processes SET heartbeat_at = @heartbeatAt, doc = json_set(doc, '$.heartbeatAt', @heartbeatAt)
      WHERE id = @id`);
    this.removeIf = db.prepare(`DELETE FROM processes WHERE id = ? AND heartbeat_at = ?`);
  }

  async registerProcess(p: ProcessRecord): Promise<void> {
    await this.docs.put(p);
  }
  async touchProcess(id: string, heartbeatAt: string): Promise<boolean> {
    return this.write(() => this.touch.run({ id, heartbeatAt }).changes > 0);
  }
  async listProcesses(): Promise<ProcessRecord[]> {
    return this.docs.list("ORDER BY id");
  }
  async removeProcessIf(id: string, heartbeatAt: string): Promise<boolean> {
    return this.write(() => this.removeIf.run(id, heartbeatAt).changes > 0);
  }
}
