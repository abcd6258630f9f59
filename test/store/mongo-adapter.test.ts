/**
 * What the MongoDB adapter guarantees beyond the contract, seen at the driver: the write concern of every
 * write, write-concern errors never taken for success, upserts that lose a race retried, the owner fence
 * holding whichever round trip a take-over falls between, the earlier layouts still read.
 */
import assert from "node:assert/strict";
import mongoose, { mongo } from "mongoose";
import { MongoStore } from "../../src/store/mongo";
import { congoAvailable, useMongo } from "../support/congodb";
import type { LeagueRecord, TournamentRecord } from "../../src/store";
import { at, challenge, community, game, player, subscription } from "./fixtures";

/** The driver calls a store makes: each is one round trip (find's is its cursor's toArray). */
const CALLS = [
  "insertMany",
  "insertOne",
  "bulkWrite",
  "updateOne",
  "updateMany",
  "replaceOne",
  "findOneAndUpdate",
  "findOne",
  "countDocuments",
  "deleteOne",
  "deleteMany",
] as const;
type Call = { method: string; collection: string; options: { writeConcern?: unknown } | undefined; args: unknown[] };
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
      const options = (
        method === "insertOne" ||
        method === "insertMany" ||
        method === "bulkWrite" ||
        method.startsWith("delete") ||
        method === "countDocuments" ||
        method === "findOne"
          ? args[1]
          : args[2]
      ) as Call["options"];
      const after = await spy({ method, collection: this.collectionName, options, args });
      const result = await original.apply(this, args);
      if (after) throw after;
      return result;
    };
  }
  const cursor = mongo.FindCursor.prototype as unknown as { toArray: (...args: unknown[]) => Promise<unknown> };
  const toArray = cursor.toArray;
  cursor.toArray = async function (this: mongo.FindCursor, ...args: unknown[]) {
    await spy({ method: "find", collection: this.namespace.collection ?? "", options: undefined, args });
    return toArray.apply(this, args);
  };
  return () => {
    for (const [method, original] of originals) proto[method] = original;
    cursor.toArray = toArray;
  };
}

const writeConcernError = () => new mongo.MongoWriteConcernError({ writeConcernError: { code: 64, errmsg: "waiting for replication timed out" }, ok: 1 });
const duplicateKey = () => Object.assign(new mongo.MongoServerError({ message: "E11000 duplicate key error", code: 11000 }), { code: 11000 });

/**
 * Every write method of the port, each called once, in an order in which each finds the records it needs
 * (whether or not it matches anything: a write that matches nothing still asks for the write concern).
 */
