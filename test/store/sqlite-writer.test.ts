import assert from "node:assert/strict";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { Worker } from "node:worker_threads";
import Database from "better-sqlite3";
import type { GameWrite } from "../../src/store";
import { SqliteStore } from "../../src/store/sqlite";
import { Writer } from "../../src/store/sqlite/writer";
import { countMainThreadWrites } from "../support/sql-writes";
import { useTempDir } from "../support/temp-dir";
import { at, game, player } from "./fixtures";

const place = (gameId: string, index: number): GameWrite => ({
  gameId,
  actions: [{ gameId, index, action: { kind: "place", card: "E7", square: "b3" }, at: at(index + 1) }],
  patch: { moveCount: index + 1 },
  ownerEpoch: 1,
});

describe("SqliteStore's writer thread", function () {
  this.timeout(30_000);
  const dir = useTempDir("sqlite-writer-", "each");
  let path: string;
  let store: SqliteStore;
  const ids = ["G1", "G2", "G3", "G4", "G5"];

  beforeEach(async function () {
    path = join(dir(), "arena.sqlite");
    store = new SqliteStore({ path });
    await store.init();
    for (const id of ids) await store.games.createGame(game(id, { status: "active", ownerEpoch: 1 }));
  });
  afterEach(async function () {
    await store.close();
  });

  /** Holds the write lock from another connection, as the checkpointer's WAL restart or another process may. */
  function holdWriteLock() {
    const admin = new Database(path);
    admin.exec("BEGIN IMMEDIATE");
    return () => {
      admin.exec("COMMIT");
      admin.close();
    };
  }

  it("commits the game writes without running any write statement on the main thread", async function () {
    const counter = countMainThreadWrites();
    let results;
    try {
      results = await Promise.all(ids.map((id) => store.games.commitGames([place(id, 0)])));
    } finally {
      counter.stop();
    }
    assert.deepEqual(
      results,
      ids.map(() => ["committed"]),
    );
    assert.deepEqual(counter.writes, []);
    for (const id of ids) {
      assert.equal((await store.games.getGame(id))!.moveCount, 1);
      assert.equal((await store.games.listActions(id)).length, 1);
    }
  });

  it("holds the owner fence inside its transaction: a write under an old epoch is a conflict and stores nothing", async function () {
    assert.equal(await store.games.updateGameIf("G1", { ownerEpoch: 1 }, { ownerEpoch: 2 }), true);
    assert.deepEqual(await store.games.commitGames([place("G1", 0), place("G2", 0)]), ["conflict", "committed"]);
    assert.deepEqual(await store.games.listActions("G1"), []);
    assert.equal((await store.games.getGame("G1"))!.moveCount, 0);
    assert.equal((await store.games.getGame("G2"))!.moveCount, 1);
  });

  it("commits every write that arrived while it was busy with a batch as the next batch, without a timer", async function () {
    const writer = new Writer({ path, synchronous: "FULL", busyWaitMs: 10_000 });
    try {
      assert.deepEqual(await writer.commit([place("G1", 0)]), ["committed"]);
      const release = holdWriteLock();
      // The thread takes this one and waits for the lock: it is busy with a batch.
      const first = writer.commit([place("G1", 1)]);
      await sleep(200);
      // Sent in separate event-loop turns while it is busy: together they are its next batch.
      const rest: Array<Promise<unknown>> = [];
      for (const id of ["G2", "G3", "G4"]) {
        rest.push(writer.commit([place(id, 0)]));
        await new Promise((r) => setImmediate(r));
      }
      release();
      assert.deepEqual(await first, ["committed"]);
      assert.deepEqual(await Promise.all(rest), [["committed"], ["committed"], ["committed"]]);
      assert.deepEqual(writer.stats(), { batches: 3, writes: 5 });
    } finally {
      await writer.close();
    }
  });

  it("stores new games and their profiles in its batch, without a write statement on the main thread; a taken id is refused alone", async function () {
    const counter = countMainThreadWrites();
    try {
      await store.games.createGame(game("N1"), [player("p-n1", 1500)]);
    } finally {
      counter.stop();
    }
    assert.deepEqual(counter.writes, []);
    assert.ok(await store.players.getPlayer("p-n1"));
    const release = holdWriteLock();
    // Queued behind a held lock, so that the three go in one batch: the taken id is refused, the rest stored.
    const batch = [
      store.games.commitGames([place("G1", 0)]),
      store.games.createGame(game("N1"), [player("p-n2", 1500)]),
      store.games.createGame(game("N2"), [player("p-n3", 1500)]),
    ];
    await sleep(100);
    release();
    const [moved, taken, made] = await Promise.allSettled(batch);
    assert.deepEqual(moved, { status: "fulfilled", value: ["committed"] });
    assert.equal(taken.status, "rejected");
    assert.equal(taken.reason.code, "SQLITE_CONSTRAINT_PRIMARYKEY");
    assert.equal(made.status, "fulfilled");
    assert.equal(await store.players.getPlayer("p-n2"), null, "the refused game's profile is not stored");
    assert.ok(await store.players.getPlayer("p-n3"));
    assert.equal((await store.games.getGame("N2"))!.id, "N2");
    assert.equal((await store.games.getGame("G1"))!.moveCount, 1);
    // A taken id is the caller's answer (it draws another), not a failing store.
    assert.equal((await store.health()).ok, true);
  });

  it("with a sync interval, lets the writes that arrive sooner after an fsync share the next one", async function () {
    let fsyncs = 0;
    const writer = new Writer({ path, synchronous: "FULL", busyWaitMs: 10_000, syncIntervalMs: 300, onFsync: () => fsyncs++ });
    try {
      // After a quiet spell the first write is committed and fsynced on its own.
      assert.deepEqual(await writer.commit([place("G1", 0)]), ["committed"]);
      assert.equal(fsyncs, 1);
      // Four writes sent in separate turns right after it: they wait out the interval and share one fsync.
      const rest: Array<Promise<unknown>> = [];
      for (const id of ["G2", "G3", "G4", "G5"]) {
        rest.push(writer.commit([place(id, 0)]));
        await new Promise((r) => setImmediate(r));
      }
      assert.deepEqual(await Promise.all(rest), [["committed"], ["committed"], ["committed"], ["committed"]]);
      assert.equal(fsyncs, 2);
      assert.deepEqual(writer.stats(), { batches: 2, writes: 5 });
    } finally {
      await writer.close();
    }
  });

  it("refuses every write of a batch whose commit failed, and stores nothing of it", async function () {
    const writer = new Writer({ path, synchronous: "FULL", busyWaitMs: 10_000 });
    try {
      assert.deepEqual(await writer.commit([place("G1", 0)]), ["committed"]);
      // A real failure inside the transaction: a trigger aborts the insert of G3's action.
      const admin = new Database(path);
      admin.exec(`CREATE TRIGGER poison BEFORE INSERT ON actions WHEN NEW.game_id = 'G3' BEGIN SELECT RAISE(ABORT, 'disk says no'); END`);
      admin.close();
      const release = holdWriteLock();
      const first = writer.commit([place("G1", 1)]);
      await sleep(200);
      // Three requests the thread commits as one batch once the first is done: G3's failure refuses all three.
      const batch = ["G2", "G3", "G4"].map((id) => writer.commit([place(id, 0)]));
      release();
      assert.deepEqual(await first, ["committed"]);
      const outcomes = await Promise.allSettled(batch);
      assert.deepEqual(
        outcomes.map((o) => o.status),
        ["rejected", "rejected", "rejected"],
      );
      assert.match(String((outcomes[0] as PromiseRejectedResult).reason), /disk says no/);
      for (const id of ["G2", "G3", "G4"]) {
        assert.deepEqual(await store.games.listActions(id), [], `${id} has no stored action`);
        assert.equal((await store.games.getGame(id))!.moveCount, 0);
      }
      assert.equal((await store.games.getGame("G1"))!.moveCount, 2);
      // It goes on: the next batch without the failing write commits.
      assert.deepEqual(await writer.commit([place("G2", 0)]), ["committed"]);
    } finally {
      await writer.close();
    }
  });

  it("lets a write given before close finish", async function () {
    const pending = store.games.commitGames([place("G1", 0)]);
    await store.close();
    assert.deepEqual(await pending, ["committed"]);
    const reopened = new SqliteStore({ path });
    await reopened.init();
    try {
      assert.equal((await reopened.games.listActions("G1")).length, 1);
    } finally {
      await reopened.close();
    }
  });

  it("is noticed when it stops: health is not ok and every game write is refused", async function () {
    assert.deepEqual(await store.games.commitGames([place("G1", 0)]), ["committed"]);
    assert.equal((await store.health()).ok, true);
    // The thread ends without being asked to (as on an uncaught error in it).
    const worker = (store as unknown as { writer: { worker: Worker } }).writer.worker;
    const exited = new Promise((r) => worker.once("exit", r));
    await worker.terminate();
    await exited;
    const health = await store.health();
    assert.equal(health.ok, false);
    assert.match(health.state, /writer thread stopped/);
    await assert.rejects(store.games.commitGames([place("G2", 0)]), { name: "StoreFailure" });
    assert.deepEqual(await store.games.listActions("G2"), []);
  });
});
