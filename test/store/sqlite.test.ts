import assert from "node:assert/strict";
import { rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import Database from "better-sqlite3";
import { SqliteStore } from "../../src/store/sqlite";
import { LISTED_PLAYER } from "../../src/store/sqlite/schema";
import { tempFiles } from "../support/temp-dir";
import { storeContract } from "./contract";
import { game } from "./fixtures";

// The contract on a file (its writer and checkpointer threads, two stores on one file) is sqlite-file.test.ts.
storeContract("sqlite", async () => new SqliteStore({ path: ":memory:" }));

/** A fresh database file in a directory that does not exist yet (the store must create it). */
const tempFile = tempFiles("store-", join("nested", "arena.db"));

describe("SqliteStore on a file", function () {
  it("keeps games and actions when the store is closed and reopened", async function () {
    const path = tempFile();
    const first = new SqliteStore({ path, synchronous: "FULL" });
    await first.init();
    await first.games.createGame(game("G1"));
    await first.games.commitGames([
      { gameId: "G1", actions: [{ gameId: "G1", index: 0, action: { kind: "abort" }, at: "2024-01-01T00:00:01.000Z" }], patch: {} },
    ]);
    await first.close();

    const second = new SqliteStore({ path });
    await second.init();
    try {
      assert.deepEqual(await second.games.getGame("G1"), game("G1"));
      assert.equal((await second.games.listActions("G1")).length, 1);
    } finally {
      await second.close();
    }
  });

  it("gives a store made before the seats' player columns those columns, filled from its games, when it opens", async function () {
    const path = tempFile();
    const first = new SqliteStore({ path });
    await first.init();
    await first.games.createGame(game("G1"));
    await first.close();
    // The games table as an earlier version made it: no player columns, no indexes over them, and no step
    // number (one made before the schema's steps were numbered).
    const old = new Database(path);
    old.exec("DROP INDEX games_by_player_a; DROP INDEX games_by_player_b; ALTER TABLE games DROP COLUMN player_a; ALTER TABLE games DROP COLUMN player_b;");
    old.pragma("user_version = 0");
    old.close();

    const second = new SqliteStore({ path });
    await second.init();
    try {
      const { games } = await second.games.listGames({ playerId: "P1", limit: 10 });
      assert.deepEqual(
        games.map((g) => g.id),
        ["G1"],
      );
    } finally {
      await second.close();
    }
  });

  it("keeps the WAL bounded under steady writes through its checkpointer thread, keeping every commit", async function () {
    const big = "x".repeat(4000);
    /** 1,500 games written without a pause; the WAL file's size at the end. */
    const walAfterWrites = async (path: string, checkpointMs: number) => {
      const store = new SqliteStore({ path, checkpointMs, checkpointRestartFrames: 500, synchronous: "NORMAL" });
      await store.init();
      if (checkpointMs > 0) await store.checkpointed(); // the thread is up
      try {
        for (let i = 0; i < 1500; i++) {
          await store.games.createGame(game(`G${i}`, { salt: big }));
          if (i % 50 === 49) await sleep(2); // the writes never stop for long
        }
        return statSync(`${path}-wal`).size;
      } finally {
        await store.close();
      }
    };
    const unchecked = await walAfterWrites(tempFile(), 0);
    const path = tempFile();
    const checked = await walAfterWrites(path, 10);
    assert.ok(checked < unchecked / 2, `the WAL reached ${checked} bytes with checkpoints, ${unchecked} without`);
    const reopened = new SqliteStore({ path });
    await reopened.init();
    try {
      assert.equal((await reopened.games.getGame("G0"))?.salt, big);
      assert.equal((await reopened.games.getGame("G1499"))?.salt, big);
    } finally {
      await reopened.close();
    }
  });

  it("closes when its files were deleted before the checkpointer thread first opened them, having reported the failed checkpoint", async function () {
    this.timeout(10_000);
    const path = tempFile();
    const told: string[] = [];
    const store = new SqliteStore({ path, checkpointMs: 50, onState: (state, err) => told.push(`${state}: ${(err as Error).message}`) });
    await store.init();
    // At once, before the thread's first checkpoint (on a slow machine, before the thread has even started).
    for (const f of [path, `${path}-wal`, `${path}-shm`]) rmSync(f, { force: true });
    // The thread's first checkpoint finds no file: it says so, and lives on to answer the close.
    await store.checkpointed();
    assert.ok(told.length >= 1, "the failed checkpoint was reported");
    for (const line of told) assert.match(line, /^checkpoint_failed: .*unable to open database file/);
    // A close that waited for a thread that had already ended would never resolve (the test's timeout).
    await store.close();
    await assert.rejects(async () => store.games.getGame("G1"), /init/, "a closed store refuses to be used");
  });

  it("writes a move as two WAL pages (its action's and its game's), a claim as one, and the status index only when the status changes", async function () {
    const path = tempFile();
    const store = new SqliteStore({ path, checkpointMs: 0, synchronous: "NORMAL" });
    await store.init();
    const frames = () => (statSync(`${path}-wal`).size - 32) / (4096 + 24);
    try {
      for (let i = 0; i < 50; i++) await store.games.createGame(game(`G${i}`, { status: "active" }));
      const before = frames();
      assert.equal(await store.games.updateGameIf("G7", { ownerEpoch: undefined }, { owner: "p1", ownerEpoch: 1 }), true);
      assert.equal(frames() - before, 1, "a claim rewrites its game's page, no index");
      const move = (index: number, patch: object) => [
        { gameId: "G7", actions: [{ gameId: "G7", index, action: { kind: "abort" as const }, at: game("G7").createdAt }], patch, ownerEpoch: 1 },
      ];
      const beforeMove = frames();
      assert.deepEqual(await store.games.commitGames(move(0, { moveCount: 1, score: { A: 1, B: 0 }, lastMoveAt: game("G7").createdAt })), ["committed"]);
      assert.equal(frames() - beforeMove, 2, "a move's commit leaves every index of games alone");
      const beforeEnd = frames();
      assert.deepEqual(await store.games.commitGames(move(1, { status: "finished", winner: "A" })), ["committed"]);
      // 3 for the game (its page, its action's, the status index) and 3 for its public log mark, made in the same
      // transaction (the pending row, its game id's unique index, the AUTOINCREMENT counter).
      assert.equal(frames() - beforeEnd, 6, "the status index is written when the status changes, with the log's mark");
      assert.deepEqual(
        (await store.games.listGames({ status: "finished", limit: 5 })).games.map((g) => g.id),
        ["G7"],
      );
    } finally {
      await store.close();
    }
  });

  describe("a write lock held elsewhere (a WAL restart, another process)", function () {
    /**
     * A store on a new file with a game to write to, and a second connection holding the write lock while
     * `body` runs (`release` commits it).
     */
    async function whileLockHeld(busyWaitMs: number | undefined, body: (store: SqliteStore, release: () => void) => Promise<void>) {
      const path = tempFile();
      const store = new SqliteStore({ path, checkpointMs: 0, busyWaitMs });
      await store.init();
      await store.games.createGame(game("G1"));
      const other = new Database(path);
      try {
        other.exec("BEGIN IMMEDIATE");
        await body(store, () => other.exec("COMMIT"));
      } finally {
        other.close();
        await store.close();
      }
    }
    const write = {
      gameId: "G1",
      actions: [{ gameId: "G1", index: 0, action: { kind: "abort" as const }, at: "2024-01-01T00:00:01.000Z" }],
      patch: { moveCount: 1 },
    };
    const stored = async (store: SqliteStore) => ({
      actions: (await store.games.listActions("G1")).length,
      moveCount: (await store.games.getGame("G1"))?.moveCount,
    });

    it("is waited for without holding the event loop, and the write lands once it is released", async function () {
      await whileLockHeld(undefined, async (store, release) => {
        let ticks = 0;
        let settled = false;
        const ticker = setInterval(() => ticks++, 5);
        const committing = store.games.commitGames([write]).finally(() => (settled = true));
        // SQLite's own busy handler would sleep inside the call: no timer would run until its timeout, when the
        // write would fail. Ten turns of the timer while the write is still pending show it waits off the loop
        // (counted, not timed: a loaded machine turns the loop fewer times in a given span).
        for (const deadline = Date.now() + 10_000; ticks < 10 && Date.now() < deadline;) await sleep(5);
        assert.ok(ticks >= 10, `the event loop ran ${ticks} timers while the write waited`);
        assert.equal(settled, false, "the write waits for the lock to be released");
        release();
        assert.deepEqual(await committing, ["committed"]);
        clearInterval(ticker);
        assert.deepEqual(await stored(store), { actions: 1, moveCount: 1 });
      });
    });

    it("fails the write after busyWaitMs with SQLITE_BUSY, and nothing of it is stored", async function () {
      await whileLockHeld(100, async (store, release) => {
        await assert.rejects(store.games.commitGames([write]), (e: { code?: string }) => e.code === "SQLITE_BUSY");
        release();
        assert.deepEqual(await stored(store), { actions: 0, moveCount: 0 });
      });
    });
  });

  it("pages the listed players over their partial index, which a store made before it gains when it opens", async function () {
    const path = tempFile();
    const first = new SqliteStore({ path });
    await first.init();
    await first.close();
    const old = new Database(path);
    old.exec("DROP INDEX players_listed_by_rating");
    old.pragma("user_version = 0");
    old.close();
    const second = new SqliteStore({ path });
    await second.init();
    await second.close();
    const db = new Database(path, { readonly: true });
    try {
      const plan = db
        .prepare(`EXPLAIN QUERY PLAN SELECT doc FROM players WHERE ${LISTED_PLAYER} ORDER BY rating DESC, id LIMIT 20 OFFSET 40`)
        .all()
        .map((r) => (r as { detail: string }).detail);
      // One scan of the index in rank order: OFFSET steps over index entries, no document is read to filter.
      assert.deepEqual(plan, ["SCAN players USING INDEX players_listed_by_rating"]);
    } finally {
      db.close();
    }
  });

  it("refuses to be used before init", async function () {
    const store = new SqliteStore({ path: ":memory:" });
    await assert.rejects(async () => store.games.getGame("G1"), /init/);
    await store.close();
  });
});
