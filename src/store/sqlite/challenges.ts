/** The challenges table of the SQLite adapter: an agent challenge per row, listed by its agent's name. */
import type Database from "better-sqlite3";
import type { ChallengeExpectation, ChallengeRecord, ChallengesPort } from "../port";
import { pageSize } from "../shared";
import { DocumentTable, type TableWrite } from "./document-table";

export const CHALLENGES_SCHEMA = `
CREATE TABLE IF NOT EXISTS challenges (
  token TEXT PRIMARY KEY,
  agent_name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS challenges_by_agent ON challenges (agent_name, created_at, token);
`;

export class SqliteChallenges implements ChallengesPort {
  private readonly docs: DocumentTable<ChallengeRecord>;

  /** `write` runs a write the store's way (waiting out a held lock, durable before it resolves). */
  constructor(db: Database.Database, write: TableWrite) {
    this.docs = new DocumentTable<ChallengeRecord>(db, write, {
      table: "challenges",
      key: { column: "token", member: "token" },
      columns: { agent_name: (c) => c.agent.name, created_at: (c) => c.createdAt },
      fixed: ["created_at"],
    });
  }

  async createChallenge(c: ChallengeRecord): Promise<void> {
    await this.docs.create(c);
  }
  async getChallenge(token: string): Promise<ChallengeRecord | null> {
    return this.docs.get(token);
  }
  async updateChallenge(token: string, patch: Partial<ChallengeRecord>): Promise<void> {
    await this.docs.patch(token, patch);
  }
  async updateChallengeIf(token: string, expected: ChallengeExpectation, patch: Partial<ChallengeRecord>): Promise<boolean> {
    return this.docs.patch(token, patch, expected);
  }
  async listChallenges(agentName: string, limit: number): Promise<ChallengeRecord[]> {
    return this.docs.list("WHERE agent_name = ? ORDER BY created_at DESC, token DESC LIMIT ?", agentName, pageSize(limit));
  }
}
