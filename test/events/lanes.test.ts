/**
 * Delivery lanes, judged on the dispatcher's own state with a client whose answers the test releases by hand:
 * a subscription whose POST stays unanswered gives its slot back and moves to the slow lane, the slow lane
 * holds a bounded share of the slots, and healthy answers bring a subscription back.
 */
import assert from "node:assert/strict";
import { EventDispatcher, type CallbackClient, type PostResult } from "../../src/services/events/index";
import { openStore, type Store } from "../../src/store/index";
import { recordingLogger } from "./helpers";

interface Call {
  url: string;
  release: (r: PostResult) => void;
}

function heldClient() {
  const calls: Call[] = [];
  const client: CallbackClient = {
    post: (url, _body, _headers, signal) =>
      new Promise<PostResult>((resolve) => {
        calls.push({ url, release: resolve });
        signal?.addEventListener("abort", () => resolve({ ok: false, reason: "unreachable", detail: "cancelled" }));
      }),
  };
  return { client, calls };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, ok: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !ok(); i++) await sleep(10);
  assert.ok(ok(), what);
}

/** Subscriptions to one event, all on one callback host (ids `slow0`..., then `ok`). */
async function subscriptions(store: Store, ids: string[]): Promise<void> {
  for (const id of ids) {
    await store.subscriptions.upsertSubscription({
      id,
      name: "game.finished",
      key: `k-${id}`,
      arguments: { game_id: "g1" },
      url: `https://hooks.example.com/${id}`,
      secret: "whsec_" + Buffer.alloc(32, 1).toString("base64"),
      expiresAt: "2999-01-01T00:00:00.000Z",
      failures: 0,
      cursor: null,
      createdAt: "2020-01-01T00:00:00.000Z",
      updatedAt: "2020-01-01T00:00:00.000Z",
    });
  }
}

const ok: PostResult = { ok: true, status: 204, body: "" };

describe("Unit: EventDispatcher delivery lanes", () => {
  let store: Store;
  let d: EventDispatcher;
  beforeEach(async () => {
    store = await openStore({ database: ":memory:" });
  });
  afterEach(async () => {
    await d.close(10);
    await store.close();
  });

  it("gives a slot held by an unanswered POST back to the fast lane, so another subscription on the host is served", async () => {
    const slow = Array.from({ length: 8 }, (_, i) => `slow${i}`);
    await subscriptions(store, [...slow, "ok"]);
    const { client, calls } = heldClient();
    d = new EventDispatcher({
      store: store.subscriptions,
      client,
      logger: recordingLogger(),
      now: () => new Date(),
      concurrency: 8,
      slowSlots: 2,
      slowAfterMs: 30,
      maxFailures: 100,
    });
    d.emit({ name: "game.finished", match: { game_id: "g1" }, data: {} });
    // Eight slots, nine subscriptions on one host: the ninth waits until the first POSTs go unanswered too long.
    await until("every subscription's delivery started while the slow ones hang", () => calls.length === 9);
    const okCall = calls.find((c) => c.url.endsWith("/ok")) as Call;
    okCall.release(ok);
    await until("the eight unanswered subscriptions are in the slow lane", () => d.stats().slow.subscriptions === 8);
    assert.equal(d.stats().slow.inflight, 8);

    // A second event: the healthy subscription is served at once; the slow lane, over its share, starts nothing.
    d.emit({ name: "game.finished", match: { game_id: "g1" }, data: {} });
    await until("the healthy subscription got its second delivery", () => calls.filter((c) => c.url.endsWith("/ok")).length === 2);
    assert.equal(calls.length, 10, "no slow subscription started another POST");
    assert.equal(d.stats().slow.queued, 8, "the slow subscriptions' next deliveries wait in the slow lane");
    calls[9].release(ok);

    // As the slow POSTs end, the slow lane starts again, never more than its two slots at once.
    for (const c of calls.slice(0, 9)) if (!c.url.endsWith("/ok")) c.release(ok);
    await until("the slow lane works through its queue", () => calls.length > 10);
    assert.ok(d.stats().slow.inflight <= 2, `slow lane within its share (${d.stats().slow.inflight})`);
  });

  it("moves a failing subscription to the slow lane and brings it back after three healthy answers", async () => {
    await subscriptions(store, ["flaky"]);
    const { client, calls } = heldClient();
    d = new EventDispatcher({
      store: store.subscriptions,
      client,
      logger: recordingLogger(),
      now: () => new Date(),
      retryDelaysMs: [],
      slowAfterMs: 1000,
      maxFailures: 100,
    });
    d.emit({ name: "game.finished", match: { game_id: "g1" }, data: {} });
    await until("first POST", () => calls.length === 1);
    calls[0].release({ ok: true, status: 500, body: "" });
    await until("a failure moves it to the slow lane", () => d.stats().slow.subscriptions === 1);
    for (let i = 1; i <= 3; i++) {
      assert.equal(d.stats().slow.subscriptions, 1, `still slow after ${i - 1} healthy answers`);
      d.emit({ name: "game.finished", match: { game_id: "g1" }, data: { i } });
      await until(`POST ${i + 1}`, () => calls.length === i + 1);
      calls[i].release(ok);
      await d.idle();
    }
    assert.equal(d.stats().slow.subscriptions, 0, "back in the fast lane");
  });
});
