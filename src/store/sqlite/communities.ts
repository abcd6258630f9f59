/**
 * The community tables of the SQLite adapter: a club or community per row, its members a row each in
 * community_members, read back beside the community in the order they joined.
 */
import type Database from "better-sqlite3";
import type { CommunitiesPort, CommunityRecord } from "../port";
import type { RecordWrites } from "./record-writes";

export const COMMUNITIES_SCHEMA = `
CREATE TABLE IF NOT EXISTS communities (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  created_at TEXT NOT NULL,
  doc TEXT NOT NULL
);
-- seq keeps members in the order they joined; the unique pair makes addMember idempotent.
CREATE TABLE IF NOT EXISTS community_members (
  seq INTEGER PRIMARY KEY,
  community_id TEXT NOT NULL,
  player_id TEXT NOT NULL,
  UNIQUE (community_id, player_id)
);
CREATE INDEX IF NOT EXISTS community_members_by_player ON community_members (player_id);
`;

/** Members of a community in join order, as a JSON array, computed next to the community row. */
const MEMBERS = `(SELECT json_group_array(player_id) FROM
  (SELECT player_id FROM community_members m WHERE m.community_id = c.id ORDER BY seq)) AS members`;

type Row = { doc: string; members: string };

const community = (row: Row): CommunityRecord => ({
  ...(JSON.parse(row.doc) as CommunityRecord),
  members: JSON.parse(row.members) as CommunityRecord["members"],
});

export class SqliteCommunities implements CommunitiesPort {
  private readonly insert: Database.Statement;
  private readonly byId: Database.Statement;
  private readonly all: Database.Statement;
  private readonly ofKind: Database.Statement;
  private readonly ofPlayer: Database.Statement;
  private readonly insertMember: Database.Statement;
  private readonly deleteMember: Database.Statement;

  /**
   * `write` runs a write the store's way (waiting out a held lock, durable before it resolves); `writes` holds
   * the transaction a community and its first members are inserted in (record-writes.ts).
   */
  constructor(
    db: Database.Database,
    private readonly writes: RecordWrites,
    private readonly write: <T>(fn: () => T) => Promise<T>,
  ) {
    this.insert = db.prepare(`INSERT INTO communities (id, kind, created_at, doc) VALUES (@id, @kind, @createdAt, @doc)`);
    this.byId = db.prepare(`SELECT c.doc, ${MEMBERS} FROM communities c WHERE c.id = ?`);
    this.all = db.prepare(`SELECT c.doc, ${MEMBERS} FROM communities c ORDER BY c.created_at, c.id`);
    this.ofKind = db.prepare(`SELECT c.doc, ${MEMBERS} FROM communities c WHERE c.kind = ? ORDER BY c.created_at, c.id`);
    this.ofPlayer = db.prepare(`SELECT c.doc, ${MEMBERS} FROM communities c
      WHERE c.id IN (SELECT community_id FROM community_members WHERE player_id = ?) ORDER BY c.created_at, c.id`);
    // Only members of a community that exists: the port has no error for an unknown community.
    this.insertMember = db.prepare(`INSERT OR IGNORE INTO community_members (community_id, player_id)
      SELECT @id, @playerId WHERE EXISTS (SELECT 1 FROM communities WHERE id = @id)`);
    this.deleteMember = db.prepare(`DELETE FROM community_members WHERE community_id = ? AND player_id = ?`);
  }

  async createCommunity(c: CommunityRecord): Promise<void> {
    await this.write(() => {
      this.writes.atomically(() => {
        const { members, ...rest } = c;
        this.insert.run({ id: c.id, kind: c.kind, createdAt: c.createdAt, doc: JSON.stringify(rest) });
        for (const playerId of members) this.insertMember.run({ id: c.id, playerId });
      });
    });
  }
  async getCommunity(id: string): Promise<CommunityRecord | null> {
    const row = this.byId.get(id) as Row | undefined;
    return row ? community(row) : null;
  }
  async listCommunities(kind?: CommunityRecord["kind"]): Promise<CommunityRecord[]> {
    const rows = kind ? this.ofKind.all(kind) : this.all.all();
    return (rows as Row[]).map(community);
  }
  async addMember(id: string, playerId: string): Promise<void> {
    await this.write(() => this.insertMember.run({ id, playerId }));
  }
  async removeMember(id: string, playerId: string): Promise<void> {
    await this.write(() => this.deleteMember.run(id, playerId));
  }
  async communitiesOf(playerId: string): Promise<CommunityRecord[]> {
    return (this.ofPlayer.all(playerId) as Row[]).map(community);
  }
}
