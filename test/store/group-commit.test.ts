import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { GroupCommit } from "../../src/store/group-commit";
import { SqliteStore } from "../../src/store/sqlite";
import { at, game } from "./fixtures";

const place = (gameId: string, index: number) => ({ gameId, index, action: { kind: "place" as const, card: "E7", square: "b3" }, at: at(index + 1) });

describe("GroupCommit on a SQLite file", function () {
  let dir: string;
  let path: string;
  let store: SqliteStore;
  let commits: GroupCommit;

  beforeEach(async function () {
    dir = mkdtempSync(join(tmpdir(), "group-commit-"));
    path = join(dir, "arena.sqlite");
    store = new SqliteStore({ path });
    await store.init();
    for (const id of ["G1", "G2", "G3"]) await store.games.createGame(game(id, { status: "active" }));
    // The store's writer thread is up (it starts in the background): the window test below times its commits.
    await store.games.commitGames([]);
    commits = new GroupCommit(store.games);
  });
  afterEach(async function () {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("commits the writes of one event-loop turn in one batch and resolves each once stored", async function () {
    const results = await Promise.all(["G1", "G2", "G3"].map((id) => commits.submit({ gameId: id, actions: [place(id, 0)], patch: { moveCount: 1 } })));
    assert.deepEqual(results, ["committed", "committed", "committed"]);
    assert.deepEqual(commits.stats(), { batches: 1, writes: 3 });
    // Read through another connection: what was acknowledged is in the file, not only in this connection.
    const other = new Database(path, { readonly: true });
    try {
      const row = other.prepare("SELECT count(*) AS n FROM actions").get() as { n: number };
      assert.equal(row.n, 3);
    } finally {
      other.close();
    }
  });

  it("starts a new batch for writes submitted after the previous one was flushed", async function () {
    await commits.submit({ gameId: "G1", actions: [place("G1", 0)], patch: {} });
    await commits.submit({ gameId: "G1", actions: [place("G1", 1)], patch: {} });
    assert.deepEqual(commits.stats(), { batches: 2, writes: 2 });
    assert.equal((await store.games.listActions("G1")).length, 2);
  });

  it("with a commit window, commits at once after a quiet spell and lets writes that come sooner share the next commit", async function () {
    const windowed = new GroupCommit(store.games, { windowMs: 300 });
    // The first write finds no commit within the window: it is committed in its own turn.
    assert.equal(await windowed.submit({ gameId: "G1", actions: [place("G1", 0)], patch: { moveCount: 1 } }), "committed");
    assert.deepEqual(windowed.stats(), { batches: 1, writes: 1 });
    // Two writes in separate turns, within the window: one commit at its end carries both.
    const second = windowed.submit({ gameId: "G2", actions: [place("G2", 0)], patch: { moveCount: 1 } });
    await new Promise((r) => setImmediate(r));
    const third = windowed.submit({ gameId: "G3", actions: [place("G3", 0)], patch: { moveCount: 1 } });
    assert.deepEqual(await Promise.all([second, third]), ["committed", "committed"]);
    assert.deepEqual(windowed.stats(), { batches: 2, writes: 3 });
    for (const id of ["G1", "G2", "G3"]) assert.equal((await store.games.getGame(id))!.moveCount, 1);
  });

  it("refuses every write of a failed batch and stores nothing of it", async function () {
    // A real failure inside the transaction: a trigger aborts the insert of one game's action.
    const admin = new Database(path);
    admin.exec(`CREATE TRIGGER poison BEFORE INSERT ON actions WHEN NEW.game_id = 'G2' BEGIN SELECT RAISE(ABORT, 'disk says no'); END`);
    admin.close();
    const results = await Promise.allSettled(
      ["G1", "G2", "G3"].map((id) => commits.submit({ gameId: id, actions: [place(id, 0)], patch: { moveCount: 1, status: "finished" } })),
    );
    assert.deepEqual(
      results.map((r) => r.status),
      ["rejected", "rejected", "rejected"],
    );
    for (const id of ["G1", "G2", "G3"]) {
      assert.deepEqual(await store.games.listActions(id), [], `${id} has no stored action`);
      const g = (await store.games.getGame(id))!;
      assert.equal(g.moveCount, 0);
      assert.equal(g.status, "active");
    }
    assert.deepEqual(commits.stats(), { batches: 1, writes: 3 });
  });

  it("reports a conflict for the write whose index is taken while the rest of the batch commits", async function () {
    await store.games.commitGames([{ gameId: "G1", actions: [place("G1", 0)], patch: {} }]);
    const results = await Promise.all([
      commits.submit({ gameId: "G1", actions: [place("G1", 0)], patch: { moveCount: 1 } }),
      commits.submit({ gameId: "G2", actions: [place("G2", 0)], patch: { moveCount: 1 } }),
    ]);
    assert.deepEqual(results, ["conflict", "committed"]);
    assert.equal((await store.games.getGame("G1"))!.moveCount, 0);
    assert.equal((await store.games.getGame("G2"))!.moveCount, 1);
  });
});
