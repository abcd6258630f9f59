/**
 * Leagues stored whole (the schedule inside the league's document, with each deal's `released` flag and each
 * game's `outcome`) are split at start-up into the head, the schedule and the results, losing nothing.
 */
import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import mongoose from "mongoose";
import { MongoStore } from "../../src/store/mongo";
import type { LeaguesPort } from "../../src/store/port";
import { SqliteStore } from "../../src/store/sqlite";
import { congoAvailable, useMongo } from "../support/congodb";
import { releasedSet } from "../../src/store/league-shape";

const whole = {
  id: "l_wholeleague1",
  name: "Old",
  ruleset: "classic",
  deals: 2,
  parallel: 1,
  turnSeconds: 60,
  status: "running",
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:05:00.000Z",
  version: 7,
  directorTokenHash: "d".repeat(64),
  entrants: [
    { playerId: "BOT-A", name: "Ada", tokenHash: "a".repeat(64) },
    { playerId: "BOT-B", name: "Bo", tokenHash: "b".repeat(64) },
  ],
  schedule: [
    {
      a: "BOT-A",
      b: "BOT-B",
      deal: 0,
      seed: 11,
      released: true,
      games: [
        { first: "BOT-A", second: "BOT-B", gameId: "g0a", outcome: "first" },
        { first: "BOT-B", second: "BOT-A", gameId: "g0b", outcome: "draw" },
      ],
    },
    {
      a: "BOT-A",
      b: "BOT-B",
      deal: 1,
      seed: 12,
      released: true,
      games: [
        { first: "BOT-A", second: "BOT-B", gameId: "g1a", outcome: "second" },
        { first: "BOT-B", second: "BOT-A", gameId: "g1b" },
      ],
    },
  ],
};

describe("Leagues stored whole", function () {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "league-whole-"))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("are split into head, schedule and results when the SQLite store opens", async () => {
    const path = join(dir, "old.db");
    const db = new Database(path);
    db.exec("CREATE TABLE leagues (id TEXT PRIMARY KEY, created_at TEXT NOT NULL, version INTEGER NOT NULL, doc TEXT NOT NULL)");
    db.prepare("INSERT INTO leagues VALUES (?, ?, ?, ?)").run(whole.id, whole.createdAt, whole.version, JSON.stringify(whole));
    db.close();
    const store = new SqliteStore({ path });
    await store.init();
    try {
      await splitAsBefore(store.leagues);
    } finally {
      await store.close();
    }
  });
});

/** What a store opened on a league stored whole answers. */
async function splitAsBefore(store: LeaguesPort): Promise<void> {
  const head = (await store.getLeague(whole.id))!;
  assert.equal("schedule" in head, false);
  assert.deepEqual(head.progress, { deals: 2, dealsPlayed: 1, games: 4, gamesPlayed: 3 });
  assert.deepEqual(head.open, [1]);
  assert.deepEqual([...releasedSet(head.released)], [0, 1]);
  assert.equal(head.version, 7);
  const schedule = (await store.getLeagueSchedule(whole.id))!;
  assert.deepEqual(
    schedule.map((d) => [d.seed, d.games.map((g) => Object.keys(g).sort().join())]),
    [
      [11, ["first,gameId,second", "first,gameId,second"]],
      [12, ["first,gameId,second", "first,gameId,second"]],
    ],
  );
  const results = (await store.listLeagueResults(whole.id)).map((r) => [r.gameId, r.deal, r.outcome]).sort();
  assert.deepEqual(results, [
    ["g0a", 0, "first"],
    ["g0b", 0, "draw"],
    ["g1a", 1, "second"],
  ]);
  assert.equal(JSON.stringify(await store.listLeagues(10)).includes("g0a"), false);
}

if (process.env.MONGODB_URL || congoAvailable()) {
  describe("Leagues stored whole, on MongoDB", function () {
    const mongo = useMongo();
    it("are split into head, schedule and results when the MongoDB store opens", async () => {
      const u = new URL(mongo.url()!);
      u.pathname = `/league_whole_${process.pid}`;
      const conn = await mongoose.createConnection(u.toString()).asPromise();
      await conn.collection("leagues").insertOne({ ...whole });
      await conn.close();
      const store = new MongoStore({ url: u.toString() });
      await store.init();
      try {
        await splitAsBefore(store.leagues);
        // Opening again finds nothing left to split.
        await store.init();
        await splitAsBefore(store.leagues);
      } finally {
        await store.dropDatabase();
        await store.close();
      }
    });
  });
}
