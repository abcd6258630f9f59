/**
 * The games and actions tables of the SQLite adapter: a game per row, its action log a row per action. Their
 * schema (schema.ts) and the statements that write them (statements.ts, record-writes.ts) are shared with the
 * writer thread, which commits the rooms' game writes on a connection of its own (writer-thread.ts); the reads
 * and the writes only this connection makes are prepared here.
 */
import type Database from "better-sqlite3";
import type { GameExpectation, GameRecord, GameRematch, GamesPort, GameWrite, GameWriteResult, ListGamesQuery, PlayerRecord, StoredAction } from "../port";
import { decodeCursor, encodeCursor, nowIso, pageSize } from "../shared";
import { parse, type NewGames, type RecordWrites } from "./record-writes";
import type { StoreCondition } from "./condition";
import type { Statements } from "./statements";
import type { Writer } from "./writer";

type DocRow = { doc: string };

const parseAll = (rows: DocRow[]): GameRecord[] => rows.map((r) => JSON.parse(r.doc) as GameRecord);

/**
 * The game listing exists in four shapes (status filter on/off x public filter on/off) so each can use
 * its own index; the row-value comparison lets SQLite seek straight to the cursor.
 */
function listGamesSql(byStatus: boolean, publicOnly: boolean): string {
  const where = ["(created_at, id) < (@createdAt, @id)"];
  if (byStatus) where.push("status = @status");
  if (publicOnly) where.push("public = 1");
  return `SELECT doc FROM games WHERE ${where.join(" AND ")} ORDER BY created_at DESC, id DESC LIMIT @limit`;
}

/** A player's public games, newest first: one seek per seat's player index, merged by SQLite's OR plan. */
const PLAYER_GAMES_SQL = `SELECT doc FROM games WHERE (created_at, id) < (@createdAt, @id) AND public = 1
  AND (player_a = @playerId OR player_b = @playerId)
  ORDER BY created_at DESC, id DESC LIMIT @limit`;

export class SqliteGames implements GamesPort {
  private readonly rematchIf: Database.Statement;
  private readonly byCode: Database.Statement;
  private readonly listings: Record<"all" | "status" | "public" | "statusPublic" | "playerPublic", Database.Statement>;
  private readonly unfinished: Database.Statement;
  private readonly withStatus: Database.Statement;
  private readonly actions: Database.Statement;

  /**
   * `st` and `writes` are the connection's shared statements and record writes; `durable` runs a write the
   * store's way (waiting out a held lock, durable before it resolves). `writer` is a file database's writer
   * thread, which commits the group commits' batches (null in memory: this connection commits them), and
   * `condition` the store's files and write failures, which a batch on the thread is checked against as
   * `durable` checks this connection's writes.
   */
  constructor(
    db: Database.Database,
    private readonly st: Statements,
    private readonly writes: RecordWrites,
    private readonly durable: <T>(fn: () => T) => Promise<T>,
    private readonly writer: Writer | null,
    private readonly condition: StoreCondition,
  ) {
    const p = (sql: string) => db.prepare(sql);
    // IS: a null version matches a game without a rematch yet.
    this.rematchIf = p(`UPDATE games SET doc = json_set(doc, '$.rematch', json(@rematch), '$.updatedAt', @updatedAt)
      WHERE id = @id AND status = 'finished' AND json_extract(doc, '$.rematch.version') IS @version`);
    this.byCode = p(`SELECT doc FROM games WHERE code_a = @code OR code_b = @code ORDER BY created_at DESC, id DESC LIMIT 1`);
    this.listings = {
      all: p(listGamesSql(false, false)),
      status: p(listGamesSql(true, false)),
      public: p(listGamesSql(false, true)),
      statusPublic: p(listGamesSql(true, true)),
      playerPublic: p(PLAYER_GAMES_SQL),
    };
    this.unfinished = p(`SELECT doc FROM games WHERE status IN ('waiting', 'active') ORDER BY created_at, id`);
    // games_by_status (status, created_at, id) serves the filter and the order; LIMIT -1 is no limit.
    this.withStatus = p(`SELECT doc FROM games WHERE status = @status AND created_at < @before ORDER BY created_at, id LIMIT @limit`);
    this.actions = p(`SELECT game_id, idx, at, action FROM actions WHERE game_id = ? ORDER BY idx`);
  }

