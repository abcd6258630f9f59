/**
 * The public game log's tables in the SQLite adapter (LogPort): entries by index, the hashes of the tree's
 * complete subtrees, signed heads, the games waiting to be appended, and one state row (size, newest head,
 * sequencer lease) and the public keys heads are signed with. An append is one transaction that first checks
 * the state's epoch and size. The private signing key is never stored (src/services/log/keys.ts): an older database's
 * `log_state.signing_key` is read once to move it out, then erased (dropLegacyLogKey).
 */
import type Database from "better-sqlite3";
import { isDuplicateKey } from "../duplicate";
import type { LogAppend, LogEntryRecord, LogNodeRecord, LogPort, LogPublicKeyRecord, LogStateRecord, TreeHeadRecord } from "../port";

/** log_state without the signing key an older version kept in it: what the table is rebuilt as. */
const STATE_COLUMNS = "id, size, epoch, holder, lease_until, head";

export const LOG_SCHEMA = `
CREATE TABLE IF NOT EXISTS log_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  size INTEGER NOT NULL,
  epoch INTEGER NOT NULL,
  holder TEXT,
  lease_until TEXT,
  head TEXT
);
INSERT OR IGNORE INTO log_state (id, size, epoch) VALUES (1, 0, 0);
CREATE TABLE IF NOT EXISTS log_entries (
  idx INTEGER PRIMARY KEY,
  game_id TEXT NOT NULL UNIQUE,
  finished_at TEXT NOT NULL,
  leaf TEXT NOT NULL,
  private_salt TEXT
);
CREATE INDEX IF NOT EXISTS log_entries_by_finish ON log_entries (finished_at, idx);
CREATE TABLE IF NOT EXISTS log_nodes (
  level INTEGER NOT NULL,
  idx INTEGER NOT NULL,
  hash BLOB NOT NULL,
  PRIMARY KEY (level, idx)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS log_heads (
  size INTEGER PRIMARY KEY,
  doc TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS log_keys (
  key_id TEXT PRIMARY KEY,
  public_key TEXT NOT NULL,
  from_size INTEGER NOT NULL,
  added_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS log_pending (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  game_id TEXT NOT NULL UNIQUE
);
`;

/** Marks a game pending. */
export const LOG_PENDING_INSERT = "INSERT OR IGNORE INTO log_pending (game_id) VALUES (?)";

/** entersPublicLog (../shared.ts) as a condition on a games row: a public game whose document has no seal. */
export const ENTERS_LOG_SQL = "public = 1 AND COALESCE(json_extract(doc, '$.sealed'), 0) = 0";

/**
 * Marks a game pending when it enters the public log now (ENTERS_LOG_SQL): run by a game's finish write
 * (record-writes.ts) in that write's transaction, after its patch, so a sealed league game is left unmarked
 * until its unsealing marks it.
 */
export const LOG_PENDING_IF_ENTERS = `INSERT OR IGNORE INTO log_pending (game_id) SELECT id FROM games WHERE id = ? AND ${ENTERS_LOG_SQL}`;

type StateRow = { size: number; epoch: number; holder: string | null; lease_until: string | null; head: string | null };
type EntryRow = { idx: number; game_id: string; finished_at: string; leaf: string; private_salt: string | null };

const stateOf = (r: StateRow): LogStateRecord => ({
  size: r.size,
  epoch: r.epoch,
  holder: r.holder,
  leaseUntil: r.lease_until,
  head: r.head ? (JSON.parse(r.head) as TreeHeadRecord) : null,
});
const entryOf = (r: EntryRow): LogEntryRecord => ({
  index: r.idx,
  gameId: r.game_id,
  finishedAt: r.finished_at,
  leaf: r.leaf,
  ...(r.private_salt ? { privateSalt: r.private_salt } : {}),
});

/** A page of the unlogged-games scan: the last game looked at, as `createdAt|id`. */
const cursorOf = (createdAt: string, id: string) => `${createdAt}|${id}`;

export class SqliteLog implements LogPort {
  private readonly st: Record<string, Database.Statement>;
  private readonly append: (a: LogAppend) => boolean;

