/**
 * Counts the SQL that writes, run through better-sqlite3 on this thread (the main thread's connections): every
 * `run` of a statement that is not a read, and every `exec`. A worker thread loads its own copy of the module,
 * so what the SQLite store's writer thread runs is not counted.
 */
import Database from "better-sqlite3";

export interface SqlWriteCounter {
  /** The text of each write run since the counter started, in order. */
  readonly writes: string[];
  stop(): void;
}

export function countMainThreadWrites(): SqlWriteCounter {
  const probe = new Database(":memory:");
  const statement = Object.getPrototypeOf(probe.prepare("SELECT 1")) as { run: (...args: unknown[]) => unknown };
  probe.close();
  const database = Database.prototype as unknown as { exec: (sql: string) => unknown };
  const { run } = statement;
  const { exec } = database;
  const writes: string[] = [];
  statement.run = function (this: { reader: boolean; source: string }, ...args: unknown[]) {
    if (!this.reader) writes.push(this.source);
    return run.apply(this, args);
  };
  database.exec = function (this: unknown, sql: string) {
    writes.push(sql);
    return exec.call(this, sql);
  };
  return {
    writes,
    stop() {
      statement.run = run;
      database.exec = exec;
    },
  };
}
