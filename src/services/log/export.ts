/**
 * Open exports of the public log: its public entries as NDJSON, one `{index, leafHash, entry}` per line, for
 * an index range or a month of finish times. Private games' entries are left out (they hold only a hash).
 * Written with back-pressure: a page is read from the store only once the previous one has been taken by the
 * reader, so memory stays flat whatever the size of the export.
 */
import type { Writable } from "node:stream";
import { AppError } from "../../shared/errors";
import type { LogEntryRecord, LogPort } from "../../store/port";
import { leafHashHex } from "./merkle";

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

/** What an export wrote: the lowest and highest index among its entries, and how many entries. */
export interface ExportSummary {
  treeSize: number;
  first: number | null;
  last: number | null;
  count: number;
}

type Rows = AsyncGenerator<LogEntryRecord[], void, void>;

/**
 * One served entry as JSON: its index, leaf hash and the entry. The stored leaf is the entry's canonical JSON,
 * written as it is, not parsed and serialised again. An export's lines and the entries read (REST) are these.
 */
export function entryJson(row: LogEntryRecord): string {
  return `{"index":${row.index},"leafHash":"${leafHashHex(row.leaf)}","entry":${row.leaf}}`;
}

/**
 * Refuses an index range that does not lie within the tree of `treeSize` entries, as RFC 6962 logs refuse a
 * get-entries past theirs: `to` before `from`, or `from` beyond the tree. An empty range at the tree's end is
 * valid (a follower that has every entry reads nothing new).
 */
export function checkIndexRange(from: number, to: number, treeSize: number): void {
  if (to < from) throw new AppError("bad_request", `to (${to}) is before from (${from})`);
  if (from > treeSize) throw new AppError("bad_request", `from (${from}) is past the log's ${treeSize} entries`, { treeSize });
}

/** An index range, a page at a time, in index order. */
async function* byIndex(store: Pick<LogPort, "logEntries">, from: number, to: number, page: number): Rows {
  for (let at = from; at < to; at += page) yield store.logEntries(at, Math.min(to, at + page));
}

/**
 * A month, a page at a time, along the entries' finish-time index: in finish order (ties by index), since a game
 * may reach the log a batch later than another that finished after it. Entries beyond the export's tree are left
 * out, so every line can be proven against the head it names.
 */
async function* byFinish(store: Pick<LogPort, "logEntriesFinished">, month: string, treeSize: number, page: number): Rows {
  const { start, end } = monthBounds(month);
  let after: { finishedAt: string; index: number } | null = null;
  for (;;) {
    const rows = await store.logEntriesFinished(start, end, after, page);
    yield rows.filter((r) => r.index < treeSize);
    if (rows.length < page) return;
    const last = rows[rows.length - 1];
    after = { finishedAt: last.finishedAt, index: last.index };
  }
}

/**
 * Writes the range's public entries to `out` (not ended here), within the tree of `treeSize` entries: an index
 * range in index order, a month in finish order. The next page is read only once `out` has taken the last one.
 */
export async function writeExport(
  store: Pick<LogPort, "logEntries" | "logEntriesFinished">,
  treeSize: number,
  range: ExportRange,
  out: Writable,
  page = PAGE,
): Promise<ExportSummary> {
  // A bad range or month is refused before anything is written (a month at the first page).
  if (range.kind === "index") checkIndexRange(range.from, range.to, treeSize);
  const pages = range.kind === "month" ? byFinish(store, range.month, treeSize, page) : byIndex(store, range.from, Math.min(range.to, treeSize), page);
  const summary: ExportSummary = { treeSize, first: null, last: null, count: 0 };
  for await (const rows of pages) {
    if (out.destroyed) break;
    let chunk = "";
    for (const row of rows) {
      if (row.privateSalt) continue;
      chunk += `${entryJson(row)}\n`;
      summary.first = Math.min(summary.first ?? row.index, row.index);
      summary.last = Math.max(summary.last ?? row.index, row.index);
      summary.count++;
    }
    if (chunk) await writeTaken(out, chunk);
  }
  return summary;
}

/**
 * Writes `chunk` to `out` and resolves once `out` has taken it (or closed), so the caller reads its next page
 * only for a reader that reads. The chunk goes as bytes: one the socket cannot take yet waits outside the heap,
 * not as a string the garbage collector moves and scans.
 */
export async function writeTaken(out: Writable, chunk: string): Promise<void> {
  if (out.write(Buffer.from(chunk))) return;
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
