/**
 * Open exports of the public log: its public entries as NDJSON, one `{index, leafHash, entry}` per line, for
 * an index range or a month of finish times. Private games' entries are left out (they hold only a hash).
 * Written with back-pressure: a page is read from the store only once the previous one has been taken by the
 * reader, so memory stays flat whatever the size of the export.
 */
import type { Writable } from "node:stream";
import { AppError } from "../errors";
import type { LogPort } from "../store/port";
import { leafHash } from "./merkle";

export type ExportRange = { kind: "index"; from: number; to: number } | { kind: "month"; month: string };

const PAGE = 1000;

/** The finish times [start, end) of a month "YYYY-MM". */
export function monthBounds(month: string): { start: string; end: string } {
  const m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month);
  if (!m) throw new AppError("bad_request", "month must be YYYY-MM");
  const y = Number(m[1]);
  const mo = Number(m[2]);
  return { start: new Date(Date.UTC(y, mo - 1, 1)).toISOString(), end: new Date(Date.UTC(y, mo, 1)).toISOString() };
}

/** What an export wrote: the first and last index, and how many entries. */
export interface ExportSummary {
  treeSize: number;
  first: number | null;
  last: number | null;
  count: number;
}

/**
 * Writes the range's public entries to `out` (not ended here), within the tree of `treeSize` entries. A month is
 * read from the whole log in index order (entries are appended in finishing order only roughly, since a game
 * may reach the log a batch later than another that finished after it).
 */
export async function writeExport(
  store: Pick<LogPort, "logEntries">,
  treeSize: number,
  range: ExportRange,
  out: Writable,
  page = PAGE,
): Promise<ExportSummary> {
  const bounds = range.kind === "month" ? monthBounds(range.month) : null;
  const from = range.kind === "index" ? range.from : 0;
  const to = range.kind === "index" ? Math.min(range.to, treeSize) : treeSize;
  const summary: ExportSummary = { treeSize, first: null, last: null, count: 0 };
  for (let at = from; at < to; at += page) {
    if (out.destroyed) break;
    const rows = await store.logEntries(at, Math.min(to, at + page));
    let chunk = "";
    for (const row of rows) {
      if (row.privateSalt) continue;
      if (bounds && (row.finishedAt < bounds.start || row.finishedAt >= bounds.end)) continue;
      // The stored leaf is the entry's canonical JSON: written as it is, not parsed and serialised again.
      chunk += `{"index":${row.index},"leafHash":"${leafHash(Buffer.from(row.leaf)).toString("hex")}","entry":${row.leaf}}\n`;
      summary.first ??= row.index;
      summary.last = row.index;
      summary.count++;
    }
    if (chunk && !out.write(chunk))
      await new Promise<void>((resolve) => {
        const done = () => {
          out.off("drain", done);
          out.off("close", done);
          resolve();
        };
        out.once("drain", done);
        out.once("close", done);
      });
  }
  return summary;
}
