/**
 * A read of the log's entries is one JSON answer written a page at a time (LogService.entriesTo): every entry in
 * order with its leaf hash across the served pages, the next page read only once the reader has taken the last
 * one, and a bad range refused before anything is written.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { Writable } from "node:stream";
import { generateLogKeyPem, logKeyFrom } from "../../src/services/log/heads";
import { SERVED_PAGE } from "../../src/services/log/read-turns";
import { LogService } from "../../src/services/log/service";
import type { RunningServer } from "../../src/server";
import type { LogEntryRecord, LogPort } from "../../src/store/port";
import { fillLog } from "../support/log-fill";
import { bootServer, http } from "../support/server";

const leafHashOf = (leaf: string) => createHash("sha256").update(Buffer.of(0)).update(leaf).digest("hex");

/** A log of `size` entries in memory, counting the page reads asked of it. */
function fakeLog(size: number) {
  const counts = { reads: 0 };
  const row = (index: number): LogEntryRecord => ({
    index,
    gameId: `G${index}`,
    leaf: JSON.stringify({ gameId: `G${index}` }),
    finishedAt: "2026-11-02T10:00:00.000Z",
  });
  const store = {
    logState: async () => ({ size, head: null, epoch: 1, holder: null, leaseUntil: null }),
    logEntries: async (from: number, to: number) => {
      counts.reads++;
      return Array.from({ length: Math.max(0, Math.min(to, size) - from) }, (_, k) => row(from + k));
    },
  };
  return { service: new LogService(store as unknown as LogPort, logKeyFrom(generateLogKeyPem())), counts };
}

/** A writer that takes each write only when told to (`release`), as a reader that has stopped reading. */
function heldWriter() {
  const chunks: Buffer[] = [];
  const held: Array<() => void> = [];
  const out = new Writable({
    highWaterMark: 1,
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk);
      held.push(() => done());
    },
  });
  return { out, text: () => Buffer.concat(chunks).toString("utf8"), release: () => held.splice(0).forEach((f) => f()) };
}

const turnsPass = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

describe("Entries answers written a page at a time", function () {
  this.timeout(30_000);

  it("reads the next page only once the reader has taken the last, and writes one JSON answer", async function () {
    const { service, counts } = fakeLog(3 * SERVED_PAGE);
    const w = heldWriter();
    const done = service.entriesTo(0, 1000, w.out);
    await turnsPass(20);
    assert.equal(counts.reads, 1, "a reader that takes nothing has one page read for it");
    while (counts.reads < 3 || w.text().slice(-2) !== "]}") {
      w.release();
      await turnsPass(2);
    }
    await done;
    const answer = JSON.parse(w.text());
    assert.equal(answer.treeSize, 3 * SERVED_PAGE);
    assert.deepEqual(
      answer.entries.map((e: { index: number }) => e.index),
      Array.from({ length: 3 * SERVED_PAGE }, (_, i) => i),
    );
  });

  it("refuses a range past the log before writing anything", async function () {
    const { service, counts } = fakeLog(10);
    const w = heldWriter();
    await assert.rejects(service.entriesTo(10, 5, w.out), /past the log/);
    assert.equal(w.text(), "");
    assert.equal(counts.reads, 0);
  });

  describe("over HTTP", function () {
    let server: RunningServer;
    before(async function () {
      server = await bootServer();
      await fillLog(server.store.log, 3 * SERVED_PAGE + 50, 200);
    });
    after(async function () {
      await server?.close();
    });

    it("serves a read across several pages as one answer: every entry in order, each with its leaf hash", async function () {
      const from = SERVED_PAGE / 2;
      const res = await http(server.url, "GET", `/api/v1/log/entries?from=${from}&count=1000`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get("content-type") ?? "", /application\/json/);
      const size = 3 * SERVED_PAGE + 50;
      assert.equal(res.json.treeSize, size);
      const entries = res.json.entries as { index: number; leafHash: string; entry: { gameId: string } }[];
      assert.deepEqual(
        entries.map((e) => e.index),
        Array.from({ length: size - from }, (_, i) => from + i),
      );
      for (const e of entries) assert.equal(e.leafHash, leafHashOf(JSON.stringify(e.entry)), `entry ${e.index}`);
    });
  });
});
