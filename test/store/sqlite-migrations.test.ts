/**
 * The SQLite schema's numbered migrations (src/store/sqlite/migrations.ts): a fresh file runs every step, a
 * file made before the steps were numbered (user_version 0, its tables there) is recognised and brought
 * forward, a numbered one runs only the steps above its number, and what an existing file holds reads the same.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { SqliteStore } from "../../src/store/sqlite";
import { MIGRATIONS, SCHEMA_VERSION } from "../../src/store/sqlite/migrations";
import type { BotRecord, LeagueRecord, ProcessRecord, TournamentRecord } from "../../src/store";
import { at, challenge, game, T0 } from "./fixtures";

/** Every table, index and column of the file, as text: what a migration left. */
function shape(path: string): string {
  const db = new Database(path, { readonly: true });
  try {
    const objects = db.prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name").all() as {
      type: string;
      name: string;
      sql: string | null;
    }[];
    const columns = objects
      .filter((o) => o.type === "table")
      .map((t) => `${t.name}(${(db.pragma(`table_info(${t.name})`) as { name: string }[]).map((c) => c.name).join(",")})`);
    return [...objects.map((o) => `${o.type} ${o.name}`), ...columns].join("\n");
  } finally {
    db.close();
  }
}
const versionOf = (path: string): number => {
  const db = new Database(path, { readonly: true });
  try {
    return db.pragma("user_version", { simple: true }) as number;
  } finally {
    db.close();
  }
};
const columnsOf = (path: string, table: string): string[] => {
  const db = new Database(path, { readonly: true });
  try {
    return (db.pragma(`table_info(${table})`) as { name: string }[]).map((c) => c.name);
  } finally {
    db.close();
  }
};

/**
 * A file as the version before the numbered steps could have left it: no user_version, games without their
 * seats' player columns, rating points without their step, and a row in each document table, written with
 * the columns those tables have always had.
 */
function oldStore(path: string, records: { bot: BotRecord; tournament: TournamentRecord; league: LeagueRecord; process: ProcessRecord }): void {
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  db.exec(`
    CREATE TABLE games (id TEXT PRIMARY KEY, created_at TEXT NOT NULL, status TEXT NOT NULL, public INTEGER NOT NULL,
      code_a TEXT, code_b TEXT, doc TEXT NOT NULL);
    CREATE TABLE actions (game_id TEXT NOT NULL, idx INTEGER NOT NULL, at TEXT NOT NULL, action TEXT NOT NULL, PRIMARY KEY (game_id, idx)) WITHOUT ROWID;
    CREATE TABLE players (id TEXT PRIMARY KEY, rating REAL NOT NULL, doc TEXT NOT NULL);
    CREATE TABLE rating_history (player_id TEXT NOT NULL, n INTEGER NOT NULL, game_id TEXT NOT NULL, at TEXT NOT NULL,
      rating REAL NOT NULL, rd REAL NOT NULL, PRIMARY KEY (player_id, n));
    CREATE TABLE bots (id TEXT PRIMARY KEY, key_hash TEXT NOT NULL UNIQUE, doc TEXT NOT NULL);
    CREATE TABLE tournaments (id TEXT PRIMARY KEY, created_at TEXT NOT NULL, version INTEGER NOT NULL, doc TEXT NOT NULL);
    CREATE TABLE leagues (id TEXT PRIMARY KEY, created_at TEXT NOT NULL, version INTEGER NOT NULL, doc TEXT NOT NULL);
    CREATE TABLE processes (id TEXT PRIMARY KEY, heartbeat_at TEXT NOT NULL, doc TEXT NOT NULL);
    CREATE TABLE challenges (token TEXT PRIMARY KEY, agent_name TEXT NOT NULL, created_at TEXT NOT NULL, doc TEXT NOT NULL);
  `);
  const g = game("G1", { seats: { A: { playerId: "P1", name: "Ada", kind: "human" }, B: { playerId: "P2", name: "Bo", kind: "human" } } });
  db.prepare("INSERT INTO games VALUES (?, ?, ?, ?, NULL, NULL, ?)").run(g.id, g.createdAt, g.status, 1, JSON.stringify(g));
  db.prepare("INSERT INTO rating_history VALUES ('P1', 1, 'G0', ?, 1600.5, 200)").run(T0);
  const { bot, tournament, league, process } = records;
  db.prepare("INSERT INTO bots VALUES (?, ?, ?)").run(bot.id, bot.keyHash, JSON.stringify(bot));
  db.prepare("INSERT INTO tournaments VALUES (?, ?, ?, ?)").run(tournament.id, tournament.createdAt, tournament.version, JSON.stringify(tournament));
  db.prepare("INSERT INTO leagues VALUES (?, ?, ?, ?)").run(league.id, league.createdAt, league.version, JSON.stringify(league));
  db.prepare("INSERT INTO processes VALUES (?, ?, ?)").run(process.id, process.heartbeatAt, JSON.stringify(process));
  const c = challenge("C1", "agent");
  db.prepare("INSERT INTO challenges VALUES (?, ?, ?, ?)").run(c.token, c.agent.name, c.createdAt, JSON.stringify(c));
  db.close();
}