const PORT_WRITES: [string, (s: MongoStore) => Promise<unknown>][] = [
  ["createGame", (s) => s.games.createGame(game("G1", { status: "active" }), [player("P0", 1500)])],
  ["createGames", (s) => s.games.createGames([game("G2", { status: "active" }), game("G3")])],
  ["updateGameIf", (s) => s.games.updateGameIf("G1", { ownerEpoch: undefined }, { owner: "p1", ownerEpoch: 1 })],
  [
    "commitGames",
    (s) =>
      s.games.commitGames([
        {
          gameId: "G1",
          actions: [{ gameId: "G1", index: 0, action: { kind: "abort" }, at: at(1) }],
          patch: { moveCount: 1, status: "finished" },
          ownerEpoch: 1,
        },
      ]),
  ],
  ["updateRematchIf", (s) => s.games.updateRematchIf("G1", undefined, { version: 1, offeredBy: "A", at: at(2) })],
  ["createPlayer", (s) => s.players.createPlayer(player("P1", 1500))],
  ["updatePlayer", (s) => s.players.updatePlayer("P1", { rating: 1510 })],
  ["updatePlayerIf", (s) => s.players.updatePlayerIf("P1", {}, { rating: 1515 })],
  ["updatePlayersIf", (s) => s.players.updatePlayersIf([{ id: "P1", expected: {}, patch: { rating: 1520 } }])],
  ["upsertSubscription", (s) => s.subscriptions.upsertSubscription(subscription("S1", "k1"))],
  ["updateSubscription", (s) => s.subscriptions.updateSubscription("S1", { url: "https://a.example/" })],
  ["deleteSubscription", (s) => s.subscriptions.deleteSubscription("S0")],
  ["deleteSubscriptionByKey", (s) => s.subscriptions.deleteSubscriptionByKey("k1")],
  ["deleteExpiredSubscriptions", (s) => s.subscriptions.deleteExpiredSubscriptions(at(0))],
  [
    "saveDeliveries",
    (s) => s.subscriptions.saveDeliveries([{ eventId: "E1", subscriptionId: "S1", subscriptionKey: "k1", body: "{}", leaseUntil: at(0), createdAt: at(0) }]),
  ],
  ["claimDeliveries", (s) => s.subscriptions.claimDeliveries(at(1), at(2), 5, "p1")],
  ["expireDeliveriesOf", (s) => s.subscriptions.expireDeliveriesOf("p1", at(1))],
  ["deleteDeliveries", (s) => s.subscriptions.deleteDeliveries(["E1"])],
  ["registerProcess", (s) => s.processes.registerProcess({ id: "p1", sharedPresence: true, pid: 1, host: "h", startedAt: at(0), heartbeatAt: at(0) })],
  ["touchProcess", (s) => s.processes.touchProcess("p1", at(1))],
  ["removeProcessIf", (s) => s.processes.removeProcessIf("p1", at(1))],
  ["markUrlVerified", (s) => s.subscriptions.markUrlVerified("https://a.example/", at(1))],
  ["createChallenge", (s) => s.challenges.createChallenge(challenge("T1", "agent"))],
  ["updateChallenge", (s) => s.challenges.updateChallenge("T1", { status: "playing" })],
  ["updateChallengeIf", (s) => s.challenges.updateChallengeIf("T1", { status: "playing" }, { status: "played" })],
  ["createCommunity", (s) => s.communities.createCommunity(community("C1", ["P1"]))],
  ["addMember", (s) => s.communities.addMember("C1", "P2")],
  ["removeMember", (s) => s.communities.removeMember("C1", "P1")],
  ["createBot", (s) => s.bots.createBot({ id: "BOT-1", name: "b", keyHash: "h1", createdAt: at(0) })],
  ["updateBot", (s) => s.bots.updateBot("BOT-1", { revokedAt: at(1) })],
  ["createTournament", (s) => s.tournaments.createTournament({ id: "TN1", version: 1, createdAt: at(0) } as unknown as TournamentRecord)],
  ["replaceTournamentIf", (s) => s.tournaments.replaceTournamentIf({ id: "TN1", version: 2, createdAt: at(0) } as unknown as TournamentRecord)],
  ["createLeague", (s) => s.leagues.createLeague({ id: "LG1", version: 1, createdAt: at(0) } as unknown as LeagueRecord)],
  ["replaceLeagueIf", (s) => s.leagues.replaceLeagueIf({ id: "LG1", version: 2, createdAt: at(0) } as unknown as LeagueRecord)],
  ["putLeagueSchedule", (s) => s.leagues.putLeagueSchedule("LG1", [])],
  ["addLeagueResult", (s) => s.leagues.addLeagueResult({ leagueId: "LG1", gameId: "G1", deal: 0, outcome: "first", at: at(1) })],
  ["addLogPending", (s) => s.log.addLogPending(["G1"])],
  ["dropLogPending", (s) => s.log.dropLogPending(["G1"])],
  ["claimLogLease", (s) => s.log.claimLogLease("p1", at(1), at(2))],
  // At the stored epoch, so the batch is written (whether or not the lease above was taken).
  [
    "appendLog",
    async (s) =>
      s.log.appendLog({
        epoch: (await s.log.logState()).epoch,
        fromSize: 0,
        entries: [{ index: 0, gameId: "G1", leaf: "{}", finishedAt: at(1) }],
        nodes: [{ level: 0, index: 0, hash: "00".repeat(32) }],
        head: { size: 1, rootHash: "00".repeat(32), timestamp: at(1), signature: "" },
      }),
  ],
  ["addLogKey", (s) => s.log.addLogKey({ keyId: "00".repeat(32), publicKey: "-----BEGIN PUBLIC KEY-----", fromSize: 0, addedAt: at(1) })],
  ["dropLegacyLogKey", (s) => s.log.dropLegacyLogKey()],
];

