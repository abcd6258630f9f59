import assert from "node:assert/strict";
import pino from "pino";
import { createEvents, EventDispatcher, type CallbackClient, type PostResult } from "../../src/services/events/index";
import { openStore, type Store, type SubscriptionRecord } from "../../src/store/index";
import { recordingLogger } from "./helpers";

/** A client whose answers the test releases by hand. */
function heldClient() {
  const calls: Array<{ url: string; body: string; release: (r: PostResult) => void; signal?: AbortSignal }> = [];
  const client: CallbackClient = {
    post: (url, body, _headers, signal) =>
      new Promise<PostResult>((resolve) => {
        calls.push({ url, body, release: resolve, signal });
        signal?.addEventListener("abort", () => resolve({ ok: false, reason: "unreachable", detail: "cancelled" }));
      }),
  };
  return { client, calls };
}

const tick = () => new Promise((r) => setTimeout(r, 20));

async function subscription(store: Store, id: string, expiresAt = "2999-01-01T00:00:00.000Z"): Promise<SubscriptionRecord> {
  return store.subscriptions.upsertSubscription({
    id,
    name: "game.finished",
    key: `k-${id}`,
    arguments: { game_id: "g1" },
    url: `https://example.com/${id}`,
    secret: "whsec_" + Buffer.alloc(32, 1).toString("base64"),
    expiresAt,
    failures: 0,
    cursor: null,
    createdAt: "2020-01-01T00:00:00.000Z",
    updatedAt: "2020-01-01T00:00:00.000Z",
  });
}

