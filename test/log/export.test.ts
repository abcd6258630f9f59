/** Open exports: a range or a month of public entries as NDJSON, private games left out, read with back-pressure. */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { gunzipSync } from "node:zlib";
import { Writable } from "node:stream";
import { createLogger } from "../../src/shared/logger";
import { writeExport } from "../../src/services/log/export";
import { loadLogKey } from "../../src/services/log/keys";
import { leafHash } from "../../src/services/log/merkle";
import { LogSequencer } from "../../src/services/log/sequencer";
import { SqliteStore } from "../../src/store/sqlite";
import type { LogEntryRecord } from "../../src/store";
import { playedGame } from "./fixtures";

/** Collects what is written; `hold` keeps each write's callback until release() (a reader that stopped reading). */
function sink(hold = false) {
  const chunks: string[] = [];
  const waiting: Array<() => void> = [];
  const out = new Writable({
    highWaterMark: 1,
    write(chunk: Buffer, _enc, cb) {
      chunks.push(chunk.toString());
      if (hold) waiting.push(() => cb());
      else cb();
    },
  });
  return {
    out,
    lines: () =>
      chunks
        .join("")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { index: number; leafHash: string; entry: { gameId: string } }),
    release: () => waiting.splice(0).forEach((f) => f()),
  };
}

describe("Open exports of the public log", function () {
  let store: SqliteStore;
  before(async function () {
    store = new SqliteStore({ path: ":memory:" });
    await store.init();
    const seq = new LogSequencer(store, await loadLogKey(store.log, undefined), () => "p1", { batchMs: 1000, leaseMs: 60_000 }, createLogger("silent"));
    for (let n = 0; n < 6; n++) {
      // Games 0-2 finish in October, 3-5 in November; game 4 is private, so never in the log: games 0-3 and 5
      // are entries 0-4.
      const { record, actions } = playedGame(n, { public: n !== 4, finishedAt: n < 3 ? `2026-10-0${n + 1}T12:00:00.000Z` : `2026-11-0${n}T12:00:00.000Z` });
      await store.games.createGame(record);
      await store.games.commitGames([{ gameId: record.id, actions, patch: {} }]);
      await store.log.addLogPending([record.id]);
    }
    await seq.drain();
  });
  after(async function () {
    await store.close();
  });

  it("writes an index range's public entries with their leaf hashes, a private game never among them", async function () {
    const s = sink();
    const summary = await writeExport(store.log, 5, { kind: "index", from: 1, to: 5 }, s.out);
    const lines = s.lines();
    assert.deepEqual(
      lines.map((l) => l.index),
      [1, 2, 3, 4],
    );
    assert.ok(lines.every((l) => l.entry.gameId !== "G00004"));
    assert.deepEqual(summary, { treeSize: 5, first: 1, last: 4, count: 4 });
    const stored = await store.log.logEntries(0, 5);
    for (const l of lines) {
      const row = stored[l.index];
      assert.equal(l.leafHash, leafHash(Buffer.from(row.leaf)).toString("hex"));
      assert.deepEqual(l.entry, JSON.parse(row.leaf));
    }
  });

  it("writes a month's games only, read by finish time, not by a scan of the whole log", async function () {
    const s = sink();
    const read: string[] = [];
    const byFinish = {
      logEntries: (): Promise<LogEntryRecord[]> => Promise.reject(new Error("a month is not read by index")),
      logEntriesFinished: (start: string, end: string, after: { finishedAt: string; index: number } | null, limit: number) => {
        read.push(`${start}..${end}`);
        return store.log.logEntriesFinished(start, end, after, limit);
      },
    };
    const summary = await writeExport(byFinish, 5, { kind: "month", month: "2026-11" }, s.out, 1);
    assert.deepEqual(
      s.lines().map((l) => l.entry.gameId),
      ["G00003", "G00005"],
    );
    assert.deepEqual(summary, { treeSize: 5, first: 3, last: 4, count: 2 });
    assert.ok(
      read.every((r) => r === "2026-11-01T00:00:00.000Z..2026-12-01T00:00:00.000Z"),
      read.join(),
    );
    const cut = sink();
    await writeExport(store.log, 4, { kind: "month", month: "2026-11" }, cut.out);
    assert.deepEqual(
      cut.lines().map((l) => l.index),
      [3],
      "an entry beyond the export's tree is left out",
    );
    await assert.rejects(writeExport(store.log, 5, { kind: "month", month: "2026-13" }, sink().out), /YYYY-MM/);
  });

  it("reads no further page from the store while the reader has not taken the last one", async function () {
    let pages = 0;
    const counting = {
      logEntries: (from: number, to: number): Promise<LogEntryRecord[]> => {
        pages++;
        return store.log.logEntries(from, to);
      },
      logEntriesFinished: () => Promise.reject(new Error("an index range is read by index")),
    };
    const s = sink(true);
    // A page of one entry: each page is one write, which the reader holds.
    const done = writeExport(counting, 3, { kind: "index", from: 0, to: 3 }, s.out, 1);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(pages, 1, "waits for the reader");
    for (let i = 0; i < 10 && pages < 3; i++) {
      s.release();
      await new Promise((r) => setTimeout(r, 20));
    }
    s.release();
    await done;
    assert.equal(pages, 3);
  });
});

describe("npm run export:games", function () {
  this.timeout(30_000);
  it("writes a month's gzip'd NDJSON and a manifest naming its range, count, sha256 and signed head", async function () {
    const dir = mkdtempSync(join(tmpdir(), "export-"));
    try {
      const database = join(dir, "arena.db");
      const store = new SqliteStore({ path: database, checkpointMs: 0 });
      await store.init();
      const seq = new LogSequencer(store, await loadLogKey(store.log, undefined), () => "p1", { batchMs: 1000, leaseMs: 1 }, createLogger("silent"));
      for (let n = 0; n < 4; n++) {
        const { record, actions } = playedGame(n, { finishedAt: n < 2 ? "2026-10-05T00:00:00.000Z" : "2026-11-05T00:00:00.000Z" });
        await store.games.createGame(record);
        await store.games.commitGames([{ gameId: record.id, actions, patch: {} }]);
        await store.log.addLogPending([record.id]);
      }
      await seq.drain();
      const head = (await store.log.logState()).head;
      await store.close();
      const out = join(dir, "games-2026-11.ndjson.gz");
      await promisify(execFile)(process.execPath, ["--import", "tsx", join(process.cwd(), "src/cli/export-games.ts"), "--month", "2026-11", "--out", out], {
        env: { ...process.env, DATABASE: database, LOG_LEVEL: "silent" },
      });
      const gz = readFileSync(out);
      const lines = gunzipSync(gz)
        .toString()
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { index: number; entry: { gameId: string } });
      assert.deepEqual(
        lines.map((l) => l.entry.gameId),
        ["G00002", "G00003"],
      );
      const manifest = JSON.parse(readFileSync(`${out}.manifest.json`, "utf8")) as Record<string, unknown>;
      assert.deepEqual(manifest, {
        file: "games-2026-11.ndjson.gz",
        month: "2026-11",
        firstIndex: 2,
        lastIndex: 3,
        count: 2,
        sha256: createHash("sha256").update(gz).digest("hex"),
        treeHead: head,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