  /** `write` runs a write the store's way (waiting out a held lock, durable before it resolves). */
  constructor(
    private readonly db: Database.Database,
    private readonly write: <T>(fn: () => T) => Promise<T>,
  ) {
    const p = (sql: string) => db.prepare(sql);
    this.st = {
      state: p("SELECT size, epoch, holder, lease_until, head FROM log_state WHERE id = 1"),
      claim: p(
        `UPDATE log_state SET epoch = CASE WHEN holder IS @holder THEN epoch ELSE epoch + 1 END, holder = @holder, lease_until = @until
         WHERE id = 1 AND (holder IS @holder OR lease_until IS NULL OR lease_until <= @now)`,
      ),
      advance: p("UPDATE log_state SET size = @size, head = @head WHERE id = 1 AND epoch = @epoch AND size = @fromSize"),
      insertEntry: p("INSERT INTO log_entries (idx, game_id, finished_at, leaf, private_salt) VALUES (@index, @gameId, @finishedAt, @leaf, @privateSalt)"),
      putNode: p("INSERT OR REPLACE INTO log_nodes (level, idx, hash) VALUES (?, ?, ?)"),
      // The nodes of a key list ([[level, index], ...] as JSON) inside the stored tree, in one statement: a
      // proof's nodes are one read of the primary key per node, and the size is read with them.
      nodes: p(
        `SELECT n.level, n.idx, n.hash FROM json_each(?) AS k
         JOIN log_nodes AS n ON n.level = k.value ->> 0 AND n.idx = k.value ->> 1
         WHERE (n.idx + 1) << n.level <= (SELECT size FROM log_state WHERE id = 1)`,
      ),
      putHead: p("INSERT OR REPLACE INTO log_heads (size, doc) VALUES (?, ?)"),
      entries: p(
        "SELECT idx, game_id, finished_at, leaf, private_salt FROM log_entries WHERE idx >= ? AND idx < ? AND idx < (SELECT size FROM log_state WHERE id = 1) ORDER BY idx",
      ),
      // Keyset pages of a finish-time range, along log_entries_by_finish (finished_at, idx).
      finished: p(
        `SELECT idx, game_id, finished_at, leaf, private_salt FROM log_entries INDEXED BY log_entries_by_finish
         WHERE finished_at >= @start AND finished_at < @end AND (finished_at, idx) > (@afterAt, @afterIdx)
           AND idx < (SELECT size FROM log_state WHERE id = 1)
         ORDER BY finished_at, idx LIMIT @limit`,
      ),
      // Answered from the unique index on game_id (it holds idx), without reading the entry itself.
      indexOfGame: p("SELECT idx FROM log_entries WHERE game_id = ? AND idx < (SELECT size FROM log_state WHERE id = 1)"),
      entryOfGame: p(
        "SELECT idx, game_id, finished_at, leaf, private_salt FROM log_entries WHERE game_id = ? AND idx < (SELECT size FROM log_state WHERE id = 1)",
      ),
      addPending: p(LOG_PENDING_INSERT),
      pending: p("SELECT game_id FROM log_pending ORDER BY seq LIMIT ?"),
      dropPending: p("DELETE FROM log_pending WHERE game_id = ?"),
      // Every finished game is looked at (the cursor runs over them all); only those entering the log are answered.
      finishedAfter: p(
        `SELECT id, created_at, ${ENTERS_LOG_SQL} AS enters FROM games WHERE status = 'finished' AND (created_at, id) > (?, ?) ORDER BY created_at, id LIMIT ?`,
      ),
      logged: p("SELECT 1 FROM log_entries WHERE game_id = ? AND idx < (SELECT size FROM log_state WHERE id = 1)"),
      keys: p("SELECT key_id, public_key, from_size, added_at FROM log_keys ORDER BY from_size, added_at"),
      addKey: p("INSERT OR IGNORE INTO log_keys (key_id, public_key, from_size, added_at) VALUES (@keyId, @publicKey, @fromSize, @addedAt)"),
    };
    const append = db.transaction((a: LogAppend) => {
      const moved = this.st.advance.run({ size: a.fromSize + a.entries.length, head: JSON.stringify(a.head), epoch: a.epoch, fromSize: a.fromSize });
      if (moved.changes === 0) return false;
      for (const e of a.entries) {
        this.st.insertEntry.run({ index: e.index, gameId: e.gameId, finishedAt: e.finishedAt, leaf: e.leaf, privateSalt: e.privateSalt ?? null });
        this.st.dropPending.run(e.gameId);
      }
      for (const n of a.nodes) this.st.putNode.run(n.level, n.index, Buffer.from(n.hash, "hex"));
      this.st.putHead.run(a.head.size, JSON.stringify(a.head));
      return true;
    });
    this.append = (a) => append.immediate(a);
  }

