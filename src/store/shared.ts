/**
 * Helpers both adapters share, so that behaviour that is easy to get subtly different (cursor format,
 * argument matching, patch merging) is written once.
 */
import { isDeepStrictEqual } from "node:util";
import { AppError } from "../shared/errors";

/** The clock the adapters stamp updatedAt with. */
export const nowIso = (): string => new Date().toISOString();

/** A deep copy through JSON: drops undefined members exactly as a stored record would. */
export const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/**
 * Shallow merge used by every update*: the record's key member cannot be changed by a patch, a member set
 * to undefined is removed, and updatedAt is bumped so readers can tell the record changed.
 */
export function mergePatch<T extends object>(current: T, patch: Partial<T>, keyField: keyof T, stamp = true): T {
  const merged = { ...current, ...patch, [keyField]: current[keyField] } as T;
  if (stamp) (merged as { updatedAt?: string }).updatedAt = nowIso();
  return copy(merged);
}

/** Position in the newest-first game listing: the last row of the page returned. */
export interface GameCursor {
  createdAt: string;
  id: string;
}

export const encodeCursor = (c: GameCursor): string => Buffer.from(JSON.stringify([c.createdAt, c.id])).toString("base64url");

/** Cursors come from clients, so a malformed one is a bad request rather than an internal error. */
export function decodeCursor(cursor: string): GameCursor {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(parsed) && parsed.length === 2 && parsed.every((p) => typeof p === "string")) {
      return { createdAt: parsed[0], id: parsed[1] };
    }
  } catch {
    // fall through to the error below
  }
  throw new AppError("bad_request", "invalid cursor");
}

/** Page size as a non-negative integer; callers validate ranges, this only keeps the query well-formed. */
export const pageSize = (limit: number): number => Math.max(0, Math.floor(Number.isFinite(limit) ? limit : 0));

/** True when every member of `expected` equals the record's (an undefined one: absent from the record). */
export function matchesExpectation(record: object, expected: object): boolean {
  const r = record as Record<string, unknown>;
  return Object.entries(expected).every(([k, v]) => (v === undefined ? r[k] === undefined : r[k] === v));
}

/** True when args holds every pair of match (deep equality, key order irrelevant). */
export function matchesArguments(args: Record<string, unknown>, match: Record<string, unknown>): boolean {
  return Object.entries(match).every(([k, v]) => Object.prototype.hasOwnProperty.call(args, k) && isDeepStrictEqual(args[k], v));
}

/** Both seats' invite codes, for the code lookup columns/indexes. */
export const seatCodes = (seats: Record<string, { code?: string } | undefined>): [string | null, string | null] => [
  seats.A?.code ?? null,
  seats.B?.code ?? null,
];

/**
 * Whether a finished game goes into the public log now: never a private game (its content is its seats'
 * alone, and it is unrated, so no rating step is missing from the log), and not while it is sealed (a league
 * game whose deal's other game may still be played: its entry's seed would tell that game's hands and draw pile). The finish
 * write and the league's unsealing mark a game pending only when this holds, the log's start-up catch-up
 * looks only for such games, and the sequencer appends no other. SQLite says the same in SQL (ENTERS_LOG_SQL,
 * sqlite/log.ts), so that its finish write decides inside its transaction without reading the document out.
 */
export const entersPublicLog = (g: { sealed?: boolean; public?: boolean }): boolean => !g.sealed && g.public !== false;
