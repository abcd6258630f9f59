/**
 * What the MongoDB adapter guarantees beyond the contract, seen at the driver: the write concern of every
 * write, write-concern errors never taken for success, upserts that lose a race retried, the owner fence
 * holding whichever round trip a take-over falls between, the earlier layouts still read.
 */
import assert from "node:assert/strict";
import mongoose, { mongo } from "mongoose";
import { MongoStore } from "../../src/store/mongo";
import { congoAvailable, useMongo } from "../support/congodb";
import { at, community, game, player, subscription } from "./fixtures";

/** The driver calls a store makes: each is one round trip (find's is its cursor's toArray). */
const CALLS = ["insertMany", "insertOne", "bulkWrite", "updateOne", "updateMany", "replaceOne", "findOneAndUpdate", "findOne", "countDocuments", "deleteOne", "deleteMany"] as const;
type Call = { method: string; collection: string; options: { writeConcern?: unknown } | undefined };
const WRITES = new Set(["insertMany", "insertOne", "bulkWrite", "updateOne", "updateMany", "replaceOne", "findOneAndUpdate", "deleteOne", "deleteMany"]);

/**
 * Wraps the driver's collection methods for one test: `spy` sees every call (before it is sent) and may
 * throw, or return "after" with an error to throw once the call has been answered.
 */
function driverSpy(spy: (call: Call) => Promise<Error | void> | Error | void) {
  const proto = mongo.Collection.prototype as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const originals = new Map<string, (...args: unknown[]) => Promise<unknown>>();
  for (const method of CALLS) {
    const original = proto[method];
    originals.set(method, original);
    proto[method] = async function (this: mongo.Collection, ...args: unknown[]) {
      const options = (method === "insertOne" || method === "insertMany" || method === "bulkWrite" || method.startsWith("delete") || method === "countDocuments" || method === "findOne"
        ? args[1] : args[2]) as Call["options"];
      const after = await spy({ method, collection: this.collectionName, options });
      const result = await original.apply(this, args);
      if (after) throw after;
      return result;
    };
  }
  const cursor = mongo.FindCursor.prototype as unknown as { toArray: (...args: unknown[]) => Promise<unknown> };
  const toArray = cursor.toArray;
  cursor.toArray = async function (this: mongo.FindCursor, ...args: unknown[]) {
    await spy({ method: "find", collection: this.namespace.collection ?? "", options: undefined });
    return toArray.apply(this, args);
  };
  return () => {
    for (const [method, original] of originals) proto[method] = original;
    cursor.toArray = toArray;
  };
}

const writeConcernError = () => new mongo.MongoWriteConcernError({ writeConcernError: { code: 64, errmsg: "waiting for replication timed out" }, ok: 1 });
const duplicateKey = () => Object.assign(new mongo.MongoServerError({ message: "E11000 duplicate key error", code: 11000 }), { code: 11000 });

