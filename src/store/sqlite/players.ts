/**
 * The players table of the SQLite adapter: a profile per row, ranked by its rating column. Its schema
 * (schema.ts) and the statements that write it (statements.ts, record-writes.ts) are shared with the writer
 * thread, which writes a finished game's profiles with the game (writer-thread.ts); the ranking is prepared here.
 */
import type Database from "better-sqlite3";
import type { PlayerExpectation, PlayerRecord, PlayersPort, PlayerUpdate, RankOptions } from "../port";
import { pageSize } from "../shared";
import { parse, playerRow, type RecordWrites } from "./record-writes";
import { LISTED_PLAYER } from "./schema";
import type { Statements } from "./statements";

export class SqlitePlayers implements PlayersPort {
  private readonly rankAll: Database.Statement;
  private readonly rankAmong: Database.Statement;
  private readonly rankListed: Database.Statement;
  private readonly rankListedAmong: Database.Statement;

  /**
   * `st` and `writes` are the connection's shared statements and record writes; `durable` runs a write the
   * store's way (waiting out a held lock, durable before it resolves).
   */
  constructor(
    db: Database.Database,
    private readonly st: Statements,
    private readonly writes: RecordWrites,
    private readonly durable: <T>(fn: () => T) => Promise<T>,
  ) {
    const p = (sql: string) => db.prepare(sql);
    this.rankAll = p(`SELECT doc FROM players ORDER BY rating DESC, id LIMIT @limit OFFSET @offset`);
    this.rankAmong = p(`SELECT doc FROM players WHERE id IN (SELECT value FROM json_each(@ids))
      ORDER BY rating DESC, id LIMIT @limit OFFSET @offset`);
    // The player leaderboard's rows only (RankOptions.listed), filtered before LIMIT/OFFSET count them.
    this.rankListed = p(`SELECT doc FROM players WHERE ${LISTED_PLAYER} ORDER BY rating DESC, id LIMIT @limit OFFSET @offset`);
    this.rankListedAmong = p(`SELECT doc FROM players WHERE id IN (SELECT value FROM json_each(@ids)) AND ${LISTED_PLAYER}
      ORDER BY rating DESC, id LIMIT @limit OFFSET @offset`);
  }

  async createPlayer(p: PlayerRecord): Promise<void> {
    await this.durable(() => this.st.insertPlayer.run(playerRow(p)));
  }
  async getPlayer(id: string): Promise<PlayerRecord | null> {
    return parse<PlayerRecord>(this.st.getPlayer.get(id) as { doc: string } | undefined);
  }
  async updatePlayer(id: string, patch: Partial<PlayerRecord>): Promise<void> {
    await this.updatePlayerIf(id, {}, patch);
  }
  /** Read-merge-write, only when the record matches `expected`. Resolves with whether it wrote. */
  async updatePlayerIf(id: string, expected: PlayerExpectation, patch: Partial<PlayerRecord>): Promise<boolean> {
    return this.durable(() => this.writes.update<PlayerRecord>(this.st.getPlayer, id, patch, "id", this.writes.writePlayer, expected));
  }
  async updatePlayersIf(updates: readonly PlayerUpdate[]): Promise<boolean[]> {
    return this.durable(() =>
      this.writes.atomically(() =>
        updates.map((u) => this.writes.updateInTransaction<PlayerRecord>(this.st.getPlayer, u.id, u.patch, "id", this.writes.writePlayer, u.expected)),
      ),
    );
  }
  async rankPlayers(ids: string[] | undefined, limit: number, offset: number, options: RankOptions = {}): Promise<PlayerRecord[]> {
    const page = { limit: pageSize(limit), offset: pageSize(offset) };
    const [all, among] = options.listed ? [this.rankListed, this.rankListedAmong] : [this.rankAll, this.rankAmong];
    const rows = ids === undefined ? all.all(page) : among.all({ ...page, ids: JSON.stringify(ids) });
    return (rows as { doc: string }[]).map((r) => JSON.parse(r.doc) as PlayerRecord);
  }
}