  async logState(): Promise<LogStateRecord> {
    return stateOf(this.st.state.get() as StateRow);
  }
  async claimLogLease(holder: string, now: string, until: string): Promise<LogStateRecord | null> {
    const changed = await this.write(() => this.st.claim.run({ holder, now, until }).changes);
    return changed === 0 ? null : this.logState();
  }
  async appendLog(a: LogAppend): Promise<boolean> {
    return this.write(() => {
      try {
        return this.append(a);
      } catch (e) {
        // A game already in the log (its entry's unique game id): the whole batch is refused, as in MongoDB.
        if (isDuplicateKey(e)) return false;
        throw e;
      }
    });
  }
  async logNodes(refs: readonly { level: number; index: number }[]): Promise<LogNodeRecord[]> {
    if (refs.length === 0) return [];
    const rows = this.st.nodes.all(JSON.stringify(refs.map((r) => [r.level, r.index]))) as { level: number; idx: number; hash: Buffer }[];
    return rows.map((r) => ({ level: r.level, index: r.idx, hash: r.hash.toString("hex") }));
  }
  async logEntries(from: number, to: number): Promise<LogEntryRecord[]> {
    return (this.st.entries.all(from, to) as EntryRow[]).map(entryOf);
  }
  async logEntriesFinished(start: string, end: string, after: { finishedAt: string; index: number } | null, limit: number): Promise<LogEntryRecord[]> {
    const rows = this.st.finished.all({ start, end, afterAt: after?.finishedAt ?? "", afterIdx: after?.index ?? -1, limit }) as EntryRow[];
    return rows.map(entryOf);
  }
  async logIndexOfGame(gameId: string): Promise<number | null> {
    return (this.st.indexOfGame.get(gameId) as { idx: number } | undefined)?.idx ?? null;
  }
  async logEntryOfGame(gameId: string): Promise<LogEntryRecord | null> {
    const row = this.st.entryOfGame.get(gameId) as EntryRow | undefined;
    return row ? entryOf(row) : null;
  }
  async addLogPending(gameIds: readonly string[]): Promise<void> {
    if (gameIds.length === 0) return;
    await this.write(() => this.db.transaction(() => gameIds.forEach((id) => this.st.addPending.run(id)))());
  }
  async logPending(limit: number): Promise<string[]> {
    return (this.st.pending.all(limit) as { game_id: string }[]).map((r) => r.game_id);
  }
  async dropLogPending(gameIds: readonly string[]): Promise<void> {
    if (gameIds.length === 0) return;
    await this.write(() => this.db.transaction(() => gameIds.forEach((id) => this.st.dropPending.run(id)))());
  }
  async unloggedGames(cursor: string | null, limit: number): Promise<{ gameIds: string[]; next: string | null }> {
    const [createdAt, id] = cursor ? [cursor.slice(0, cursor.indexOf("|")), cursor.slice(cursor.indexOf("|") + 1)] : ["", ""];
    const rows = this.st.finishedAfter.all(createdAt, id, limit) as { id: string; created_at: string; enters: number }[];
    const gameIds = rows.filter((r) => r.enters && !this.st.logged.get(r.id)).map((r) => r.id);
    const last = rows.at(-1);
    return { gameIds, next: rows.length === limit && last ? cursorOf(last.created_at, last.id) : null };
  }
  async logKeys(): Promise<LogPublicKeyRecord[]> {
    const rows = this.st.keys.all() as { key_id: string; public_key: string; from_size: number; added_at: string }[];
    return rows.map((r) => ({ keyId: r.key_id, publicKey: r.public_key, fromSize: r.from_size, addedAt: r.added_at }));
  }
  async addLogKey(key: LogPublicKeyRecord): Promise<void> {
    await this.write(() => this.st.addKey.run(key));
  }
  private hasLegacyKey(): boolean {
    return (this.db.pragma("table_info(log_state)") as { name: string }[]).some((c) => c.name === "signing_key");
  }
  async legacyLogKey(): Promise<string | null> {
    if (!this.hasLegacyKey()) return null;
    return (this.db.prepare("SELECT signing_key FROM log_state WHERE id = 1").get() as { signing_key: string | null } | undefined)?.signing_key ?? null;
  }
  /**
   * Rebuilds log_state without the key column (a dropped column's bytes would stay in the table's pages), with
   * secure_delete so freed pages are zeroed, then VACUUMs and truncates the WAL: no copy of the key is left in
   * the database file's free pages or in the WAL's old frames.
   */
  async dropLegacyLogKey(): Promise<void> {
    if (!this.hasLegacyKey()) return;
    this.db.pragma("secure_delete = ON");
    try {
      await this.write(() =>
        this.db
          .transaction(() => {
            this.db.prepare("UPDATE log_state SET signing_key = NULL").run();
            this.db.exec(`CREATE TABLE log_state_rebuilt (
            id INTEGER PRIMARY KEY CHECK (id = 1), size INTEGER NOT NULL, epoch INTEGER NOT NULL, holder TEXT, lease_until TEXT, head TEXT)`);
            this.db.exec(`INSERT INTO log_state_rebuilt (${STATE_COLUMNS}) SELECT ${STATE_COLUMNS} FROM log_state`);
            this.db.exec("DROP TABLE log_state");
            this.db.exec("ALTER TABLE log_state_rebuilt RENAME TO log_state");
          })
          .immediate(),
      );
      await this.write(() => this.db.exec("VACUUM"));
    } finally {
      this.db.pragma("secure_delete = OFF");
    }
    // The frames that held the key (and the VACUUM's) go into the database file and the WAL is cut to nothing.
    for (let tries = 0; ; tries++) {
      const [r] = this.db.pragma("wal_checkpoint(TRUNCATE)") as { busy: number }[];
      if (!r || r.busy === 0 || tries >= 50) return;
      await new Promise((done) => setTimeout(done, 20));
    }
  }
}
