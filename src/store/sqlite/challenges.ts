/** The challenges table of the SQLite adapter: an agent challenge per row, listed by its agent's name. */
import type Database from "better-sqlite3";
import type { ChallengeExpectation, ChallengeRecord, ChallengesPort } from "../port";
import { pageSize } from "../shared";
import { parse, type RecordWrites } from "./record-writes";

export const CHALLENGES_SCHEMA = `
CREATE TABLE IF NOT EXISTS challenges (
  token TEXT PRIMARY KEY,
  agent_name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS challenges_by_agent ON challenges (agent_name, created_at, token);
`;

const challengeRow = (c: ChallengeRecord) => ({ token: c.token, agentName: c.agent.name, createdAt: c.createdAt, doc: JSON.stringify(c) });

export class SqliteChallenges implements ChallengesPort {
  private readonly insert: Database.Statement;
  private readonly update: Database.Statement;
  private readonly byToken: Database.Statement;
  private readonly ofAgent: Database.Statement;

  /**
   * `write` runs a write the store's way (waiting out a held lock, durable before it resolves); `writes` holds
   * the read-merge-write of a record (record-writes.ts).
   */
  constructor(
    db: Database.Database,
    private readonly writes: RecordWrites,
    private readonly write: <T>(fn: () => T) => Promise<T>,
  ) {
    db.exec(CHALLENGES_SCHEMA);
    this.insert = db.prepare(`INSERT INTO challenges (token, agent_name, created_at, doc)
      VALUES (@token, @agentName, @createdAt, @doc)`);
    this.update = db.prepare(`UPDATE challenges SET agent_name = @agentName, doc = @doc WHERE token = @token`);
    this.byToken = db.prepare(`SELECT doc FROM challenges WHERE token = ?`);
    this.ofAgent = db.prepare(`SELECT doc FROM challenges WHERE agent_name = ? ORDER BY created_at DESC, token DESC LIMIT ?`);
  }

  async createChallenge(c: ChallengeRecord): Promise<void> {
    await this.write(() => this.insert.run(challengeRow(c)));
  }
  async getChallenge(token: string): Promise<ChallengeRecord | null> {
    return parse<ChallengeRecord>(this.byToken.get(token) as { doc: string } | undefined);
  }
  async updateChallenge(token: string, patch: Partial<ChallengeRecord>): Promise<void> {
    await this.updateChallengeIf(token, {}, patch);
  }
  /** Read-merge-write, only when the record matches `expected`. Resolves with whether it wrote. */
  async updateChallengeIf(token: string, expected: ChallengeExpectation, patch: Partial<ChallengeRecord>): Promise<boolean> {
    return this.write(() => this.writes.update<ChallengeRecord>(this.byToken, token, patch, "token", (c) => this.update.run(challengeRow(c)), expected));
  }
  async listChallenges(agentName: string, limit: number): Promise<ChallengeRecord[]> {
    return (this.ofAgent.all(agentName, pageSize(limit)) as { doc: string }[]).map((r) => JSON.parse(r.doc) as ChallengeRecord);
  }
}
