/** The bots table of the SQLite adapter: a record per bot, found by id or by its key's hash. */
import type Database from "better-sqlite3";
import type { BotRecord, BotsPort } from "../port";
import { mergePatch, pageSize } from "../shared";

export const BOTS_SCHEMA = `
CREATE TABLE IF NOT EXISTS bots (
  id TEXT PRIMARY KEY,
  key_hash TEXT NOT NULL UNIQUE,
  doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS bots_by_time ON bots (json_extract(doc, '$.createdAt'), id);
`;

type Row = { doc: string } | undefined;
const parse = (row: Row): BotRecord | null => (row ? (JSON.parse(row.doc) as BotRecord) : null);

export class SqliteBots implements BotsPort {
  private readonly insert: Database.Statement;
  private readonly byId: Database.Statement;
  private readonly byKey: Database.Statement;
  private readonly update: Database.Statement;
  private readonly newest: Database.Statement;

  /** `write` runs a write the store's way (waiting out a held lock, durable before it resolves). */
  constructor(
    db: Database.Database,
    private readonly write: <T>(fn: () => T) => Promise<T>,
  ) {
    db.exec(BOTS_SCHEMA);
    this.insert = db.prepare("INSERT INTO bots (id, key_hash, doc) VALUES (@id, @keyHash, @doc)");
    this.byId = db.prepare("SELECT doc FROM bots WHERE id = ?");
    this.byKey = db.prepare("SELECT doc FROM bots WHERE key_hash = ?");
    this.update = db.prepare("UPDATE bots SET key_hash = @keyHash, doc = @doc WHERE id = @id");
    this.newest = db.prepare("SELECT doc FROM bots ORDER BY json_extract(doc, '$.createdAt') DESC, id DESC LIMIT @limit OFFSET @offset");
  }

  async createBot(b: BotRecord): Promise<void> {
    await this.write(() => this.insert.run({ id: b.id, keyHash: b.keyHash, doc: JSON.stringify(b) }));
  }
  async getBot(id: string): Promise<BotRecord | null> {
    return parse(this.byId.get(id) as Row);
  }
  async findBotByKey(keyHash: string): Promise<BotRecord | null> {
    return parse(this.byKey.get(keyHash) as Row);
  }
  async listBots(limit: number, offset: number): Promise<BotRecord[]> {
    return (this.newest.all({ limit: pageSize(limit), offset: pageSize(offset) }) as { doc: string }[]).map((r) => JSON.parse(r.doc) as BotRecord);
  }
  async updateBot(id: string, patch: Partial<Omit<BotRecord, "id">>): Promise<void> {
    await this.write(() => {
      const b = parse(this.byId.get(id) as Row);
      if (!b) return;
      const next = mergePatch<BotRecord>(b, patch, "id", false);
      this.update.run({ id, keyHash: next.keyHash, doc: JSON.stringify(next) });
    });
  }
}
