/**
 * A table of JSON documents, the shape most of the SQLite adapter's tables share: a key column, the record
 * verbatim in `doc`, and beside it a few columns computed from the record to be indexed and filtered on
 * (`created_at`, `agent_name`, ...), maybe a `version` for compare-and-set. A table's class (bots.ts,
 * tournaments.ts, ...) names its columns and its queries' SQL and implements its port on top of this one;
 * the schema stays the table's own (its CREATE TABLE), so a table keeps the columns an existing database
 * file has.
 */
import type Database from "better-sqlite3";
import { matchesExpectation, mergePatch } from "../shared";

type SqlValue = string | number | null;

export interface DocumentTableSpec<T> {
  table: string;
  /** The key column and the record's member it holds (never changed by a patch). */
  key: { column: string; member: keyof T & string };
  /** The columns beside `doc`, each computed from the record, written with every write of it. */
  columns?: Record<string, (record: T) => SqlValue>;
  /** Of those, the ones written when the row is inserted only (a creation time). */
  fixed?: readonly string[];
  /**
   * A `version` column holding the record's `version` member: replaceIf stores a record only over the one
   * it was made from (its version minus one).
   */
  versioned?: boolean;
}

/** The store's way of running one of the table's writes (waiting out a held lock; durable or not). */
export type TableWrite = <R>(fn: () => R) => Promise<R>;

export class DocumentTable<T extends object> {
  private readonly insert: Database.Statement;
  private readonly upsert: Database.Statement;
  private readonly byKey: Database.Statement;
  private readonly rewrite: Database.Statement;
  private readonly replace: Database.Statement | null;
  private readonly queries = new Map<string, Database.Statement>();
  /** A patch's read, check and write in one immediate transaction; made once, like the statements. */
  private readonly readMergeWrite: (key: string, patch: Partial<T>, expected: object, stamp: boolean) => boolean;

  /** `write` runs each write the store's way (SqliteStore: durable, or resolved at the commit). */
  constructor(
    private readonly db: Database.Database,
    private readonly write: TableWrite,
    private readonly spec: DocumentTableSpec<T>,
  ) {
    const { table, key, fixed = [], versioned = false } = spec;
    const computed = Object.keys(spec.columns ?? {});
    const all = [key.column, ...computed, ...(versioned ? ["version"] : []), "doc"];
    // Rewritten by every write of a stored row: all but the key and the columns fixed at insert.
    const kept = all.filter((c) => c !== key.column && !fixed.includes(c));
    const set = kept.map((c) => `${c} = @${c}`).join(", ");
    this.insert = db.prepare(`INSERT INTO ${table} (${all.join(", ")}) VALUES (${all.map((c) => `@${c}`).join(", ")})`);
    this.upsert = db.prepare(
      `INSERT INTO ${table} (${all.join(", ")}) VALUES (${all.map((c) => `@${c}`).join(", ")})
       ON CONFLICT (${key.column}) DO UPDATE SET ${kept.map((c) => `${c} = excluded.${c}`).join(", ")}`,
    );
    this.byKey = db.prepare(`SELECT doc FROM ${table} WHERE ${key.column} = ?`);
    this.rewrite = db.prepare(`UPDATE ${table} SET ${set} WHERE ${key.column} = @${key.column}`);
    this.replace = versioned ? db.prepare(`UPDATE ${table} SET ${set} WHERE ${key.column} = @${key.column} AND version = @version - 1`) : null;
    const transaction = db.transaction((k: string, patch: Partial<T>, expected: object, stamp: boolean): boolean => {
      const current = this.readOne(k);
      if (!current || !matchesExpectation(current, expected)) return false;
      this.rewrite.run(this.row(mergePatch(current, patch, key.member, stamp)));
      return true;
    });
    this.readMergeWrite = (k, patch, expected, stamp) => transaction.immediate(k, patch, expected, stamp);
  }

  /** Inserts the record; a taken key (or unique column) is refused as a duplicate. */
  async create(record: T): Promise<void> {
    await this.write(() => this.insert.run(this.row(record)));
  }

  /** Inserts the record, or replaces the stored one of its key (the columns fixed at insert stay). */
  async put(record: T): Promise<void> {
    await this.write(() => this.upsert.run(this.row(record)));
  }

  async get(key: string): Promise<T | null> {
    return this.readOne(key);
  }

  /**
   * The records of the rows `sql` selects, as it orders them: `sql` follows `SELECT doc FROM <table>` (its
   * WHERE, ORDER BY, LIMIT), `params` are its parameters. Each distinct `sql` is prepared once.
   */
  async list(sql: string, ...params: unknown[]): Promise<T[]> {
    let query = this.queries.get(sql);
    if (!query) this.queries.set(sql, (query = this.db.prepare(`SELECT doc FROM ${this.spec.table} ${sql}`)));
    return (query.all(...params) as { doc: string }[]).map((r) => JSON.parse(r.doc) as T);
  }

  /** Stores the record over the one of `version - 1`; false, writing nothing, when another write came first. */
  async replaceIf(record: T & { version: number }): Promise<boolean> {
    const replace = this.replace;
    if (!replace) throw new Error(`${this.spec.table} has no version column`);
    return this.write(() => replace.run(this.row(record)).changes === 1);
  }

  /**
   * Shallow-merges the patch into the stored record (mergePatch: the key never changes, undefined members
   * are removed, updatedAt bumped unless `stamp` is false), only when every member of `expected` equals the
   * stored one. Read, check and write are one transaction; resolves with whether it wrote (false also when
   * the record does not exist).
   */
  async patch(key: string, patch: Partial<T>, expected: object = {}, stamp = true): Promise<boolean> {
    return this.write(() => this.readMergeWrite(key, patch, expected, stamp));
  }

  private readOne(key: string): T | null {
    const row = this.byKey.get(key) as { doc: string } | undefined;
    return row ? (JSON.parse(row.doc) as T) : null;
  }

  private row(record: T): Record<string, unknown> {
    const { key, columns = {}, versioned } = this.spec;
    const row: Record<string, unknown> = { [key.column]: record[key.member], doc: JSON.stringify(record) };
    for (const [column, of] of Object.entries(columns)) row[column] = of(record);
    if (versioned) row.version = (record as { version?: number }).version;
    return row;
  }
}
