/**
 * The sequencer on a real store: finished games appended once each, in batches with signed heads whose
 * proofs verify; a restart and a take-over continue the same tree; a fenced-out process appends nothing.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLogger } from "../../src/shared/logger";
import { canonicalJson } from "../../src/services/log/canonical";
import { ENTRY_FORMAT, gameEntryOf, type GameEntry } from "../../src/services/log/entry";
import { DEFAULT_RATING } from "../../src/services/players/rating";
import { verifyHead } from "../../src/services/log/heads";
import { loadLogKey, openLogKeys } from "../../src/services/log/keys";
import { leafHash, verifyConsistency, verifyInclusion } from "../../src/services/log/merkle";
import { LogSequencer } from "../../src/services/log/sequencer";
import { LogService } from "../../src/services/log/service";
import { SqliteStore } from "../../src/store/sqlite";
import type { RatingPointOf, Store } from "../../src/store";
import { player } from "../store/fixtures";
import { playedGame } from "./fixtures";

const log = createLogger("silent");
const hex = (s: string) => Buffer.from(s, "hex");

/** A finished game stored and marked pending, as its finish write marks it (commitGames). */
async function storeGame(store: Store, n: number, over = {}) {
  const { record, actions } = playedGame(n, over);
  await store.games.createGame(record);
  await store.games.commitGames([{ gameId: record.id, actions, patch: {} }]);
  await store.log.addLogPending([record.id]);
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
    // The key file a server keeps beside its database: a restart or a second process signs with the same key.
    const key = (await openLogKeys(store.log, { keyFile: join(dir, "log-signing.key"), origin: "localhost/log" })).current;
    return { seq: new LogSequencer(store, key, () => holder, { batchMs: 1000, leaseMs, clock: () => now }, log), service: new LogService(store.log, key), key };
  };

  it("appends each pending public game once, with a signed head whose inclusion proofs verify, and never a private one", async function () {
    const store = await open();
    const { seq, service, key } = await sequencer(store, "p1");
    const games = [];
    for (let n = 0; n < 5; n++) games.push(await storeGame(store, n, n === 2 ? { public: false } : {}));
    await store.log.addLogPending([games[0].record.id]);
    assert.equal(await seq.drain(), 4, "the private game is not appended");
    assert.equal(await store.log.logIndexOfGame(games[2].record.id), null);
    assert.deepEqual(await store.log.logPending(10), [], "its mark is dropped");
    await store.log.addLogPending([games[1].record.id]);
    assert.equal(await seq.drain(), 0, "a game already logged is not appended again");

    const head = await service.head();
    assert.equal(head.size, 4);
    assert.ok(verifyHead(key.publicPem, head));
    assert.ok(!verifyHead(key.publicPem, { ...head, size: 3 }), "the signature covers the size");
    for (const g of games.filter((x) => x.record.public)) {
      const p = await service.inclusion(g.record.id);
      const e = await service.entryOf(g.record.id);
      assert.equal(p.rootHash, head.rootHash);
      assert.ok(verifyInclusion(hex(p.leafHash), p.index, p.treeSize, p.path.map(hex), hex(head.rootHash)), g.record.id);
      assert.deepEqual(leafHash(Buffer.from(e.leaf)), hex(p.leafHash));
      assert.equal(e.leaf, canonicalJson(gameEntryOf(g.record, g.actions)));
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
    const { entries } = await b.service.entries(0, 10);
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

  it("never appends a sealed league game, even one marked pending; unsealed, it is found and appended after the games finished meanwhile", async function () {
    const store = await open();
    const { seq, service } = await sequencer(store, "p1");
    // Marked as a version that marked every finish did: the mark is dropped, nothing appended.
    const sealed = await storeGame(store, 0, { leagueId: "L1", sealed: true });
    assert.equal(await seq.catchUp(), 0, "the catch-up does not look for a sealed game");
    assert.equal(await seq.drain(), 0);
    assert.deepEqual(await store.log.logPending(10), []);
    assert.equal(await service.indexOf(sealed.record.id), null);
    await storeGame(store, 1);
    assert.equal(await seq.drain(), 1);
    assert.equal(await store.games.updateGameIf(sealed.record.id, { status: "finished" }, { sealed: undefined }), true);
    assert.equal(await seq.catchUp(), 1, "unsealed (its mark lost), it is found at start");
    assert.equal(await seq.drain(), 1);
    assert.equal(await service.indexOf(sealed.record.id), 1, "appended after the game that finished later");
  });

  it("gives a rated game's seats their ratings before and after it, from the players' rating histories", async function () {
    const store = await open();
    const { seq, service } = await sequencer(store, "p1");
    const rated = await storeGame(store, 0);
    const unrated = await storeGame(store, 1);
    const point = (gameId: string, n: number, rating: number, rd: number): RatingPointOf => ({ gameId, at: rated.record.finishedAt!, n, rating, rd });
    // Ada: rated for an earlier game (point 1), then an unrated one (no point 2), then this one (point 3).
    await store.players.createPlayer(player("PA", 1500, { version: 0 }));
    await store.players.updatePlayersIf([{ id: "PA", expected: { version: 0 }, patch: { lastRated: point("G-EARLIER", 1, 1612.25, 240.5), version: 1 } }]);
    await store.players.updatePlayersIf([
      { id: "PA", expected: { version: 1 }, patch: { lastRated: point(rated.record.id, 3, 1630.125, 230.75), version: 2 } },
    ]);
    // Bo: this is the first rated game, so it started from the initial rating.
    await store.players.createPlayer(player("PB", 1500, { version: 0 }));
    await store.players.updatePlayersIf([{ id: "PB", expected: { version: 0 }, patch: { lastRated: point(rated.record.id, 1, 1420.5, 290.25), version: 1 } }]);
    await store.log.addLogPending([rated.record.id, unrated.record.id]);
    assert.equal(await seq.drain(), 2);

    const entry = JSON.parse((await service.entryOf(rated.record.id)).leaf) as GameEntry;
    // Points kept before rating steps were: the entry is format 2 (format 3 needs every rated seat's step).
    assert.equal(entry.format, 2);
    assert.equal(ENTRY_FORMAT, 3);
    assert.deepEqual(entry.seats.A, {
      playerId: "PA",
      kind: "human",
      champion: "knight",
      ratingBefore: { rating: 1612.25, rd: 240.5 },
      ratingAfter: { rating: 1630.125, rd: 230.75 },
    });
    assert.deepEqual(entry.seats.B, {
      playerId: "PB",
      kind: "bot",
      champion: "bastion",
      ratingBefore: { rating: DEFAULT_RATING.rating, rd: DEFAULT_RATING.rd },
      ratingAfter: { rating: 1420.5, rd: 290.25 },
    });
    const plain = JSON.parse((await service.entryOf(unrated.record.id)).leaf) as GameEntry;
    assert.equal(plain.format, ENTRY_FORMAT);
    assert.deepEqual(plain.seats.A, { playerId: "PA", kind: "human", champion: "knight" }, "an unrated game carries no ratings");
  });

  it("reads the pending games once per batch", async function () {
    const store = await open();
    let reads = 0;
    const countedLog = new Proxy(store.log, {
      get(target, key) {
        if (key === "logPending")
          return (limit: number) => {
            reads++;
            return target.logPending(limit);
          };
        const v = Reflect.get(target, key) as unknown;
        return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    const counted = { log: countedLog, games: store.games, ratings: store.ratings };
    const key = await loadLogKey(store.log, undefined);
    const seq = new LogSequencer(counted, key, () => "p1", { batchMs: 1000, leaseMs: 60_000, clock: () => now }, log);
    for (let n = 0; n < 3; n++) await storeGame(store, n);
    assert.equal(await seq.batch(), 3);
    assert.equal(reads, 1);
    assert.equal(await seq.batch(), 0);
    assert.equal(reads, 2, "an empty batch reads the list once and takes no lease");
  });
});
