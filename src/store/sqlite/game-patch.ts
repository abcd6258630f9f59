/**
 * A record patch done inside SQLite: `json_set` edits the stored document in place and the owner fence is a
 * condition of the same UPDATE. A move's patch (move count, score, last move time) then costs one statement,
 * instead of reading the document into JavaScript, parsing, merging, serializing and writing it back, plus a
 * separate fence query; a room's claim of its game (owner and epoch, fenced on the epoch it read) likewise.
 * Patches that change an indexed column other than `status` (seats and their invite codes, `public`) are
 * rare (a seat claim) and take the JavaScript merge.
 *
 * The status column is assigned only by a patch that sets `status`: SQLite rewrites the index entries of
 * every column an UPDATE assigns, even to the value it already holds, so `status = status` on every move
 * added a page of `games_by_status` to each commit's WAL frames (3.31 pages per move's write instead of 2.33
 * in the room benchmark's durability pass: loadtest/lib/commit-cost.ts).
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
   * The statement and parameters that apply `patch` to game `id` (stamping `updatedAt`); null when the patch
   * must take the full-row path. With a `fence`, nothing changes unless the stored owner epoch is
   * `fence.epoch` (null: the game was never claimed).
   */
  plan(id: string, patch: Partial<GameRecord>, updatedAt: string, fence?: { epoch: number | null }): SqlPatch | null {
    const set: string[] = [];
    const removed: string[] = [];
    const status = patch.status !== undefined;
    const params: Record<string, unknown> = { id, updatedAt };
    if (fence) params.epoch = fence.epoch;
    if (status) params.status = patch.status;
    for (const [key, value] of Object.entries(patch)) {
      if (ROW_FIELDS.has(key) || !PLAIN_KEY.test(key) || key === "updatedAt") return null;
      // As in updateGame, a member set to undefined is dropped from the record.
      if (value === undefined) removed.push(key);
      else {
        params[`v${set.length}`] = JSON.stringify(value);
        set.push(key);
      }
    }
    const shape = `${set.join(",")}|${removed.join(",")}|${fence ? "fenced" : ""}`;
    let statement = this.statements.get(shape);
    if (!statement) {
      statement = this.db.prepare(sqlFor(set, removed, status, fence !== undefined));
      this.statements.set(shape, statement);
    }
    return { statement, params };
  }
}

function sqlFor(set: string[], removed: string[], status: boolean, fenced: boolean): string {
  // json() keeps each value's JSON type (a string, a number, null, an object such as the score).
  const sets = set.map((key, i) => `, '$.${key}', json(@v${i})`).join("");
  let doc = `json_set(doc, '$.updatedAt', @updatedAt${sets})`;
  if (removed.length > 0) doc = `json_remove(${doc}, ${removed.map((k) => `'$.${k}'`).join(", ")})`;
  // IS, not =: an epoch of null matches a game no room has claimed yet (no ownerEpoch in its document).
  const fence = fenced ? ` AND json_extract(doc, '$.ownerEpoch') IS @epoch` : "";
  return `UPDATE games SET ${status ? "status = @status, " : ""}doc = ${doc} WHERE id = @id${fence}`;
}
