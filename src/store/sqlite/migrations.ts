/**
 * The SQLite schema's migrations: numbered steps, run in order by the store's init, the number of the last
 * one run kept in the database file's `PRAGMA user_version`. A fresh file runs every step; an existing one
 * the steps above its number. All the steps that run, and the new number, are one transaction, so a crash
 * or a second process opening the same file at once never sees a step half done or run twice.
 *
 * A store made before the steps were numbered has user_version 0 and its tables already there, in the shape
 * of whichever version made them: it runs every step, and each step is written to find its work done or half
 * done (CREATE ... IF NOT EXISTS, a column added only when it is missing), so it brings such a store forward
 * and does nothing more to one that has it all.
 *
 * A later change to the schema is a new step at the end, idempotent in the same way; a table's CREATE in
 * step 1 may take the change too (so a fresh file has it from the start), and the new step then finds it
 * done. A file whose number is above the last step (made by a later version) is left as it is.
 */
import type Database from "better-sqlite3";
import { BOTS_SCHEMA } from "./bots";
import { CHALLENGES_SCHEMA } from "./challenges";
import { COMMUNITIES_SCHEMA } from "./communities";
import { LEAGUES_SCHEMA } from "./leagues";
import { LOG_SCHEMA } from "./log";
import { PROCESSES_SCHEMA } from "./processes";
import { RATINGS_SCHEMA } from "./ratings";
import { SCHEMA } from "./schema";
import { DELIVERIES_SCHEMA, SUBSCRIPTIONS_SCHEMA, VERIFIED_URLS_SCHEMA } from "./subscriptions";
import { TOURNAMENTS_SCHEMA } from "./tournaments";

export interface Migration {
  /** 1, 2, ...: the step's place, and the user_version once it has run. */
  version: number;
  about: string;
  up(db: Database.Database): void;
}

/** Adds a column a table made by an earlier version lacks, filled by the SQL expression `fill`. */
function addColumn(db: Database.Database, table: string, column: string, type: string, fill?: string): void {
  const columns = db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>;
  if (columns.some((c) => c.name === column)) return;
  db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
  if (fill) db.exec(`UPDATE ${table} SET ${column} = ${fill}`);
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    about: "every table and index, as each table's CREATE has it",
    up: (db) =>
      db.exec(
        [
          SCHEMA,
          LOG_SCHEMA,
          RATINGS_SCHEMA,
          SUBSCRIPTIONS_SCHEMA,
          DELIVERIES_SCHEMA,
          VERIFIED_URLS_SCHEMA,
          PROCESSES_SCHEMA,
          CHALLENGES_SCHEMA,
          COMMUNITIES_SCHEMA,
          BOTS_SCHEMA,
          TOURNAMENTS_SCHEMA,
          LEAGUES_SCHEMA,
        ].join("\n"),
      ),
  },
  {
    // Columns of their own, assigned only when the seats change (a create or a seat claim: the full-row write),
    // never by a move's in-place patch, so a move's write does not rewrite their index pages as an index on an
    // expression over `doc` would.
    version: 2,
    about: "the seats' players as columns of games, filled from the stored documents, and their indexes",
    up: (db) => {
      addColumn(db, "games", "player_a", "TEXT", "json_extract(doc, '$.seats.A.playerId')");
      addColumn(db, "games", "player_b", "TEXT", "json_extract(doc, '$.seats.B.playerId')");
      db.exec(`
        CREATE INDEX IF NOT EXISTS games_by_player_a ON games (player_a, created_at, id) WHERE player_a IS NOT NULL;
        CREATE INDEX IF NOT EXISTS games_by_player_b ON games (player_b, created_at, id) WHERE player_b IS NOT NULL;
      `);
    },
  },
  {
    // Points rated before their steps were kept stay without one.
    version: 3,
    about: "a rating point's step",
    up: (db) => addColumn(db, "rating_history", "step", "TEXT"),
  },
];

/** The number of the last step: what user_version reads once the store has opened. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;

/** Runs the steps above the file's user_version, and records the last; returns the version it found. */
export function migrate(db: Database.Database): number {
  return db
    .transaction((): number => {
      const found = db.pragma("user_version", { simple: true }) as number;
      for (const step of MIGRATIONS) if (step.version > found) step.up(db);
      if (found < SCHEMA_VERSION) db.pragma(`user_version = ${SCHEMA_VERSION}`);
      return found;
    })
    .immediate();
}
