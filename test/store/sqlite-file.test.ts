/**
 * The store contract (test/store/contract.ts) on a SQLite file: each test's store starts its writer and
 * checkpointer threads, and two stores on one file stand for two processes sharing it in the race tests. Apart
 * from sqlite.test.ts (the contract in memory, and what only a file shows) so that the two run side by side in
 * the fast suite: this one takes the longest of its files.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteStore } from "../../src/store/sqlite";
import { storeContract } from "./contract";

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

// Two stores on one file are two processes sharing it: the race tests run on them.
const pathOf = new WeakMap<object, string>();
storeContract(
  "sqlite file",
  async () => {
    const path = tempFile();
    const store = new SqliteStore({ path });
    pathOf.set(store, path);
    return store;
  },
  async (first) => new SqliteStore({ path: pathOf.get(first)! }),
);
