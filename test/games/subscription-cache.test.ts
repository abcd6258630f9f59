import { strict as assert } from "node:assert";
import { LocalPresence, type Presence } from "@colyseus/core";
import { RedisPresence } from "@colyseus/redis-presence";
import { generateSecret } from "../../src/services/events";
import { SubscriptionCache } from "../../src/services/games/subscription-cache";
import type { RunningServer } from "../../src/server";
import { openStore, type Store, type SubscriptionRecord } from "../../src/store";
import { startReceiver, testCert, type Receiver } from "../events/helpers";
import { pickMove, seatedFriendGame } from "../support/play";
import { redisAvailable, startRedis, type RedisHandle } from "../support/redis";
import { bearer, bootServer, eventually, http } from "../support/server";

const NOW = "2030-01-01T00:00:00.000Z";
const LATER = "2030-01-02T00:00:00.000Z";

function sub(id: string, gameId: string, over: Partial<SubscriptionRecord> = {}): SubscriptionRecord {
  return {
    id,
    name: "game.move",
    key: `key-${id}`,
    arguments: { game_id: gameId },
    url: `https://hooks.example/${id}`,
    secret: "whsec_x",
    expiresAt: LATER,
    failures: 0,
    cursor: null,
    createdAt: NOW,
    updatedAt: NOW,
    ...over,
  };
}

describe("Unit: SubscriptionCache over a SQLite store", function () {
  let store: Store;
  let presence: Presence;
  let cache: SubscriptionCache;
  const live = new Set<string>(["g1"]);

  beforeEach(async function () {
    store = await openStore({ database: ":memory:" });
    presence = new LocalPresence();
    cache = new SubscriptionCache(store.subscriptions, presence, (id) => live.has(id));
    await cache.start();
  });
  afterEach(async function () {
    cache.stop();
    await store.close();
  });

  it("asks the store once per live game, then answers every event's lookup from memory as the store would", async function () {
    await cache.upsertSubscription(sub("s1", "g1"));
    await cache.upsertSubscription(sub("s2", "g1", { name: "game.turn", arguments: { game_id: "g1", seat: "A" } }));
    await cache.upsertSubscription(sub("s3", "g1", { name: "game.turn", arguments: { game_id: "g1", seat: "B" } }));
    await cache.upsertSubscription(sub("s4", "g9"));
    const lookups: [string, Record<string, unknown>][] = [
      ["game.move", { game_id: "g1" }],
      ["game.turn", { game_id: "g1", seat: "A" }],
      ["game.turn", { game_id: "g1", seat: "B" }],
      ["game.turn", { game_id: "g1" }],
      ["game.finished", { game_id: "g1" }],
    ];
    for (let i = 0; i < 2; i++) {
      for (const [name, match] of lookups) {
        const cached = (await cache.findSubscriptions(name, match, NOW)).map((s) => s.id);
        assert.deepEqual(
          cached,
          (await store.subscriptions.findSubscriptions(name, match, NOW)).map((s) => s.id),
          `${name} ${JSON.stringify(match)}`,
        );
      }
    }
    assert.deepEqual(cache.stats(), { cached: 9, stored: 1 });
  });

  it("tells a live game's room which events nobody subscribed to, once it knows", async function () {
    await cache.upsertSubscription(sub("s1", "g1", { name: "game.turn", arguments: { game_id: "g1", seat: "A" } }));
    assert.equal(cache.listens("g1", "game.move"), true, "not known before the first lookup");
    await cache.findSubscriptions("game.turn", { game_id: "g1", seat: "A" }, NOW);
    assert.equal(cache.listens("g1", "game.move"), false);
    assert.equal(cache.listens("g1", "game.turn"), true);
    await cache.upsertSubscription(sub("s2", "g1"));
    assert.equal(cache.listens("g1", "game.move"), true, "a new subscription makes it unknown again at once");
    await cache.findSubscriptions("game.move", { game_id: "g1" }, NOW);
    assert.equal(cache.listens("g1", "game.move"), true);
    await presence.publish("subscriptions-changed", "*");
    await cache.findSubscriptions("game.finished", { game_id: "g1" }, NOW);
    assert.equal(cache.listens("g1", "game.finished"), false);
    cache.forget("g1");
    assert.equal(cache.listens("g1", "game.finished"), true, "a released game is not known");
  });

  it("sees a subscription made after the first lookup, and loses one removed", async function () {
    assert.deepEqual(await cache.findSubscriptions("game.move", { game_id: "g1" }, NOW), []);
    await cache.upsertSubscription(sub("s1", "g1"));
    assert.deepEqual(
      (await cache.findSubscriptions("game.move", { game_id: "g1" }, NOW)).map((s) => s.id),
      ["s1"],
    );
    assert.equal(await cache.deleteSubscriptionByKey("key-s1"), true);
    assert.deepEqual(await cache.findSubscriptions("game.move", { game_id: "g1" }, NOW), []);
  });

  it("filters expired subscriptions by the time of each lookup", async function () {
    await cache.upsertSubscription(sub("s1", "g1", { expiresAt: "2030-01-01T00:00:01.000Z" }));
    assert.equal((await cache.findSubscriptions("game.move", { game_id: "g1" }, NOW)).length, 1);
    assert.equal((await cache.findSubscriptions("game.move", { game_id: "g1" }, "2030-01-01T00:00:02.000Z")).length, 0);
  });

  it("keeps the dispatcher's cursor in the cached record and returns copies", async function () {
    await cache.upsertSubscription(sub("s1", "g1"));
    const [first] = await cache.findSubscriptions("game.move", { game_id: "g1" }, NOW);
    first.url = "https://changed.example/";
    await cache.updateSubscription("s1", { cursor: 3 });
    const [again] = await cache.findSubscriptions("game.move", { game_id: "g1" }, NOW);
    assert.equal(again.cursor, 3);
    assert.equal(again.url, "https://hooks.example/s1");
    assert.equal((await store.subscriptions.getSubscriptionByKey("key-s1"))!.cursor, 3);
  });

  it("goes to the store every time for a game whose room is not in this process", async function () {
    await cache.upsertSubscription(sub("s1", "g2"));
    await cache.findSubscriptions("game.move", { game_id: "g2" }, NOW);
    await cache.findSubscriptions("game.move", { game_id: "g2" }, NOW);
    assert.deepEqual(cache.stats(), { cached: 0, stored: 2 });
  });
});

