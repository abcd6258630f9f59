/**
 * A record patch done inside SQLite: `json_set` edits the stored document in place and an expectation (the
 * owner fence) is a condition of the same UPDATE. A move's patch (move count, score, last move time) then
 * costs one statement, instead of reading the document into JavaScript, parsing, merging, serializing and
 * writing it back, plus a separate fence query; a room's claim of its game (owner and epoch, expecting the
 * epoch it read) likewise.
 * Patches that change an indexed column other than `status` (seats and their invite codes, `public`) are
 * rare (a seat claim) and take the JavaScript merge.
 *
 * The status column is assigned only by a patch that sets `status`: SQLite rewrites the index entries of
 * every column an UPDATE assigns, even to the value it already holds, so `status = status` on every move
 * added a page of `games_by_status` to each commit's WAL frames (3.31 pages per move's write instead of 2.33
 * in the room benchmark's durability pass: loadtest/lib/commit-cost.ts).
 */
import type { Database, Statement } from "better-sqlite3";
import type { GameExpectation, GameRecord } from "../port";

/** Record fields mirrored in their own indexed columns besides status: patching them needs the full row. */
const ROW_FIELDS = new Set<string>(["id", "seats", "public"]);
const PLAIN_KEY = /^[A-Za-z][A-Za-z0-9]*$/;

export interface SqlPatch {
  statement: Statement;
  params: Record<string, unknown>;
}

export class GamePatches {
  /** One prepared statement per distinct (fields set, fields removed, fenced) shape: a handful in practice. */
  private readonly statements = new Map<string, Statement>();

  constructor(private readonly db: Database) {}

  /**
   * The statement and parameters that apply `patch` to game `id` (stamping `updatedAt`), changing nothing
   * unless the stored record matches `expected` as updateGameIf's would (a member given as undefined: absent
   * from the record); null when the patch must take the full-row path.
   */
  plan(id: string, patch: Partial<GameRecord>, updatedAt: string, expected: GameExpectation = {}): SqlPatch | null {
    const set: string[] = [];
    const removed: string[] = [];
    const status = patch.status !== undefined;
    const params: Record<string, unknown> = { id, updatedAt };
    if (status) params.status = patch.status;
    const conditions = Object.keys(expected) as Array<keyof GameExpectation>;
    // Keys go into the SQL text: anything but a plain name takes the full-row path.
    if (!conditions.every((key) => PLAIN_KEY.test(key))) return null;
    conditions.forEach((key, i) => (params[`e${i}`] = expected[key] ?? null));
    for (const [key, value] of Object.entries(patch)) {
      if (ROW_FIELDS.has(key) || !PLAIN_KEY.test(key) || key === "updatedAt") return null;
      // As in a full-row update, a member set to undefined is dropped from the record.
      if (value === undefined) removed.push(key);
      else {
        params[`v${set.length}`] = JSON.stringify(value);
        set.push(key);
      }
    }
    const shape = `${set.join(",")}|${removed.join(",")}|${conditions.join(",")}`;
    let statement = this.statements.get(shape);
    if (!statement) {
      statement = this.db.prepare(sqlFor(set, removed, status, conditions));
      this.statements.set(shape, statement);
    }
    return { statement, params };
  }
}

function sqlFor(set: string[], removed: string[], status: boolean, conditions: string[]): string {
  // json() keeps each value's JSON type (a string, a number, null, an object such as the score).
  const sets = set.map((key, i) => `, '$.${key}', json(@v${i})`).join("");
  let doc = `json_set(doc, '$.updatedAt', @updatedAt${sets})`;
  if (removed.length > 0) doc = `json_remove(${doc}, ${removed.map((k) => `'$.${k}'`).join(", ")})`;
  // IS, not =: an expected null matches a member absent from the document (a game no room has claimed yet).
  const where = conditions.map((key, i) => ` AND json_extract(doc, '$.${key}') IS @e${i}`).join("");
  return `UPDATE games SET ${status ? "status = @status, " : ""}doc = ${doc} WHERE id = @id${where}`;
}
