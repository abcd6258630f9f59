/**
 * The sequencer on a real store: finished games appended once each, in batches with signed heads whose
 * proofs verify; a restart and a take-over continue the same tree; a fenced-out process appends nothing.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLogger } from "../../src/logger";
import { canonicalJson } from "../../src/log/canonical";
import { gameEntryOf } from "../../src/log/entry";
import { loadLogKey, verifyHead } from "../../src/log/heads";
import { leafHash, verifyConsistency, verifyInclusion } from "../../src/log/merkle";
import { LogSequencer } from "../../src/log/sequencer";
import { LogService } from "../../src/log/service";
import { SqliteStore } from "../../src/store/sqlite";
import type { Store } from "../../src/store";
import { playedGame } from "./fixtures";

const log = createLogger("silent");
const hex = (s: string) => Buffer.from(s, "hex");

/** A finished game stored and marked pending, as its finish write marks it (commitGames). */
async function storeGame(store: Store, n: number, over = {}) {
  const { record, actions } = playedGame(n, over);
  await store.createGame(record);
  await store.commitGames([{ gameId: record.id, actions, patch: {} }]);
  await store.addLogPending([record.id]);
  return { record, actions };
}

describe("Public log sequencer", function () {
  let dir: string;
  const stores: Store[] = [];
  beforeEach(function () {
    dir = mkdtempSync(join(tmpdir(), "log-seq-"));
  });
  afterEach(async function () {
    for (const s of stores.splice(0)) await s.close();
    rmSync(dir, { recursive: true, force: true });
  });
  async function open(): Promise<Store> {
    const s = new SqliteStore({ path: join(dir, "arena.db"), checkpointMs: 0 });
    await s.init();
    stores.push(s);
    return s;
  }
  /** The lease's clock, moved by the tests instead of waited for. */
  let now = Date.parse("2026-11-02T10:00:00.000Z");
  const sequencer = async (store: Store, holder: string, leaseMs = 60_000) => {
    const key = await loadLogKey(store, undefined);
    return { seq: new LogSequencer(store, key, () => holder, { batchMs: 1000, leaseMs, clock: () => now }, log), service: new LogService(store, key), key };
  };

  it("appends each pending game once, with a signed head whose inclusion proofs verify", async function () {
    const store = await open();
    const { seq, service, key } = await sequencer(store, "p1");
    const games = [];
    for (let n = 0; n < 5; n++) games.push(await storeGame(store, n, n === 2 ? { public: false } : {}));
    await store.addLogPending([games[0].record.id]);
    assert.equal(await seq.drain(), 5);
    await store.addLogPending([games[1].record.id]);
    assert.equal(await seq.drain(), 0, "a game already logged is not appended again");

    const head = await service.head();
    assert.equal(head.size, 5);
    assert.ok(verifyHead(key.publicPem, head));
    assert.ok(!verifyHead(key.publicPem, { ...head, size: 4 }), "the signature covers the size");
    for (const g of games) {
      const p = await service.inclusion(g.record.id);
      const e = await service.entryOf(g.record.id);
      assert.equal(p.rootHash, head.rootHash);
      assert.ok(verifyInclusion(hex(p.leafHash), p.index, p.treeSize, p.path.map(hex), hex(head.rootHash)), g.record.id);
      assert.deepEqual(leafHash(Buffer.from(e.leaf)), hex(p.leafHash));
      if (g.record.public) assert.equal(e.leaf, canonicalJson(gameEntryOf(g.record, g.actions)));
      else {
        assert.equal((JSON.parse(e.leaf) as { kind: string }).kind, "private");
        assert.ok(!e.leaf.includes(g.record.id) && e.privateSalt);
      }
    }
  });

  it("continues the same tree after a restart, consistent with the head before it", async function () {
    const first = await open();
    const a = await sequencer(first, "p1", 1);
    for (let n = 0; n < 3; n++) await storeGame(first, n);
    await a.seq.drain();
    const before = await a.service.head();
    await first.close();
    stores.splice(0);

    const second = await open();
    const b = await sequencer(second, "p2");
    assert.equal(b.key.keyId, a.key.keyId, "the key kept in the store signs on");
    for (let n = 3; n < 7; n++) await storeGame(second, n);
    now += 5; // p1's one-millisecond lease has run out
    assert.equal(await b.seq.drain(), 4);
    const after = await b.service.head();
    assert.equal(after.size, 7);
    const c = await b.service.consistency(before.size, after.size);
    assert.ok(verifyConsistency(before.size, after.size, hex(before.rootHash), hex(after.rootHash), c.proof.map(hex)));
  });

  it("lets one process append at a time; a take-over continues from the stored tree and fences the old holder out", async function () {
    const s1 = await open();
    const s2 = await open();
    const a = await sequencer(s1, "p1", 30);
    const b = await sequencer(s2, "p2", 60_000);
    for (let n = 0; n < 2; n++) await storeGame(s1, n);
    assert.equal(await a.seq.drain(), 2);
    await storeGame(s2, 2);
    assert.equal(await b.seq.batch(), 0, "p1 holds the lease");
    now += 40;
    assert.equal(await b.seq.drain(), 1, "p2 took over once p1's lease ran out");
    await storeGame(s1, 3);
    assert.equal(await a.seq.batch(), 0, "p1 is fenced out while p2 holds the lease");
    assert.equal(await b.seq.drain(), 1);
    const head = await b.service.head();
    assert.equal(head.size, 4);
    const entries = await b.service.entries(0, 10);
    assert.deepEqual(
      entries.map((e) => e.index),
      [0, 1, 2, 3],
    );
    assert.equal(new Set(entries.map((e) => (e.entry as { gameId: string }).gameId)).size, 4);
  });

  it("finds at start the finished games that never reached the log", async function () {
    const store = await open();
    const { seq, service } = await sequencer(store, "p1");
    await storeGame(store, 0);
    await storeGame(store, 1);
    assert.equal(await seq.catchUp(), 2);
    assert.equal(await seq.drain(), 2);
    assert.equal(await seq.catchUp(), 0);
    assert.equal((await service.head()).size, 2);
  });
});
