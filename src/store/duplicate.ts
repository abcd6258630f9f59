/**
 * Generated identifiers that people type (friend codes) are short, so two can meet; both adapters refuse the
 * second insert (SQLite's primary key, MongoDB's unique index) and the caller draws a new id and inserts
 * again, instead of answering 500.
 */

/**
 * A new record's id was taken where no store error says so: a write refused as a whole (a seat claim whose
 * new guest profile's id is taken, GameWrite.guests) is retried by insertWithFreshId as a duplicate key is.
 */
export class TakenIdError extends Error {
  constructor(id: string) {
    super(`the id ${id} is taken`);
  }
}

/** True for a unique-key violation from either adapter (SQLite's constraint error or MongoDB's E11000), or a TakenIdError. */
export function isDuplicateKey(e: unknown): boolean {
  if (e instanceof TakenIdError) return true;
  const err = e as { code?: unknown; writeErrors?: { code?: unknown }[] } | null;
  if (err?.code === "SQLITE_CONSTRAINT_PRIMARYKEY" || err?.code === "SQLITE_CONSTRAINT_UNIQUE") return true;
  return err?.code === 11000 || (Array.isArray(err?.writeErrors) && err.writeErrors.some((w) => w.code === 11000));
}

/** How many ids are drawn before giving up (each repeat is already rare: see the id's alphabet). */
const ATTEMPTS = 8;

/**
 * Inserts `build(id)` with a fresh `id()` until the store takes it. Any other error, or eight repeats in a
 * row (a broken generator), is thrown.
 */
export async function insertWithFreshId<T>(id: () => string, build: (id: string) => T, insert: (record: T) => Promise<void>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const record = build(id());
    try {
      await insert(record);
      return record;
    } catch (e) {
      if (!isDuplicateKey(e) || attempt >= ATTEMPTS) throw e;
    }
  }
}