(process.env.MONGODB_URL || congoAvailable() ? describe : describe.skip)("MongoStore at the driver", function () {
  const server = useMongo();
  let n = 0;
  let stores: MongoStore[] = [];
  let url = "";
  let restore: (() => void) | null = null;
  const open = async () => {
    const s = new MongoStore({ url });
    stores.push(s);
    await s.init();
    return s;
  };
  beforeEach(function () {
    const u = new URL(server.url()!);
    u.pathname = `/store_adapter_${process.pid}_${n++}`;
    url = u.toString();
  });
  afterEach(async function () {
    restore?.();
    restore = null;
    if (stores[0]) await stores[0].dropDatabase();
    for (const s of stores) await s.close();
    stores = [];
  });

  it("asks a majority, journaled, for every write the port makes", async function () {
    const store = await open();
    const seen: Call[] = [];
    restore = driverSpy((c) => void seen.push(c));
    await store.createGame(game("G1", { status: "active" }));
    await store.updateGame("G1", { public: false });
    await store.updateGameIf("G1", { ownerEpoch: undefined }, { owner: "p1", ownerEpoch: 1 });
    await store.commitGames([{ gameId: "G1", actions: [{ gameId: "G1", index: 0, action: { kind: "abort" }, at: at(1) }], patch: { moveCount: 1 }, ownerEpoch: 1 }]);
    await store.createPlayer(player("P1", 1500));
    await store.updatePlayer("P1", { rating: 1510 });
    await store.updatePlayersIf([{ id: "P1", expected: {}, patch: { rating: 1520 } }]);
    await store.upsertSubscription(subscription("S1", "k1"));
    await store.updateSubscription("S1", { url: "https://a.example/" });
    await store.saveDeliveries([{ eventId: "E1", subscriptionId: "S1", subscriptionKey: "k1", body: "{}", leaseUntil: at(0), createdAt: at(0) }]);
    await store.claimDeliveries(at(1), at(2), 5, "p1");
    await store.expireDeliveriesOf("p1", at(1));
    await store.deleteDeliveries(["E1"]);
    await store.deleteSubscriptionByKey("k1");
    await store.registerProcess({ id: "p1", sharedPresence: true, pid: 1, host: "h", startedAt: at(0), heartbeatAt: at(0) });
    await store.touchProcess("p1", at(1));
    await store.removeProcessIf("p1", at(1));
    await store.markUrlVerified("https://a.example/", at(1));
    await store.createCommunity(community("C1", ["P1"]));
    await store.addMember("C1", "P2");
    await store.removeMember("C1", "P1");
    const writes = seen.filter((c) => WRITES.has(c.method));
    assert.ok(writes.length >= 20, `${writes.length} writes seen`);
    for (const w of writes) {
      const wc = w.options?.writeConcern as { w?: unknown; j?: unknown; journal?: unknown } | undefined;
      assert.deepEqual([wc?.w, wc?.j ?? wc?.journal], ["majority", true], `${w.method} on ${w.collection}`);
    }
  });

  it("rejects a game write whose write concern failed instead of answering committed", async function () {
    const store = await open();
    await store.createGame(game("G1", { status: "active", ownerEpoch: 1 }));
    restore = driverSpy((c) => (c.method === "findOneAndUpdate" || c.method === "updateOne" ? writeConcernError() : undefined));
    await assert.rejects(
      store.commitGames([{ gameId: "G1", actions: [{ gameId: "G1", index: 0, action: { kind: "abort" }, at: at(1) }], patch: { moveCount: 1 }, ownerEpoch: 1 }]),
      (e: Error) => e.name === "MongoWriteConcernError",
    );
    await assert.rejects(store.updatePlayer("P1", { rating: 1 }), (e: Error) => e.name === "MongoWriteConcernError");
  });

  it("does not take a duplicate key that comes with a write-concern error for a lost race", async function () {
    const store = await open();
    let first = true;
    restore = driverSpy((c) => {
      if (c.method !== "bulkWrite" || !first) return;
      first = false;
      // What the driver throws when a bulk write has both: a write error and a write-concern error.
      throw new mongo.MongoBulkWriteError({ message: "E11000 duplicate key error", code: 11000, writeErrors: [] }, { getWriteConcernError: () => ({ code: 64 }) } as never);
    });
    await assert.rejects(store.saveDeliveries([{ eventId: "E1", subscriptionId: "S1", subscriptionKey: "k1", body: "{}", leaseUntil: at(0), createdAt: at(0) }]));
  });

  it("retries an upsert that lost the race to create its key, as MongoDB answers the loser with E11000", async function () {
    const store = await open();
    const lose = new Set(["updateOne", "replaceOne", "bulkWrite", "findOneAndUpdate"]);
    restore = driverSpy((c) => {
      if (!lose.delete(c.method)) return;
      throw duplicateKey();
    });
    await store.markUrlVerified("https://a.example/", at(1));
    await store.registerProcess({ id: "p1", sharedPresence: true, pid: 1, host: "h", startedAt: at(0), heartbeatAt: at(0) });
    await store.saveDeliveries([{ eventId: "E1", subscriptionId: "S1", subscriptionKey: "k1", body: "{}", leaseUntil: at(0), createdAt: at(0) }]);
    await store.upsertSubscription(subscription("S1", "k1"));
    assert.equal(lose.size, 0, "every upsert lost its first run");
    assert.equal(await store.urlVerifiedAt("https://a.example/"), at(1));
    assert.equal((await store.listProcesses()).length, 1);
    assert.equal((await store.claimDeliveries(at(1), at(2), 5)).length, 1);
    assert.equal((await store.getSubscriptionByKey("k1"))?.id, "S1");
  });

  it("claims each delivery with one conditional update, reading nothing first", async function () {
    const store = await open();
    await store.saveDeliveries(["E1", "E2", "E3"].map((eventId, i) => ({ eventId, subscriptionId: "S1", subscriptionKey: "k1", body: "{}", leaseUntil: at(0), createdAt: at(i) })));
    const seen: Call[] = [];
    restore = driverSpy((c) => void seen.push(c));
    const claimed = await store.claimDeliveries(at(1), at(2), 10, "p1");
    assert.deepEqual(claimed.map((d) => [d.eventId, d.leaseUntil, d.holder]), [["E1", at(2), "p1"], ["E2", at(2), "p1"], ["E3", at(2), "p1"]]);
    assert.deepEqual(seen.map((c) => c.method), ["findOneAndUpdate", "findOneAndUpdate", "findOneAndUpdate", "findOneAndUpdate"], "three claims and the one that found none");
  });

  it("fences the old owner whichever of its round trips the take-over falls before", async function () {
    const old = await open();
    const next = await open();
    for (let k = 0; k < 4; k++) {
      const id = `G${k}`;
      await old.createGame(game(id, { status: "active", owner: "p1", ownerEpoch: 1 }));
      let calls = 0;
      let seenByNewOwner: number[] | null = null;
      let busy = false;
      restore = driverSpy(async () => {
        if (busy || calls++ !== k) return;
        busy = true; // the take-over's own calls pass through
        assert.equal(await next.updateGameIf(id, { ownerEpoch: 1 }, { owner: "p2", ownerEpoch: 2 }), true);
        seenByNewOwner = (await next.listActions(id)).map((a) => a.index);
        busy = false;
      });
      const [result] = await old.commitGames([{ gameId: id, actions: [{ gameId: id, index: 0, action: { kind: "abort" }, at: at(1) }], patch: { moveCount: 1 }, ownerEpoch: 1 }]);
      restore();
      restore = null;
      if (seenByNewOwner === null) continue; // the write took fewer round trips than k: no take-over inside it
      // Committed after the take-over began means the new owner, which read the log after claiming, must
      // have seen it; otherwise the two owners now disagree about the game.
      if (result === "committed") assert.deepEqual(seenByNewOwner, [0], `take-over before round trip ${k}: a committed write the new owner never saw`);
      else assert.deepEqual(await next.listActions(id), [], `take-over before round trip ${k}: a refused write left its action`);
    }
  });

  it("reads and migrates a game stored with its actions in their own collection", async function () {
    const store = await open();
    const raw = await mongoose.createConnection(url).asPromise();
    try {
      await raw.collection("games").insertOne({ ...game("OLD", { status: "active", moveCount: 2, ownerEpoch: 1 }) });
      await raw.collection("actions").insertMany([1, 0].map((index) => ({ gameId: "OLD", index, action: { kind: "timeout", seat: "A" }, at: at(index) })));
      assert.deepEqual((await store.listActions("OLD")).map((a) => a.index), [0, 1]);
      assert.deepEqual(await store.getGame("OLD"), game("OLD", { status: "active", moveCount: 2, ownerEpoch: 1 }));
      assert.deepEqual(await store.commitGames([{ gameId: "OLD", actions: [{ gameId: "OLD", index: 2, action: { kind: "abort" }, at: at(2) }], patch: { moveCount: 3 }, ownerEpoch: 1 }]), ["committed"]);
      assert.deepEqual((await store.listActions("OLD")).map((a) => a.index), [0, 1, 2]);
      const doc = await raw.collection("games").findOne({ id: "OLD" });
      assert.equal((doc?.log as unknown[]).length, 3, "the log now lives in the game's document");
    } finally {
      await raw.close();
    }
  });

  it("keeps each membership in a document of its own, and reads communities stored with a members array", async function () {
    const store = await open();
    const raw = await mongoose.createConnection(url).asPromise();
    try {
      await store.createCommunity(community("C1", ["P1"]));
      await store.addMember("C1", "P2");
      const doc = await raw.collection("communities").findOne({ id: "C1" });
      assert.equal(doc?.members, undefined, "the community's document holds no member");
      assert.deepEqual((await store.getCommunity("C1"))?.members, ["P1", "P2"]);
      await raw.collection("communities").insertOne({ ...community("OLD", ["P3", "P1"]) });
      await store.addMember("OLD", "P4");
      await store.addMember("OLD", "P3");
      assert.deepEqual((await store.getCommunity("OLD"))?.members, ["P3", "P1", "P4"]);
      await store.removeMember("OLD", "P3");
      assert.deepEqual((await store.communitiesOf("P1")).map((c) => [c.id, c.members]), [["C1", ["P1", "P2"]], ["OLD", ["P1", "P4"]]]);
    } finally {
      await raw.close();
    }
  });
});
