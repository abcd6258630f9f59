/** The bots table of the SQLite adapter: a record per bot (a DocumentTable), found by id or by its key's hash. */
import type Database from "better-sqlite3";
import type { BotRecord, BotsPort } from "../port";
import { pageSize } from "../shared";
import { DocumentTable, type TableWrite } from "./document-table";

export const BOTS_SCHEMA = `
CREATE TABLE IF NOT EXISTS bots (
  id TEXT PRIMARY KEY,
  key_hash TEXT NOT NULL UNIQUE,
  doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS bots_by_time ON bots (json_extract(doc, '$.createdAt'), id);
`;

export class SqliteBots implements BotsPort {
  private readonly docs: DocumentTable<BotRecord>;

  /** `write` runs a write the store's way (waiting out a held lock, durable before it resolves). */
  constructor(db: Database.Database, write: TableWrite) {
    this.docs = new DocumentTable<BotRecord>(db, write, { table: "bots", key: { column: "id", member: "id" }, columns: { key_hash: (b) => b.keyHash } });
  }

  async createBot(b: BotRecord): Promise<void> {
    await this.docs.create(b);
  }
  async getBot(id: string): Promise<BotRecord | null> {
    return this.docs.get(id);
  }
  async findBotByKey(keyHash: string): Promise<BotRecord | null> {
    const [bot] = await this.docs.list("WHERE key_hash = ?", keyHash);
    return bot ?? null;
  }
  async listBots(limit: number, offset: number): Promise<BotRecord[]> {
    return this.docs.list("ORDER BY json_extract(doc, '$.createdAt') DESC, id DESC LIMIT ? OFFSET ?", pageSize(limit), pageSize(offset));
  }
  async updateBot(id: string, patch: Partial<Omit<BotRecord, "id">>): Promise<void> {
    // A bot record has no updatedAt.
    await this.docs.patch(id, patch, {}, false);
  }
}
