/**
 * The store's public face: the port's types, a factory that picks the adapter from configuration, and
 * the hashing helpers every holder of a secret uses (secrets are stored only as hashes).
 */
import type { Store } from "./port";
import { guardFailures } from "./failures";
import { MongoStore } from "./mongo";
import { SqliteStore } from "./sqlite";

export { safeEqualHex, sha256Hex } from "../shared/secrets";

export * from "./port";

export interface OpenStoreOptions {
  /** SQLite file path (or ":memory:"); used when mongodbUrl is not set. */
  database: string;
  /** When set, MongoDB through mongoose is used instead of SQLite. */
  mongodbUrl?: string;
  /** SQLite's fsync policy: FULL (default) survives power loss, NORMAL a process crash only. */
  synchronous?: "NORMAL" | "FULL";
  /** The commit window (config COMMIT_WINDOW_MS): with SQLite and FULL, the shortest time between two WAL fsyncs. */
  commitWindowMs?: number;
  /** Told, for the log, every change of MongoDB's connection state and any failure of SQLite's background checkpoint. */
  onState?: (state: string, err?: unknown) => void;
  /** With SQLite and FULL, told the duration of each WAL fsync in seconds (for the metrics). */
  onFsync?: (seconds: number) => void;
  /** Told, for the log, the error of every operation that failed in the store itself (answered `unavailable`). */
  onFailure?: (err: unknown, operation: string) => void;
}

/** Opens and initialises the configured store; its failures are answered as `unavailable` (failures.ts). */
export async function openStore(opts: OpenStoreOptions): Promise<Store> {
  let store: Store;
  if (opts.mongodbUrl) {
    store = new MongoStore({ url: opts.mongodbUrl, onState: opts.onState });
  } else {
    store = new SqliteStore({
      path: opts.database,
      synchronous: opts.synchronous,
      syncIntervalMs: opts.commitWindowMs,
      onState: opts.onState,
      onFsync: opts.onFsync,
    });
  }
  try {
    await store.init();
  } catch (e) {
    await store.close().catch(() => undefined);
    throw e;
  }
  return guardFailures(store, opts.onFailure ?? (() => undefined));
}
