/**
 * The store contract (test/store/contract.ts) on a SQLite file: each test's store starts its writer and
 * checkpointer threads, and two stores on one file stand for two processes sharing it in the race tests. Apart
 * from sqlite.test.ts (the contract in memory, and what only a file shows) so that the two run side by side in
 * the fast suite: this one takes the longest of its files.
 */
import { join } from "node:path";
import { SqliteStore } from "../../src/store/sqlite";
import { tempFiles } from "../support/temp-dir";
import { storeContract } from "./contract";

/** A fresh database file in a directory that does not exist yet (the store must create it). */
const tempFile = tempFiles("store-", join("nested", "arena.db"));

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