/**
 * The methods of the store's port members that write, by name (those that only read, set up indexes, or are a
 * collection's own steps of a port method, left out).
 */
function writeMethods(store: MongoStore): string[] {
  const reads =
    /^(get|list|find|rank|init|urlVerifiedAt|communitiesOf|insertGuest|addFrom|commitEach|commitOne|migrate|constructor|ratingHistory|ratingChanges|unloggedGames|log(State|Nodes|Entries|EntriesFinished|EntryOfGame|IndexOfGame|Pending|Keys)$|legacyLogKey$)/;
  const { games, players, ratings, subscriptions, processes, challenges, communities, bots, tournaments, leagues, log } = store;
  return [games, players, ratings, subscriptions, processes, challenges, communities, bots, tournaments, leagues, log]
    .flatMap((port) => Object.getOwnPropertyNames(Object.getPrototypeOf(port)))
    .filter((m) => !reads.test(m))
    .sort();
}

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
    // A game of the earlier layout, written before the spy sees anything.
    const raw = await mongoose.createConnection(url).asPromise();
    try {
      await raw.collection("games").insertOne({ ...game("OLD", { status: "active" }) });
      await raw.collection("actions").insertOne({ gameId: "OLD", index: 0, action: { kind: "abort" }, at: at(1) });
    } finally {
      await raw.close();
    }
    const seen: Call[] = [];
    restore = driverSpy((c) => void seen.push(c));
    assert.deepEqual(PORT_WRITES.map(([name]) => name).sort(), writeMethods(store), "every write method of the store is on the list");
    for (const [name, call] of PORT_WRITES) {
      const before = seen.length;
      await call(store);
      assert.ok(
        seen.slice(before).some((c) => WRITES.has(c.method)),
        `${name} sent no write`,
      );
    }
    // Two writes no port method names: the first read of a game of the earlier layout moves its log into
    // the game's document, and a rejected batch undoes the writes of it that applied.
    let before = seen.length;
    assert.equal((await store.games.listActions("OLD")).length, 1);
    assert.ok(
      seen.slice(before).some((c) => c.method === "updateOne" && c.collection === "games"),
      "the migration writes the log",
    );
    await store.games.createGame(game("U1", { status: "active" }));
    before = seen.length;
    await assert.rejects(
      store.games.commitGames([
        { gameId: "U1", actions: [], patch: { moveCount: 1 } },
        { gameId: "OLD", actions: [], patch: { salt: 1n as unknown as string } },
      ]),
    );
    assert.deepEqual(
      seen
        .slice(before)
        .filter((c) => WRITES.has(c.method))
        .map((c) => c.method),
      ["findOneAndUpdate", "updateOne"],
      "the write, then its undo",
    );
    assert.equal((await store.games.getGame("U1"))?.moveCount, 0);
    const writes = seen.filter((c) => WRITES.has(c.method));
    assert.ok(writes.length >= PORT_WRITES.length, `${writes.length} writes seen`);
    for (const w of writes) {
      const wc = w.options?.writeConcern as { w?: unknown; j?: unknown; journal?: unknown } | undefined;
      assert.deepEqual([wc?.w, wc?.j ?? wc?.journal], ["majority", true], `${w.method} on ${w.collection}`);
    }
  });

  it("rejects every write of the port whose write concern failed, never answering it as a success", async function () {
    const store = await open();
    restore = driverSpy((c) => (WRITES.has(c.method) ? writeConcernError() : undefined));
    for (const [name, call] of PORT_WRITES) {
      await assert.rejects(call(store), (e: Error) => e.name === "MongoWriteConcernError", `${name} did not reject`);
    }
  });

  it("does not take a duplicate key that comes with a write-concern error for a lost race", async function () {
    const store = await open();
    let first = true;
    restore = driverSpy((c) => {
      if (c.method !== "bulkWrite" || !first) return;
      first = false;
      // What the driver throws when a bulk write has both: a write error and a write-concern error.
      throw new mongo.MongoBulkWriteError({ message: "E11000 duplicate key error", code: 11000, writeErrors: [] }, {
        getWriteConcernError: () => ({ code: 64 }),
      } as never);
    });
    await assert.rejects(
      store.subscriptions.saveDeliveries([{ eventId: "E1", subscriptionId: "S1", subscriptionKey: "k1", body: "{}", leaseUntil: at(0), createdAt: at(0) }]),
    );
  });

  it("retries an upsert that lost the race to create its key, as MongoDB answers the loser with E11000", async function () {
    const store = await open();
    const lose = new Set(["updateOne", "replaceOne", "bulkWrite", "findOneAndUpdate"]);
    restore = driverSpy((c) => {
      if (!lose.delete(c.method)) return;
      throw duplicateKey();
    });
    await store.subscriptions.markUrlVerified("https://a.example/", at(1));
    await store.processes.registerProcess({ id: "p1", sharedPresence: true, pid: 1, host: "h", startedAt: at(0), heartbeatAt: at(0) });
    await store.subscriptions.saveDeliveries([{ eventId: "E1", subscriptionId: "S1", subscriptionKey: "k1", body: "{}", leaseUntil: at(0), createdAt: at(0) }]);
    await store.subscriptions.upsertSubscription(subscription("S1", "k1"));
    assert.equal(lose.size, 0, "every upsert lost its first run");
    assert.equal(await store.subscriptions.urlVerifiedAt("https://a.example/"), at(1));
    assert.equal((await store.processes.listProcesses()).length, 1);
    assert.equal((await store.subscriptions.claimDeliveries(at(1), at(2), 5)).length, 1);
    assert.equal((await store.subscriptions.getSubscriptionByKey("k1"))?.id, "S1");
  });

  it("claims each delivery with one conditional update, reading nothing first", async function () {
    const store = await open();
    await store.subscriptions.saveDeliveries(
      ["E1", "E2", "E3"].map((eventId, i) => ({ eventId, subscriptionId: "S1", subscriptionKey: "k1", body: "{}", leaseUntil: at(0), createdAt: at(i) })),
    );
    const seen: Call[] = [];
    restore = driverSpy((c) => void seen.push(c));
    const claimed = await store.subscriptions.claimDeliveries(at(1), at(2), 10, "p1");
    assert.deepEqual(
      claimed.map((d) => [d.eventId, d.leaseUntil, d.holder]),
      [
        ["E1", at(2), "p1"],
        ["E2", at(2), "p1"],
        ["E3", at(2), "p1"],
      ],
    );
    assert.deepEqual(
      seen.map((c) => c.method),
      ["findOneAndUpdate", "findOneAndUpdate", "findOneAndUpdate", "findOneAndUpdate"],
      "three claims and the one that found none",
    );
  });

  it("fences the old owner whichever of its round trips the take-over falls before", async function () {
    const old = await open();
    const next = await open();
    for (let k = 0; k < 4; k++) {
      const id = `G${k}`;
      await old.games.createGame(game(id, { status: "active", owner: "p1", ownerEpoch: 1 }));
      let calls = 0;
      let seenByNewOwner: number[] | null = null;
      let busy = false;
      restore = driverSpy(async () => {
        if (busy || calls++ !== k) return;
        busy = true; // the take-over's own calls pass through
        assert.equal(await next.games.updateGameIf(id, { ownerEpoch: 1 }, { owner: "p2", ownerEpoch: 2 }), true);
        seenByNewOwner = (await next.games.listActions(id)).map((a) => a.index);
        busy = false;
      });
      const [result] = await old.games.commitGames([
        { gameId: id, actions: [{ gameId: id, index: 0, action: { kind: "abort" }, at: at(1) }], patch: { moveCount: 1 }, ownerEpoch: 1 },
      ]);
      restore();
      restore = null;
      if (seenByNewOwner === null) continue; // the write took fewer round trips than k: no take-over inside it
      // Committed after the take-over began means the new owner, which read the log after claiming, must
      // have seen it; otherwise the two owners now disagree about the game.
      if (result === "committed") assert.deepEqual(seenByNewOwner, [0], `take-over before round trip ${k}: a committed write the new owner never saw`);
      else assert.deepEqual(await next.games.listActions(id), [], `take-over before round trip ${k}: a refused write left its action`);
    }
  });

  it("unseals a finished league game with one conditional $unset, leaving no sealed member in its document", async function () {
    const store = await open();
    await store.games.createGame(game("L1", { status: "finished", leagueId: "LG1", sealed: true }));
    const seen: Call[] = [];
    restore = driverSpy((c) => void seen.push(c));
    // GameReads.unseal's write.
    assert.equal(await store.games.updateGameIf("L1", { status: "finished" }, { sealed: undefined }), true);
    restore();
    restore = null;
    const writes = seen.filter((c) => WRITES.has(c.method));
    assert.equal(writes.length, 1, "one round trip");
    const [filter, update] = writes[0].args as [Record<string, unknown>, { $set?: Record<string, unknown>; $unset?: Record<string, unknown> }];
    assert.deepEqual(filter, { id: "L1", status: "finished" });
    assert.deepEqual(update.$unset, { sealed: "" });
    assert.ok(!("sealed" in (update.$set ?? {})));
    const raw = await mongoose.createConnection(url).asPromise();
    try {
      const doc = await raw.collection("games").findOne({ id: "L1" });
      assert.ok(doc && !("sealed" in doc), "the stored document has no sealed member");
    } finally {
      await raw.close();
    }
  });

  it("reads and migrates a game stored with its actions in their own collection", async function () {
    const store = await open();
    const raw = await mongoose.createConnection(url).asPromise();
    try {
      await raw.collection("games").insertOne({ ...game("OLD", { status: "active", moveCount: 2, ownerEpoch: 1 }) });
      await raw.collection("actions").insertMany([1, 0].map((index) => ({ gameId: "OLD", index, action: { kind: "timeout", seat: "A" }, at: at(index) })));
      assert.deepEqual(
        (await store.games.listActions("OLD")).map((a) => a.index),
        [0, 1],
      );
      assert.deepEqual(await store.games.getGame("OLD"), game("OLD", { status: "active", moveCount: 2, ownerEpoch: 1 }));
      assert.deepEqual(
        await store.games.commitGames([
          { gameId: "OLD", actions: [{ gameId: "OLD", index: 2, action: { kind: "abort" }, at: at(2) }], patch: { moveCount: 3 }, ownerEpoch: 1 },
        ]),
        ["committed"],
      );
      assert.deepEqual(
        (await store.games.listActions("OLD")).map((a) => a.index),
        [0, 1, 2],
      );
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
      await store.communities.createCommunity(community("C1", ["P1"]));
      await store.communities.addMember("C1", "P2");
      const doc = await raw.collection("communities").findOne({ id: "C1" });
      assert.equal(doc?.members, undefined, "the community's document holds no member");
      assert.deepEqual((await store.communities.getCommunity("C1"))?.members, ["P1", "P2"]);
      await raw.collection("communities").insertOne({ ...community("OLD", ["P3", "P1"]) });
      await store.communities.addMember("OLD", "P4");
      await store.communities.addMember("OLD", "P3");
      assert.deepEqual((await store.communities.getCommunity("OLD"))?.members, ["P3", "P1", "P4"]);
      await store.communities.removeMember("OLD", "P3");
      assert.deepEqual(
        (await store.communities.communitiesOf("P1")).map((c) => [c.id, c.members]),
        [
          ["C1", ["P1", "P2"]],
          ["OLD", ["P1", "P4"]],
        ],
      );
    } finally {
      await raw.close();
    }
  });
});
