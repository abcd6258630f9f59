/**
 * Knowing a callback URL is not enough to take its subscription's deliveries: a new secret needs a
 * verification the receiver answers under that secret. Ending it needs only the triple (event, arguments,
 * URL), as the interface specification says; the subscriber's periodic refresh restores it.
 */
import assert from "node:assert/strict";
import { Webhook } from "standardwebhooks";
import { isAppError } from "../../src/shared/errors";
import { generateSecret } from "../../src/services/events/index";
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
const verifying =
  (secrets: string[]): Responder =>
  (r) => {
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

  it("ends a subscription named by the triple alone, as the interface specification says, and delivers nothing after", async () => {
    await h.events.subscriptions.subscribe(subBody(receiver.url, mine));
    const triple = { name: "game.finished", arguments: { game_id: "g1" }, delivery: { url: receiver.url } };
    finished(h);
    await receiver.waitFor(1);
    await h.events.dispatcher.idle();
    assert.deepEqual(await h.events.subscriptions.unsubscribe(triple), { ok: true, removed: true });
    assert.deepEqual(await h.events.subscriptions.unsubscribe(triple), { ok: true, removed: false }, "200 whether or not it existed");
    finished(h);
    await h.events.dispatcher.idle();
    assert.equal(receiver.events().length, 1, "no delivery after the unsubscribe");
    // The subscriber's periodic refresh brings it back, under its own secret.
    await h.events.subscriptions.subscribe(subBody(receiver.url, mine));
    finished(h);
    await receiver.waitFor(2);
    assert.ok(new Webhook(mine).verify(receiver.events()[1].raw, receiver.events()[1].headers));
  });

  it("accepts an id or a secret sent with the triple, whichever subscription they belonged to", async () => {
    const triple = { name: "game.finished", arguments: { game_id: "g1" } };
    for (const extra of [{ id: "sub_someone_else" }, { delivery: { mode: "webhook", url: receiver.url, secret: generateSecret() } }]) {
      await h.events.subscriptions.subscribe(subBody(receiver.url, mine));
      assert.deepEqual(await h.events.subscriptions.unsubscribe({ ...triple, delivery: { url: receiver.url }, ...extra }), { ok: true, removed: true });
    }
  });

  it("removes a subscription named the way it was made, secret included", async () => {
    await h.events.subscriptions.subscribe(subBody(receiver.url, mine));
    assert.deepEqual(await h.events.subscriptions.unsubscribe(subBody(receiver.url, mine)), { ok: true, removed: true });
    assert.deepEqual(await h.events.subscriptions.unsubscribe(subBody(receiver.url, mine)), { ok: true, removed: false });
  });
});