describe("SQLite schema migrations", function () {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "migrations-"))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const open = async (path: string): Promise<SqliteStore> => {
    const store = new SqliteStore({ path, checkpointMs: 0 });
    await store.init();
    return store;
  };

  it("numbers its steps 1, 2, 3, ... in order", function () {
    assert.deepEqual(
      MIGRATIONS.map((m) => m.version),
      MIGRATIONS.map((_, i) => i + 1),
    );
    assert.equal(SCHEMA_VERSION, MIGRATIONS.length);
  });

  it("runs every step on a fresh file, which lands at the last version, and none on a second open", async function () {
    const path = join(dir, "fresh.db");
    await (await open(path)).close();
    assert.equal(versionOf(path), SCHEMA_VERSION);
    const fresh = shape(path);
    for (const [table, column] of [
      ["games", "player_a"],
      ["games", "player_b"],
      ["rating_history", "step"],
    ]) {
      assert.ok(columnsOf(path, table).includes(column), `${table}.${column}`);
    }
    await (await open(path)).close();
    assert.equal(shape(path), fresh);
    assert.equal(versionOf(path), SCHEMA_VERSION);
  });

  it("recognises a file made before the steps were numbered and brings it forward, reading what it holds as before", async function () {
    const path = join(dir, "old.db");
    const bot: BotRecord = { id: "B1", name: "Robo", keyHash: "kh", createdAt: T0 };
    const tournament = {
      id: "T1",
      name: "Cup",
      format: "swiss",
      rounds: 3,
      ruleset: "classic",
      status: "open",
      createdAt: T0,
      updatedAt: T0,
      version: 4,
      entrants: [],
      played: [],
    } as TournamentRecord;
    const league = { id: "L1", name: "League", createdAt: at(1), updatedAt: at(1), version: 2, status: "open" } as unknown as LeagueRecord;
    const process: ProcessRecord = { id: "p1", sharedPresence: false, pid: 1, host: "h", startedAt: T0, heartbeatAt: at(2) };
    oldStore(path, { bot, tournament, league, process });
    assert.equal(versionOf(path), 0);

    const store = await open(path);
    try {
      assert.equal(versionOf(path), SCHEMA_VERSION);
      // The seats' player columns, filled from the stored game: a player's games are found through them.
      const { games } = await store.games.listGames({ playerId: "P2", limit: 10 });
      assert.deepEqual(
        games.map((g) => g.id),
        ["G1"],
      );
      // A point stored before steps were kept reads without one.
      assert.deepEqual(await store.ratings.ratingHistory("P1", 0, 10), [{ playerId: "P1", gameId: "G0", at: T0, n: 1, rating: 1600.5, rd: 200 }]);
      // The document tables read their rows as the earlier version wrote them, and write them the same way.
      assert.deepEqual(await store.bots.getBot("B1"), bot);
      assert.deepEqual(await store.bots.findBotByKey("kh"), bot);
      assert.deepEqual(await store.tournaments.listTournaments(10), [tournament]);
      assert.equal(await store.tournaments.replaceTournamentIf({ ...tournament, version: 5, name: "Cup 2" }), true);
      assert.deepEqual(await store.leagues.getLeague("L1"), league);
      assert.deepEqual(await store.processes.listProcesses(), [process]);
      assert.equal(await store.processes.removeProcessIf("p1", at(2)), true);
      assert.deepEqual(await store.challenges.listChallenges("agent", 10), [challenge("C1", "agent")]);
    } finally {
      await store.close();
    }
    const raw = new Database(path, { readonly: true });
    try {
      assert.deepEqual(raw.prepare("SELECT created_at, version FROM tournaments WHERE id = 'T1'").get(), { created_at: T0, version: 5 });
    } finally {
      raw.close();
    }

    // Brought forward once: opening it again runs no step and changes nothing.
    const migrated = shape(path);
    await (await open(path)).close();
    assert.equal(shape(path), migrated);
    // And it has what a fresh file has, but for the columns' order and the tables only the old one lacked.
    const freshPath = join(dir, "fresh.db");
    await (await open(freshPath)).close();
    assert.deepEqual(
      shape(path)
        .split("\n")
        .filter((l) => !l.includes("(")),
      shape(freshPath)
        .split("\n")
        .filter((l) => !l.includes("(")),
    );
  });

  it("runs only the steps above a numbered file's version", async function () {
    const path = join(dir, "numbered.db");
    await (await open(path)).close();
    // A file at version 2 whose rating points have no step column, and which lacks an index step 1 makes.
    const db = new Database(path);
    db.exec("ALTER TABLE rating_history DROP COLUMN step; DROP INDEX players_listed_by_rating;");
    db.pragma("user_version = 2");
    db.close();
    await (await open(path)).close();
    assert.equal(versionOf(path), SCHEMA_VERSION);
    assert.ok(columnsOf(path, "rating_history").includes("step"), "step 3 ran");
    assert.ok(!shape(path).includes("index players_listed_by_rating"), "step 1 did not run again");
  });
});