describe("Unit: EventDispatcher", () => {
  let store: Store;
  beforeEach(async () => {
    store = await openStore({ database: ":memory:" });
  });
  afterEach(() => store.close());

  it("returns from emit before any network answer when the callback hangs", async () => {
    await subscription(store, "sub_1");
    const { client, calls } = heldClient();
    const d = new EventDispatcher({ store: store.subscriptions, client, logger: recordingLogger(), now: () => new Date() });
    // emit is synchronous (it returns undefined, not a promise), so nothing it does can wait on the network;
    // the POST starts afterwards and is still unanswered when the test goes on.
    assert.equal(d.emit({ name: "game.finished", match: { game_id: "g1" }, data: {} }), undefined);
    assert.equal(calls.length, 0, "no POST is started inside emit");
    await tick();
    assert.equal(calls.length, 1);
    calls[0].release({ ok: true, status: 200, body: "" });
    await d.idle();
    await d.close();
  });

  it("keeps at most `concurrency` POSTs in flight and defers the oldest queued delivery until its lease ends when full", async () => {
    await subscription(store, "sub_1");
    const { client, calls } = heldClient();
    const logger = recordingLogger();
    const clock = { now: new Date() };
    const d = new EventDispatcher({ store: store.subscriptions, client, logger, now: () => clock.now, concurrency: 1, maxQueue: 2, leaseMs: 60_000 });
    for (let i = 0; i < 4; i++) {
      d.emit({ name: "game.finished", match: { game_id: "g1" }, data: { i } });
      await tick();
    }
    assert.equal(calls.length, 1);
    assert.ok(logger.lines.some((l) => l.level === "warn" && /oldest delivery deferred/.test(l.msg ?? "")));
    for (let k = 0; k < 3; k++) {
      calls.at(-1)!.release({ ok: true, status: 204, body: "" });
      await tick();
    }
    await d.idle();
    assert.deepEqual(
      calls.map((c) => JSON.parse(c.body).data.i),
      [0, 2, 3],
    );
    assert.equal(await d.recover(), 0, "the deferred delivery is still leased");
    clock.now = new Date(clock.now.getTime() + 60_000);
    assert.equal(await d.recover(), 1);
    await tick();
    calls.at(-1)!.release({ ok: true, status: 204, body: "" });
    await d.idle();
    assert.deepEqual(
      calls.map((c) => JSON.parse(c.body).data.i),
      [0, 2, 3, 1],
    );
    assert.deepEqual(await store.subscriptions.claimDeliveries("9999", "9999", 10), [], "nothing is left recorded");
    await d.close();
  });

  it("drops the oldest emitted event with a warning when the lookup queue is full", async () => {
    const logger = recordingLogger();
    const slow = new Proxy(store.subscriptions, {
      get: (t, p, r) => (p === "findSubscriptions" ? () => new Promise((res) => setTimeout(() => res([]), 30)) : Reflect.get(t, p, r)),
    });
    const d = new EventDispatcher({ store: slow, client: heldClient().client, logger, now: () => new Date(), maxQueue: 1 });
    for (let i = 0; i < 3; i++) d.emit({ name: "game.finished", match: { game_id: "g1" }, data: {} });
    await d.idle();
    assert.equal(logger.lines.filter((l) => /oldest event dropped/.test(l.msg ?? "")).length, 1);
    await d.close();
  });

  it("waits for in-flight deliveries when closing and refuses events afterwards", async () => {
    await subscription(store, "sub_1");
    const { client, calls } = heldClient();
    const logger = recordingLogger();
    const d = new EventDispatcher({ store: store.subscriptions, client, logger, now: () => new Date() });
    d.emit({ name: "game.finished", match: { game_id: "g1" }, data: {} });
    await tick();
    const closing = d.close(2000);
    setTimeout(() => calls[0].release({ ok: true, status: 200, body: "" }), 30);
    await closing;
    d.emit({ name: "game.finished", match: { game_id: "g1" }, data: {} });
    await tick();
    assert.equal(calls.length, 1);
    assert.ok(logger.lines.some((l) => /after the dispatcher closed/.test(l.msg ?? "")));
  });

  it("aborts what is still in flight when the drain time is over, without counting it as a failure", async () => {
    await subscription(store, "sub_1");
    const { client, calls } = heldClient();
    const logger = recordingLogger();
    const d = new EventDispatcher({ store: store.subscriptions, client, logger, now: () => new Date() });
    d.emit({ name: "game.finished", match: { game_id: "g1" }, data: {} });
    await tick();
    await d.close(30);
    assert.equal(calls[0].signal?.aborted, true);
    assert.ok(logger.lines.some((l) => /left in the store for the next start/.test(l.msg ?? "")));
    assert.equal((await store.subscriptions.getSubscriptionByKey("k-sub_1"))?.failures, 0);
  });

  it("sends a delivery left unfinished at shutdown again on the next start, with the same eventId and body", async () => {
    await subscription(store, "sub_1");
    const first = heldClient();
    const d1 = new EventDispatcher({ store: store.subscriptions, client: first.client, logger: recordingLogger(), now: () => new Date() });
    d1.emit({ name: "game.finished", match: { game_id: "g1" }, data: { winner: "A" } });
    await tick();
    await d1.close(30);

    const second = heldClient();
    const d2 = new EventDispatcher({ store: store.subscriptions, client: second.client, logger: recordingLogger(), now: () => new Date() });
    assert.equal(await d2.startRecovery(), 1);
    await tick();
    assert.equal(second.calls.length, 1);
    assert.equal(second.calls[0].body, first.calls[0].body);
    second.calls[0].release({ ok: true, status: 200, body: "" });
    await d2.idle();
    assert.deepEqual(await store.subscriptions.claimDeliveries("9999", "9999", 10), []);
    await d2.close();
  });

  it("takes over a delivery held by a process that died only once its lease ends, unless it is the only process", async () => {
    await subscription(store, "sub_1");
    const clock = { now: new Date() };
    const dead = new EventDispatcher({
      store: store.subscriptions,
      client: heldClient().client,
      logger: recordingLogger(),
      now: () => clock.now,
      leaseMs: 60_000,
    });
    dead.emit({ name: "game.finished", match: { game_id: "g1" }, data: {} });
    await tick(); // recorded and in flight; the process is never closed, as if killed

    const other = heldClient();
    const shared = new EventDispatcher({ store: store.subscriptions, client: other.client, logger: recordingLogger(), now: () => clock.now, exclusive: false });
    assert.equal(await shared.startRecovery(), 0);
    clock.now = new Date(clock.now.getTime() + 60_001);
    assert.equal(await shared.recover(), 1);
    await tick();
    assert.equal(other.calls.length, 1);
    other.calls[0].release({ ok: true, status: 204, body: "" });
    await shared.idle();
    await shared.close();
    await dead.close(0);
  });

  it("renews the leases of deliveries it still holds, so another process does not take them over", async () => {
    await subscription(store, "sub_1");
    const clock = { now: new Date() };
    const busy = new EventDispatcher({
      store: store.subscriptions,
      client: heldClient().client,
      logger: recordingLogger(),
      now: () => clock.now,
      leaseMs: 60_000,
    });
    busy.emit({ name: "game.finished", match: { game_id: "g1" }, data: {} });
    await tick();
    clock.now = new Date(clock.now.getTime() + 20_000);
    assert.equal(await busy.renewLeases(), 0, "a lease with more than half to run is left alone");
    clock.now = new Date(clock.now.getTime() + 20_000);
    assert.equal(await busy.renewLeases(), 1);

    clock.now = new Date(clock.now.getTime() + 30_000); // past the first lease, within the renewed one
    const other = new EventDispatcher({
      store: store.subscriptions,
      client: heldClient().client,
      logger: recordingLogger(),
      now: () => clock.now,
      exclusive: false,
    });
    assert.equal(await other.recover(), 0);
    await other.close(0);
    await busy.close(0);
  });

  it("forgets a recorded delivery whose subscription has ended instead of sending it", async () => {
    const sub = await subscription(store, "sub_1");
    await store.subscriptions.saveDeliveries([
      {
        eventId: "evt_x",
        subscriptionId: sub.id,
        subscriptionKey: sub.key,
        body: "{}",
        leaseUntil: "2000-01-01T00:00:00.000Z",
        createdAt: "2000-01-01T00:00:00.000Z",
      },
    ]);
    await store.subscriptions.deleteSubscription(sub.id);
    const { client, calls } = heldClient();
    const d = new EventDispatcher({ store: store.subscriptions, client, logger: recordingLogger(), now: () => new Date() });
    assert.equal(await d.startRecovery(), 0);
    await d.idle();
    assert.equal(calls.length, 0);
    assert.deepEqual(await store.subscriptions.claimDeliveries("9999", "9999", 10), []);
    await d.close();
  });

  it("removes expired subscriptions on each sweep once started and stops when asked", async () => {
    await subscription(store, "sub_old", "2000-01-01T00:00:00.000Z");
    const d = new EventDispatcher({ store: store.subscriptions, client: heldClient().client, logger: recordingLogger(), now: () => new Date() });
    d.startSweep(10);
    await tick();
    assert.equal(await store.subscriptions.getSubscriptionByKey("k-sub_old"), null);
    d.stopSweep();
    await subscription(store, "sub_old2", "2000-01-01T00:00:00.000Z");
    await tick();
    assert.notEqual(await store.subscriptions.getSubscriptionByKey("k-sub_old2"), null);
    await d.close();
  });

  it("accepts a pino logger as its logger, and writes its lines through it", async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    const events = createEvents({
      store: store.subscriptions,
      logger,
      config: { webhookAllowPrivate: false },
      resolveSeat: async () => null,
      currentState: async () => ({ cursor: null, events: [] }),
    });
    events.emit({ name: "game.started", match: { game_id: "none" }, data: {} });
    await events.dispatcher.idle();
    await events.close();
    assert.equal(lines.length, 0, "an event nobody subscribed to is not logged");
    // An event emitted after close is dropped with a warning, which reaches pino's stream with its fields.
    events.emit({ name: "game.finished", match: { game_id: "none" }, data: {} });
    assert.equal(lines.length, 1);
    assert.equal(lines[0].level, 40);
    assert.equal(lines[0].event, "game.finished");
    assert.equal(lines[0].msg, "event emitted after the dispatcher closed; dropped");
  });
});
