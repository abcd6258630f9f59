/**
 * Knowing a callback URL is not enough to take its subscription: a new secret needs a verification the
 * receiver answers under that secret, and unsubscribing needs the subscription's id or its current secret.
 */
import assert from "node:assert/strict";
import { Webhook } from "standardwebhooks";
import { isAppError } from "../../src/errors";
import { generateSecret } from "../../src/events/index";
import { harness, startReceiver, subBody, type Harness, type Receiver, type Responder } from "./helpers";

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (isAppError(e)) return e.code;
    throw e;
  }
  return "ok";
}

/** A receiver as a careful subscriber writes it: it answers a verification only when signed with a secret it holds. */
const verifying = (secrets: string[]): Responder => (r) => {
  if (r.json?.type !== "verification") return { status: 204 };
  const signedByUs = secrets.some((s) => {
    try {
      new Webhook(s).verify(r.raw, r.headers);
      return true;
    } catch {
      return false;
    }
  });
  return signedByUs ? { status: 200, body: { challenge: r.json.challenge } } : { status: 401 };
};

const finished = (h: Harness) => h.events.emit({ name: "game.finished", match: { game_id: "g1" }, data: {} });

describe("Integration: a subscription belongs to whoever holds its secret", () => {
  let h: Harness;
  let receiver: Receiver;
  const mine = generateSecret();
  beforeEach(async () => {
    receiver = await startReceiver(verifying([mine]));
    h = await harness();
  });
  afterEach(async () => {
    await h.close();
    await receiver.close();
  });

  it("refuses to replace the secret when the receiver does not answer a verification signed with the new one", async () => {
    await h.events.subscriptions.subscribe(subBody(receiver.url, mine));
    const verifications = receiver.received.length;
    assert.equal(await code(h.events.subscriptions.subscribe(subBody(receiver.url, generateSecret()))), "callback_refused");
    assert.equal(receiver.received.length, verifications + 1, "the URL verified today was asked again, under the new secret");
    finished(h);
    await receiver.waitFor(1);
    assert.ok(new Webhook(mine).verify(receiver.events()[0].raw, receiver.events()[0].headers), "still signed with the receiver's secret");
  });

  it("replaces the secret once the receiver answers a verification signed with the new one", async () => {
    await h.events.subscriptions.subscribe(subBody(receiver.url, mine));
    const next = generateSecret();
    receiver.respond = verifying([mine, next]);
    await h.events.subscriptions.subscribe(subBody(receiver.url, next));
    finished(h);
    await receiver.waitFor(1);
    assert.ok(new Webhook(next).verify(receiver.events()[0].raw, receiver.events()[0].headers));
  });

  it("refreshes with the same secret without asking the receiver again", async () => {
    await h.events.subscriptions.subscribe(subBody(receiver.url, mine));
    const verifications = receiver.received.length;
    await h.events.subscriptions.subscribe(subBody(receiver.url, mine));
    assert.equal(receiver.received.length, verifications);
  });

  it("refuses an unsubscribe that names the triple without the id or the current secret, and removes nothing", async () => {
    const { id } = await h.events.subscriptions.subscribe(subBody(receiver.url, mine));
    const triple = { name: "game.finished", arguments: { game_id: "g1" } };
    assert.equal(await code(h.events.subscriptions.unsubscribe({ ...triple, delivery: { url: receiver.url } })), "forbidden");
    assert.equal(await code(h.events.subscriptions.unsubscribe({ ...triple, id: "sub_someone_else", delivery: { url: receiver.url } })), "forbidden");
    const other = { ...triple, delivery: { mode: "webhook", url: receiver.url, secret: generateSecret() } };
    assert.equal(await code(h.events.subscriptions.unsubscribe(other)), "forbidden");
    finished(h);
    await receiver.waitFor(1);
    assert.deepEqual(await h.events.subscriptions.unsubscribe({ ...triple, id, delivery: { url: receiver.url } }), { ok: true, removed: true });
  });

  it("removes a subscription named the way it was made, secret included", async () => {
    await h.events.subscriptions.subscribe(subBody(receiver.url, mine));
    assert.deepEqual(await h.events.subscriptions.unsubscribe(subBody(receiver.url, mine)), { ok: true, removed: true });
    assert.deepEqual(await h.events.subscriptions.unsubscribe(subBody(receiver.url, mine)), { ok: true, removed: false });
  });
});