describe("Integration: SubscriptionCache invalidated across processes through Redis presence", function () {
  let redis: RedisHandle;
  let store: Store;
  const presences: RedisPresence[] = [];
  before(async function () {
    if (!redisAvailable()) this.skip();
    redis = await startRedis();
    store = await openStore({ database: ":memory:" });
  });
  after(async function () {
    for (const p of presences) p.shutdown();
    await store?.close();
    await redis?.stop();
  });

  it("drops a game's entry in the other process when one process subscribes", async function () {
    const make = async () => {
      const presence = new RedisPresence(redis.url);
      presences.push(presence);
      const cache = new SubscriptionCache(store.subscriptions, presence, () => true);
      await cache.start();
      return cache;
    };
    const [emitter, subscriber] = [await make(), await make()];
    assert.deepEqual(await emitter.findSubscriptions("game.move", { game_id: "g1" }, NOW), []);
    await subscriber.upsertSubscription(sub("s1", "g1"));
    let seen: string[] = [];
    const until = Date.now() + 5000;
    while (seen.length === 0 && Date.now() < until) {
      seen = (await emitter.findSubscriptions("game.move", { game_id: "g1" }, NOW)).map((s) => s.id);
      if (seen.length === 0) await new Promise((r) => setTimeout(r, 20));
    }
    assert.deepEqual(seen, ["s1"]);
    emitter.stop();
    subscriber.stop();
  });
});

describe("End-to-end: a subscription made mid-game is seen by the next move", function () {
  this.timeout(30_000);
  let server: RunningServer;
  let receiver: Receiver;
  before(async function () {
    server = await bootServer({ webhookAllowPrivate: true }, { webhookCa: testCert().cert, webhookRetryDelaysMs: [50, 100] });
    receiver = await startReceiver();
  });
  after(async function () {
    await server.close();
    await receiver.close();
  });

  async function move(id: string, tokens: Record<string, string>) {
    const turn = (await http(server.url, "GET", `/api/v1/games/${id}`)).json.turn as string;
    const view = (await http(server.url, "GET", `/api/v1/games/${id}/sync`, undefined, bearer(tokens[turn]))).json;
    const r = await http(server.url, "POST", `/api/v1/games/${id}/moves`, pickMove(view.state), bearer(tokens[turn]));
    assert.equal(r.status, 200, r.text);
  }

  it("delivers game.move from the first move after subscribing, and nothing after unsubscribing", async function () {
    const { id, tokens } = await seatedFriendGame(server.url);
    const emitted: string[] = [];
    const emit = server.events.emit.bind(server.events);
    server.events.emit = (e) => {
      if (e.data.game_id === id) emitted.push(e.name);
      emit(e);
    };
    // Two moves with nobody subscribed: the room's lookups have found (and kept) no subscription, so after
    // the first lookup the room no longer builds the events nobody subscribed to.
    await move(id, tokens);
    await server.events.dispatcher.idle();
    const before = emitted.length;
    await move(id, tokens);
    assert.deepEqual(emitted.slice(before), [], "no event built for the second move");

    const secret = generateSecret();
    const delivery = { mode: "webhook", url: `${receiver.url}?mid`, secret };
    const subscribed = await http(server.url, "POST", "/api/v1/games/events/subscribe", { name: "game.move", arguments: { game_id: id }, delivery });
    assert.equal(subscribed.status, 201, subscribed.text);
    await move(id, tokens);
    const moves = () => receiver.events().filter((e) => e.json?.name === "game.move" && e.json.data.game_id === id);
    await eventually(() => moves().length === 1, "the move after subscribing");
    assert.equal(moves()[0].json.data.move_index, 2);

    const gone = await http(server.url, "POST", "/api/v1/games/events/unsubscribe", { name: "game.move", arguments: { game_id: id }, delivery });
    assert.equal(gone.status, 200, gone.text);
    await move(id, tokens);
    await server.events.dispatcher.idle();
    assert.equal(moves().length, 1, "no delivery after unsubscribing");
  });
});
