/**
 * The group commit's record patch, done inside SQLite: `json_set` edits the stored document in place and the
 * owner fence is a condition of the same UPDATE. A move's patch (move count, score, last move time, status)
 * then costs one statement, instead of reading the document into JavaScript, parsing, merging, serializing
 * and writing it back, plus a separate fence query. Patches that change an indexed column other than
 * `status` (seats and their invite codes, `public`) are rare (a seat claim) and take the JavaScript merge.
 */
import type { Database, Statement } from "better-sqlite3";
import type { GameRecord } from "../port";

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
   * unless the stored owner epoch is `epoch` when one is given; null when the patch must take the full-row path.
   */
  plan(id: string, patch: Partial<GameRecord>, updatedAt: string, epoch: number | undefined): SqlPatch | null {
    const set: string[] = [];
    const removed: string[] = [];
    const params: Record<string, unknown> = { id, updatedAt, epoch: epoch ?? null, status: patch.status ?? null };
    for (const [key, value] of Object.entries(patch)) {
      if (ROW_FIELDS.has(key) || !PLAIN_KEY.test(key) || key === "updatedAt") return null;
      // As in updateGame, a member set to undefined is dropped from the record.
      if (value === undefined) removed.push(key);
      else {
        params[`v${set.length}`] = JSON.stringify(value);
        set.push(key);
      }
    }
    const shape = `${set.join(",")}|${removed.join(",")}|${epoch === undefined ? "" : "fenced"}`;
    let statement = this.statements.get(shape);
    if (!statement) {
      statement = this.db.prepare(sqlFor(set, removed, epoch !== undefined));
      this.statements.set(shape, statement);
    }
    return { statement, params };
  }
}

function sqlFor(set: string[], removed: string[], fenced: boolean): string {
  // json() keeps each value's JSON type (a string, a number, null, an object such as the score).
  const sets = set.map((key, i) => `, '$.${key}', json(@v${i})`).join("");
  let doc = `json_set(doc, '$.updatedAt', @updatedAt${sets})`;
  if (removed.length > 0) doc = `json_remove(${doc}, ${removed.map((k) => `'$.${k}'`).join(", ")})`;
  const fence = fenced ? ` AND json_extract(doc, '$.ownerEpoch') = @epoch` : "";
  return `UPDATE games SET status = coalesce(@status, status), doc = ${doc} WHERE id = @id${fence}`;
}