  async createGame(game: GameRecord, players: readonly PlayerRecord[] = []): Promise<void> {
    return this.createNew({ games: [game], players });
  }
  async createGames(games: GameRecord[]): Promise<void> {
    // One transaction, so one commit and one fsync for the lot; a taken id rolls back every insert.
    if (games.length > 0) return this.createNew({ games, players: [] });
  }
  /**
   * New games go through the writer thread when there is one: in its next batch, beside the rooms' moves, so
   * a set-up adds rows to a commit and an fsync that run anyway, and none of it runs on the event loop.
   */
  private async createNew(create: NewGames): Promise<void> {
    if (!this.writer) return this.durable(() => this.writes.insertNew(create));
    await this.onWriter(() => this.writer!.create(create));
  }
  async getGame(id: string): Promise<GameRecord | null> {
    return parse<GameRecord>(this.st.getGame.get(id) as DocRow | undefined);
  }
  async updateGameIf(id: string, expected: GameExpectation, patch: Partial<GameRecord>): Promise<boolean> {
    return this.durable(() => this.writes.patchGameIf(id, expected, patch));
  }
  async updateRematchIf(id: string, version: number | undefined, rematch: GameRematch): Promise<boolean> {
    return this.durable(() => this.rematchIf.run({ id, version: version ?? null, rematch: JSON.stringify(rematch), updatedAt: nowIso() }).changes > 0);
  }
  async findGameByCode(code: string): Promise<GameRecord | null> {
    return parse<GameRecord>(this.byCode.get({ code }) as DocRow | undefined);
  }
  async listGames(q: ListGamesQuery): Promise<{ games: GameRecord[]; nextCursor: string | null }> {
    const limit = pageSize(q.limit);
    // No cursor: start above every ISO timestamp, so one statement serves the first page and the rest.
    const after = q.cursor ? decodeCursor(q.cursor) : { createdAt: "\uffff", id: "" };
    const l = this.listings;
    // A player's games are only listed publicly (public = 1): the one caller is the public profile.
    const stmt = q.playerId ? l.playerPublic : q.status ? (q.publicOnly ? l.statusPublic : l.status) : q.publicOnly ? l.public : l.all;
    const params: Record<string, unknown> = { ...after, status: q.status, limit: limit + 1, ...(q.playerId ? { playerId: q.playerId } : {}) };
    if (!q.status || q.playerId) delete params.status;
    const games = parseAll(stmt.all(params) as DocRow[]);
    const more = games.length > limit;
    if (more) games.length = limit;
    const last = games[games.length - 1];
    return { games, nextCursor: more && last ? encodeCursor(last) : null };
  }
  async listUnfinishedGames(): Promise<GameRecord[]> {
    return parseAll(this.unfinished.all() as DocRow[]);
  }
  async listGamesWithStatus(status: "waiting" | "active", q: { createdBefore?: string; limit?: number } = {}): Promise<GameRecord[]> {
    const params = { status, before: q.createdBefore ?? "\uffff", limit: q.limit === undefined ? -1 : pageSize(q.limit) };
    return parseAll(this.withStatus.all(params) as DocRow[]);
  }
  /** A group commit's batch: on the writer thread for a file database, on this connection in memory. */
  async commitGames(writes: GameWrite[]): Promise<GameWriteResult[]> {
    if (!this.writer) return this.durable(() => this.writes.commitBatch(writes));
    return this.onWriter(() => this.writer!.commit(writes));
  }
  /** A request to the writer thread, checked as `durable` checks this connection's writes: the files, and its failure. */
  private async onWriter<T>(request: () => Promise<T>): Promise<T> {
    this.condition.refuseIfLost();
    let result: T;
    try {
      result = await request();
    } catch (e) {
      // A refused constraint (a taken id) comes back as SQLite's error, the caller's answer, not the store's failure.
      throw this.condition.failed(e);
    }
    this.condition.refuseIfLost();
    this.condition.succeeded();
    return result;
  }
  async listActions(gameId: string): Promise<StoredAction[]> {
    const rows = this.actions.all(gameId) as { game_id: string; idx: number; at: string; action: string }[];
    return rows.map((r) => ({ gameId: r.game_id, index: r.idx, action: JSON.parse(r.action) as StoredAction["action"], at: r.at }));
  }
}
