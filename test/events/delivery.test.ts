import assert from "node:assert/strict";
import { Webhook } from "standardwebhooks";
import { createCallbackClient, EventDispatcher, generateSecret } from "../../src/services/events/index";
import { harness, recordingLogger, startReceiver, subBody, testCert, type Harness, type Receiver } from "./helpers";

const finished = {
  game_id: "g1",
  winner: "A",
  decided_by: "board_full",
  score: { A: 6, B: 4 },
  players: { A: "P1", B: "P2" },
  replay_url: "https://arena.example/replay/g1",
  move_count: 10,
};
const emitFinished = (h: Harness) => h.events.emit({ name: "game.finished", match: { game_id: "g1" }, data: finished });

describe("Integration: signed deliveries", () => {
  let h: Harness;
  let receiver: Receiver;
  beforeEach(async () => {
    receiver = await startReceiver();
    h = await harness();
  });
  afterEach(async () => {
    await h.close();
    await receiver.close();
  });

  it("signs each delivery so that standardwebhooks' Webhook.verify accepts the raw body", async () => {
    const secret = generateSecret();
    const { id } = await h.events.subscriptions.subscribe(subBody(receiver.url, secret));
    emitFinished(h);
    await receiver.waitFor(1);
    const [d] = receiver.events();
    const verified = new Webhook(secret).verify(d.raw, d.headers) as Record<string, unknown>;
    assert.deepEqual(Object.keys(verified), ["eventId", "name", "timestamp", "data", "cursor"]);
    assert.match(verified.eventId as string, /^evt_/);
    assert.equal(d.headers["webhook-id"], verified.eventId);
    assert.match(d.headers["webhook-signature"], /^v1,/);
    assert.equal(d.headers["x-mcp-subscription-id"], id);
    assert.equal(verified.name, "game.finished");
    assert.equal(verified.timestamp, h.clock.now.toISOString());
    assert.deepEqual(verified.data, finished);
    assert.equal(verified.cursor, null);
  });

  it("is refused by Webhook.verify when the receiver holds a different secret", async () => {
    await h.events.subscriptions.subscribe(subBody(receiver.url, generateSecret()));
    emitFinished(h);
    await receiver.waitFor(1);
    const [d] = receiver.events();
    assert.throws(() => new Webhook(generateSecret()).verify(d.raw, d.headers), /No matching signature/);
  });

  it("is refused by Webhook.verify when the body was altered", async () => {
    const secret = generateSecret();
    await h.events.subscriptions.subscribe(subBody(receiver.url, secret));
    emitFinished(h);
    await receiver.waitFor(1);
    const [d] = receiver.events();
    assert.throws(() => new Webhook(secret).verify(d.raw.replace('"A"', '"B"'), d.headers), /No matching signature/);
  });

  it("is refused by Webhook.verify when the delivery was signed more than five minutes ago", async () => {
    const secret = generateSecret();
    await h.events.subscriptions.subscribe(subBody(receiver.url, secret));
    h.clock.now = new Date(Date.now() - 6 * 60 * 1000);
    emitFinished(h);
    await receiver.waitFor(1);
    const [d] = receiver.events();
    assert.throws(() => new Webhook(secret).verify(d.raw, d.headers), /too old/);
  });

  it("signs with the new secret once a subscription is refreshed with another one", async () => {
    const [oldSecret, newSecret] = [generateSecret(), generateSecret()];
    const first = await h.events.subscriptions.subscribe(subBody(receiver.url, oldSecret));
    const second = await h.events.subscriptions.subscribe(subBody(receiver.url, newSecret));
    assert.equal(second.id, first.id);
    emitFinished(h);
    await receiver.waitFor(1);
    const [d] = receiver.events();
    assert.ok(new Webhook(newSecret).verify(d.raw, d.headers));
    assert.throws(() => new Webhook(oldSecret).verify(d.raw, d.headers));
  });

  it("retries a failed delivery twice with the same eventId and records no failure when the third attempt succeeds", async () => {
    await h.events.subscriptions.subscribe(subBody(receiver.url, generateSecret()));
    receiver.respond = (_r, i) => ({ status: i < 3 ? 503 : 200 });
    emitFinished(h);
    await receiver.waitFor(3);
    await h.events.dispatcher.idle();
    const ids = receiver.events().map((d) => d.headers["webhook-id"]);
    assert.equal(ids.length, 3);
    assert.equal(new Set(ids).size, 1);
    assert.equal(new Set(receiver.events().map((d) => d.raw)).size, 1, "the body is identical on every retry");
    const sub = (await h.store.subscriptions.findSubscriptions("game.finished", {}, h.clock.now.toISOString()))[0];
    assert.equal(sub.failures, 0);
  });

  it("ends the subscription at once when the callback answers 410 Gone", async () => {
    await h.events.subscriptions.subscribe(subBody(receiver.url, generateSecret()));
    receiver.respond = () => ({ status: 410 });
    emitFinished(h);
    await h.events.dispatcher.idle();
    assert.equal(receiver.events().length, 1, "410 is not retried");
    assert.deepEqual(await h.store.subscriptions.findSubscriptions("game.finished", {}, h.clock.now.toISOString()), []);
  });

  it("drops a subscription after five failed events in a row and not before", async () => {
    await h.events.subscriptions.subscribe(subBody(receiver.url, generateSecret()));
    const live = () => h.store.subscriptions.findSubscriptions("game.finished", {}, h.clock.now.toISOString());
    receiver.respond = () => ({ status: 500 });
    for (let i = 1; i <= 4; i++) {
      emitFinished(h);
      await h.events.dispatcher.idle();
      assert.equal((await live())[0]?.failures, i);
    }
    emitFinished(h);
    await h.events.dispatcher.idle();
    assert.deepEqual(await live(), []);
    assert.equal(receiver.events().length, 15, "each failed event was tried three times");
  });

  it("resets the failure count when an event is delivered", async () => {
    await h.events.subscriptions.subscribe(subBody(receiver.url, generateSecret()));
    const live = () => h.store.subscriptions.findSubscriptions("game.finished", {}, h.clock.now.toISOString());
    receiver.respond = () => ({ status: 500 });
    emitFinished(h);
    emitFinished(h);
    await h.events.dispatcher.idle();
    assert.equal((await live())[0].failures, 2);
    receiver.respond = () => ({ status: 200 });
    emitFinished(h);
    await h.events.dispatcher.idle();
    assert.equal((await live())[0].failures, 0);
  });

  it("delivers only to subscriptions whose arguments match and that have not expired", async () => {
    await h.events.subscriptions.subscribe(subBody(receiver.url, generateSecret(), "game.finished", { game_id: "g2" }));
    await h.events.subscriptions.subscribe(subBody(receiver.url, generateSecret(), "game.finished", { game_id: "g1" }));
    emitFinished(h);
    await h.events.dispatcher.idle();
    assert.equal(receiver.events().length, 1);
    h.clock.now = new Date(h.clock.now.getTime() + 25 * 3600 * 1000);
    emitFinished(h);
    await h.events.dispatcher.idle();
    assert.equal(receiver.events().length, 1, "a subscription past refreshBefore gets nothing");
    assert.equal(await h.events.dispatcher.sweep(), 2);
  });

  it("refuses a private address at delivery time too when private addresses are not allowed", async () => {
    await h.events.subscriptions.subscribe(subBody(receiver.url, generateSecret()));
    const logger = recordingLogger();
    const guarded = new EventDispatcher({
      store: h.store.subscriptions,
      client: createCallbackClient({ allowPrivate: false, ca: testCert().cert }),
      logger,
      now: () => h.clock.now,
      retryDelaysMs: [],
    });
    guarded.emit({ name: "game.finished", match: { game_id: "g1" }, data: finished });
    await guarded.idle();
    await guarded.close();
    assert.equal(receiver.events().length, 0);
    assert.ok(logger.lines.some((l) => (l.obj as { why?: string }).why === "forbidden_address"));
  });
});
