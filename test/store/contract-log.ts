/** Contract: the public game log's port (entries, subtree hashes, heads, pending games, the sequencer lease). */
import assert from "node:assert/strict";
import type { LogAppend, Store } from "../../src/store";
import type { PortRef, TwinRef } from "./contract";
import { at, game } from "./fixtures";

const head = (size: number, rootHash = "ab".repeat(32)) => ({ size, rootHash, timestamp: at(size), signature: "sig" });
const entry = (index: number, gameId = `G${index}`) => ({ index, gameId, finishedAt: at(index), leaf: `{"n":${index}}` });
function batch(epoch: number, fromSize: number, count: number, over: Partial<LogAppend> = {}): LogAppend {
  const entries = Array.from({ length: count }, (_, i) => entry(fromSize + i));
  return {
    epoch,
    fromSize,
    entries,
    nodes: entries.map((e) => ({ level: 0, index: e.index, hash: String(e.index).padStart(64, "0") })),
    head: head(fromSize + count),
    ...over,
  };
}

export function logContract(store: PortRef<Pick<Store, "log" | "games">>, twin?: TwinRef): void {
  describe("public game log", function () {
    it("starts empty, with no holder, and gives the lease to one holder at a time, bumping the epoch on a change", async function () {
      assert.deepEqual(await store().log.logState(), { size: 0, epoch: 0, holder: null, leaseUntil: null, head: null });
      const a = await store().log.claimLogLease("p1", at(0), at(1));
      assert.equal(a?.holder, "p1");
      assert.equal(await store().log.claimLogLease("p2", at(0), at(2)), null, "p1's lease runs until minute 1");
      const renewed = await store().log.claimLogLease("p1", at(0), at(3));
      assert.equal(renewed?.epoch, a?.epoch, "a renewal keeps the epoch");
      const b = await store().log.claimLogLease("p2", at(3), at(4));
      assert.equal(b?.holder, "p2");
      assert.equal(b?.epoch, a.epoch + 1);
    });

    it("appends a batch only under the stored epoch and size, and shows nothing of a refused one", async function () {
      const { epoch } = (await store().log.claimLogLease("p1", at(0), at(1)))!;
      assert.equal(await store().log.appendLog(batch(epoch, 0, 3)), true);
      assert.equal(await store().log.appendLog(batch(epoch + 1, 3, 2)), false, "a stale epoch");
      assert.equal(await store().log.appendLog(batch(epoch, 2, 2)), false, "a stale size");
      const s = await store().log.logState();
      assert.equal(s.size, 3);
      assert.deepEqual(s.head, head(3));
      assert.deepEqual(
        (await store().log.logEntries(0, 10)).map((e) => e.index),
        [0, 1, 2],
      );
      assert.deepEqual(await store().log.logEntryOfGame("G1"), entry(1));
      assert.equal(await store().log.logEntryOfGame("G3"), null);
      assert.equal(await store().log.logIndexOfGame("G1"), 1);
      assert.equal(await store().log.logIndexOfGame("G3"), null, "not in the log");
      assert.equal(await store().log.appendLog(batch(epoch, 3, 2)), true);
      assert.deepEqual(
        (await store().log.logEntries(1, 4)).map((e) => e.gameId),
        ["G1", "G2", "G3"],
      );
    });

    it("refuses a batch holding a game already in the log, storing none of it", async function () {
      const { epoch } = (await store().log.claimLogLease("p1", at(0), at(1)))!;
      await store().log.appendLog(batch(epoch, 0, 2));
      const again = batch(epoch, 2, 2);
      again.entries[1] = { ...again.entries[1], gameId: "G0" };
      assert.equal(await store().log.appendLog(again), false);
      assert.equal((await store().log.logState()).size, 2);
      assert.equal(await store().log.appendLog(batch(epoch, 2, 2)), true, "the next batch goes in where the refused one would have");
      assert.equal((await store().log.logEntryOfGame("G3"))?.index, 3);
    });

    it("gives the stored nodes inside the tree only, with the private salt of an entry kept", async function () {
      const { epoch } = (await store().log.claimLogLease("p1", at(0), at(1)))!;
      const b = batch(epoch, 0, 2);
      b.entries[1] = { ...b.entries[1], privateSalt: "s" };
      b.nodes.push({ level: 1, index: 0, hash: "cd".repeat(32) });
      await store().log.appendLog(b);
      const nodes = await store().log.logNodes([
        { level: 0, index: 1 },
        { level: 1, index: 0 },
        { level: 0, index: 2 },
        { level: 2, index: 0 },
      ]);
      assert.deepEqual(
        nodes.sort((x, y) => x.level - y.level),
        [
          { level: 0, index: 1, hash: "1".padStart(64, "0") },
          { level: 1, index: 0, hash: "cd".repeat(32) },
        ],
      );
      assert.equal((await store().log.logEntryOfGame("G1"))?.privateSalt, "s");
    });

    it("reads a finish-time range a page at a time, by finish time then index, inside the stored tree only", async function () {
      const { epoch } = (await store().log.claimLogLease("p1", at(0), at(1)))!;
      // Appended out of finishing order (a game may reach the log a batch after one that finished later).
      const minutes = [5, 3, 3, 9, 4, 12];
      const b = batch(epoch, 0, minutes.length);
      b.entries = b.entries.map((e, i) => ({ ...e, finishedAt: at(minutes[i]) }));
      await store().log.appendLog(b);
      const b2 = batch(epoch, 6, 1);
      b2.entries = [{ ...b2.entries[0], finishedAt: at(4) }];
      // Refused (a stale size): nothing of it is read.
      await store().log.appendLog({ ...b2, fromSize: 5 });
      const page1 = await store().log.logEntriesFinished(at(3), at(10), null, 3);
      assert.deepEqual(
        page1.map((e) => [e.index, e.finishedAt]),
        [
          [1, at(3)],
          [2, at(3)],
          [4, at(4)],
        ],
      );
      const last = page1[2];
      const page2 = await store().log.logEntriesFinished(at(3), at(10), { finishedAt: last.finishedAt, index: last.index }, 3);
      assert.deepEqual(
        page2.map((e) => e.index),
        [0, 3],
      );
      assert.deepEqual(await store().log.logEntriesFinished(at(3), at(10), { finishedAt: at(9), index: 3 }, 3), []);
      assert.deepEqual(await store().log.logEntriesFinished(at(20), at(30), null, 3), []);
      await store().log.appendLog(b2);
      assert.deepEqual(
        (await store().log.logEntriesFinished(at(4), at(5), null, 10)).map((e) => e.index),
        [4, 6],
      );
    });

    it("keeps pending games once each, oldest first, until an append or a drop takes them off", async function () {
      await store().log.addLogPending(["G0", "G1"]);
      await store().log.addLogPending(["G1", "G2", "G3"]);
      assert.deepEqual(await store().log.logPending(10), ["G0", "G1", "G2", "G3"]);
      assert.deepEqual(await store().log.logPending(2), ["G0", "G1"]);
      const { epoch } = (await store().log.claimLogLease("p1", at(0), at(1)))!;
      await store().log.appendLog(batch(epoch, 0, 2));
      await store().log.dropLogPending(["G3"]);
      assert.deepEqual(await store().log.logPending(10), ["G2"]);
    });

    it("marks a game pending with the write that finishes it, and not with any other or a refused one", async function () {
      const place = (gameId: string, index: number) => ({ gameId, index, action: { kind: "place" as const, card: "E7", square: "b3" }, at: at(index + 1) });
      for (const id of ["F1", "F2", "F3"]) await store().games.createGame(game(id, { status: "active", owner: "p1", ownerEpoch: 1 }));
      assert.deepEqual(
        await store().games.commitGames([
          { gameId: "F1", actions: [place("F1", 0)], patch: { moveCount: 1 }, ownerEpoch: 1 },
          { gameId: "F2", actions: [place("F2", 0)], patch: { moveCount: 1 }, ownerEpoch: 1 },
        ]),
        ["committed", "committed"],
      );
      assert.deepEqual(await store().log.logPending(10), [], "a write that does not finish the game marks nothing");
      const finish = (gameId: string, ownerEpoch: number) => ({
        gameId,
        actions: [place(gameId, 1)],
        patch: { moveCount: 2, status: "finished" as const, winner: "A" as const, decidedBy: "board_full" as const },
        ownerEpoch,
      });
      assert.deepEqual(
        await store().games.commitGames([
          finish("F1", 1),
          finish("F2", 2),
          { gameId: "F3", actions: [], patch: { status: "finished", decidedBy: "aborted" }, ownerEpoch: 1 },
        ]),
        ["committed", "conflict", "committed"],
      );
      assert.deepEqual((await store().log.logPending(10)).sort(), ["F1", "F3"], "the finish writes that held, and not the one its fence refused");
      assert.equal((await store().games.getGame("F2"))!.status, "active");
    });

    it("leaves a sealed game's finish unmarked, and finds it with no entry only once unsealed", async function () {
      const place = (gameId: string, index: number) => ({ gameId, index, action: { kind: "place" as const, card: "E7", square: "b3" }, at: at(index + 1) });
      await store().games.createGame(game("S1", { status: "active", owner: "p1", ownerEpoch: 1, leagueId: "L1", sealed: true, createdAt: at(0) }));
      await store().games.createGame(game("S2", { status: "active", owner: "p1", ownerEpoch: 1, createdAt: at(1) }));
      const finish = (gameId: string) => ({
        gameId,
        actions: [place(gameId, 0)],
        patch: { moveCount: 1, status: "finished" as const, winner: "A" as const, decidedBy: "resignation" as const },
        ownerEpoch: 1,
      });
      assert.deepEqual(await store().games.commitGames([finish("S1"), finish("S2")]), ["committed", "committed"]);
      assert.deepEqual(await store().log.logPending(10), ["S2"], "the sealed game's finish marks nothing");
      assert.deepEqual((await store().log.unloggedGames(null, 10)).gameIds, ["S2"], "nor does the catch-up find it");
      assert.equal(await store().games.updateGameIf("S1", { status: "finished" }, { sealed: undefined }), true);
      assert.deepEqual((await store().log.unloggedGames(null, 10)).gameIds, ["S1", "S2"], "unsealed, it is looked for");
    });

    it("finds the finished games that have no entry, a page at a time", async function () {
      for (let i = 0; i < 5; i++) await store().games.createGame(game(`G${i}`, { createdAt: at(i), status: i === 4 ? "active" : "finished" }));
      const { epoch } = (await store().log.claimLogLease("p1", at(0), at(1)))!;
      await store().log.appendLog({ ...batch(epoch, 0, 1), entries: [entry(0, "G1")] });
      const first = await store().log.unloggedGames(null, 2);
      assert.deepEqual(first.gameIds, ["G0"]);
      assert.ok(first.next);
      const second = await store().log.unloggedGames(first.next, 2);
      assert.deepEqual(second.gameIds, ["G2", "G3"]);
      const third = await store().log.unloggedGames(second.next, 2);
      assert.deepEqual(third, { gameIds: [], next: null });
    });

    it("keeps public keys in the order they began signing, each once", async function () {
      const key = (id: string, fromSize: number) => ({ keyId: id.repeat(64), publicKey: `PEM ${id}`, fromSize, addedAt: at(fromSize) });
      await store().log.addLogKey(key("b", 5));
      await store().log.addLogKey(key("a", 0));
      await store().log.addLogKey({ ...key("a", 9), publicKey: "other" });
      assert.deepEqual(await store().log.logKeys(), [key("a", 0), key("b", 5)]);
      assert.equal(await store().log.legacyLogKey(), null, "a new store holds no private key");
    });

    it("lets one of two processes take an expired lease, and only its appends count", async function () {
      if (!twin) return this.skip();
      const other = await twin();
      const a = (await store().log.claimLogLease("p1", at(0), at(1)))!;
      const b = (await other.log.claimLogLease("p2", at(2), at(3)))!;
      assert.equal(b.epoch, a.epoch + 1);
      assert.equal(await store().log.appendLog(batch(a.epoch, 0, 2)), false, "p1 was fenced out");
      assert.equal(await other.log.appendLog(batch(b.epoch, 0, 1)), true);
      assert.deepEqual(
        (await store().log.logEntries(0, 5)).map((e) => e.index),
        [0],
      );
    });
  });
}
