/** How the MongoDB adapter writes: one durability rule, and the filters and updates its writes share. */
import type { InsertManyOptions, mongo } from "mongoose";
import { copy, nowIso } from "../shared";
import type { Doc } from "./models";

/**
 * Every write the port calls durable (all of them) is acknowledged only once journaled on a majority, as
 * SQLite acknowledges only after the fsync.
 */
export const DURABLE = { w: "majority", j: true } as const;
/** The same rule as options of a mongoose write. */
export const DURABLY = { writeConcern: DURABLE } as const;

/**
 * Options of an insertMany under the rule: lean skips document hydration, so the record is written exactly
 * as given, and the options reach the driver as they are, which is how the write concern gets to the server.
 */
export const INSERT_DURABLY: InsertManyOptions & mongo.BulkWriteOptions = { lean: true, ...DURABLY };

/**
 * A write-concern error: the driver's own (one write), or one inside a bulk write error, where it comes
 * with the write errors in the result. The write may not be durable.
 */
export function hasWriteConcernError(e: unknown): boolean {
  const err = e as { name?: string; writeConcernError?: unknown; result?: { getWriteConcernError?: () => unknown } } | null;
  if (err?.name === "MongoWriteConcernError" || err?.writeConcernError) return true;
  return typeof err?.result?.getWriteConcernError === "function" && Boolean(err.result.getWriteConcernError());
}

/**
 * E11000, as a plain server error or inside a bulk write error; never when a write-concern error came with
 * it, since the writes that did go in are then not known to be durable and the caller must not go on as if
 * only the duplicate failed.
 */
export function isDuplicateKey(e: unknown): boolean {
  if (hasWriteConcernError(e)) return false;
  const err = e as { code?: number; writeErrors?: { code?: number }[] } | null;
  return err?.code === 11000 || (err?.writeErrors ?? []).some((w) => w.code === 11000);
}

/** A filter member per expectation: equal, or absent when the expectation is undefined. */
export function expectationFilter(keyField: string, key: string, expected: object): Doc {
  const filter: Doc = { [keyField]: key };
  for (const [k, v] of Object.entries(expected)) filter[k] = v === undefined ? { $exists: false } : v;
  return filter;
}

/**
 * $set for the patch's members, $unset for the ones it sets to undefined; the key member never changes.
 * `stamp`: true stamps updatedAt now, a string stamps it with that time.
 */
export function patchUpdate(patch: object, keyField: string, stamp: boolean | string): Doc {
  const set: Doc = {};
  const unset: Doc = {};
  for (const [k, v] of Object.entries(patch)) {
    if (k === keyField || k === "_id" || k === "log") continue;
    if (v === undefined) unset[k] = "";
    else set[k] = copy(v);
  }
  if (stamp) set.updatedAt = typeof stamp === "string" ? stamp : nowIso();
  return Object.keys(unset).length ? { $set: set, $unset: unset } : { $set: set };
}

/** Runs an upsert again when it lost a race to create the same key: the second run finds the winner's. */
export async function retryingUpsert<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (isDuplicateKey(e)) return run();
    throw e;
  }
}
