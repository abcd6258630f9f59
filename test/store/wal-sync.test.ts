import assert from "node:assert/strict";
import { join } from "node:path";
import Database from "better-sqlite3";
import { SqliteStore } from "../../src/store/sqlite";
import { WalSync } from "../../src/store/sqlite/wal-sync";
import { game } from "./fixtures";
import { useTempDir } from "../support/temp-dir";

describe("WalSync and SQLite's synchronous setting", function () {
  const dir = useTempDir("wal-sync-", "each");

  it("resolves every concurrent caller, with or without a WAL file yet", async function () {
    const missing = new WalSync(join(dir(), "none.sqlite-wal"));
    await Promise.all([missing.sync(), missing.sync()]);
    await missing.close();

    const path = join(dir(), "arena.sqlite");
    const db = new Database(path);
    db.pragma("journal_mode = WAL");
    db.exec("CREATE TABLE t (x INTEGER)");
    const sync = new WalSync(`${path}-wal`);
    try {
      const waits: Promise<void>[] = [];
      for (let i = 0; i < 20; i++) {
        db.prepare("INSERT INTO t VALUES (?)").run(i);
        waits.push(sync.sync());
      }
      await Promise.all(waits);
    } finally {
      await sync.close();
      db.close();
    }
  });

  it("starts fsyncs at least minIntervalMs apart: the syncs asked for meanwhile share the next one", async function () {
    const path = join(dir(), "arena.sqlite");
    const db = new Database(path);
    db.pragma("journal_mode = WAL");
    db.exec("CREATE TABLE t (x INTEGER)");
    const insert = db.prepare("INSERT INTO t VALUES (?)");
    const sync = new WalSync(`${path}-wal`, { minIntervalMs: 300 });
    try {
      // After a quiet spell: at once (a wait of the whole interval would fail the test's timeout).
      insert.run(1);
      await sync.sync();
      assert.equal(sync.fsyncs, 1);
      // Within the interval: two commits in separate turns wait for one fsync together.
      insert.run(2);
      const first = sync.sync();
      await new Promise((r) => setImmediate(r));
      insert.run(3);
      const second = sync.sync();
      await Promise.all([first, second]);
      assert.equal(sync.fsyncs, 2);
      // Without an interval, a sync after the previous one resolved starts its own.
      const eager = new WalSync(`${path}-wal`);
      insert.run(4);
      await eager.sync();
      insert.run(5);
      await eager.sync();
      assert.equal(eager.fsyncs, 2);
      await eager.close();
    } finally {
      await sync.close();
      db.close();
    }
  });

  it("runs the connection with NORMAL and keeps FULL's promise by its own fsync, on a file only", async function () {
    const path = join(dir(), "arena.sqlite");
    const store = new SqliteStore({ path });
    await store.init();
    try {
      await store.games.createGame(game("G1"));
      // The write resolved after the fsync: another connection reads it from the file.
      const other = new Database(path, { readonly: true });
      assert.equal((other.prepare("SELECT count(*) AS n FROM games").get() as { n: number }).n, 1);
      other.close();
    } finally {
      await store.close();
    }
    const memory = new SqliteStore({ path: ":memory:", synchronous: "FULL" });
    await memory.init();
    await memory.games.createGame(game("G1"));
    assert.equal((await memory.games.getGame("G1"))?.id, "G1");
    await memory.close();
  });
});
