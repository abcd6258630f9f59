import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteStore } from "../../src/store/sqlite";
import { storeContract } from "./contract";
import { game } from "./fixtures";

storeContract("sqlite", async () => new SqliteStore({ path: ":memory:" }));

const dirs: string[] = [];
after(function () {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
/** A fresh database file in a directory that does not exist yet (the store must create it). */
function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), "store-"));
  dirs.push(dir);
  return join(dir, "nested", "arena.db");
}

storeContract("sqlite file", async () => new SqliteStore({ path: tempFile() }));

describe("SqliteStore on a file", function () {
  it("keeps games and actions when the store is closed and reopened", async function () {
    const path = tempFile();
    const first = new SqliteStore({ path, synchronous: "FULL" });
    await first.init();
    await first.createGame(game("G1"));
    await first.appendAction({ gameId: "G1", index: 0, action: { kind: "abort" }, at: "2024-01-01T00:00:01.000Z" });
    await first.close();

    const second = new SqliteStore({ path });
    await second.init();
    try {
      assert.deepEqual(await second.getGame("G1"), game("G1"));
      assert.equal((await second.listActions("G1")).length, 1);
    } finally {
      await second.close();
    }
  });

  it("refuses to be used before init", async function () {
    const store = new SqliteStore({ path: ":memory:" });
    await assert.rejects(store.getGame("G1"), /init/);
    await store.close();
  });
});
