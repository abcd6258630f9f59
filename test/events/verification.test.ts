import assert from "node:assert/strict";
import { Webhook } from "standardwebhooks";
import { isAppError } from "../../src/shared/errors";
import { generateSecret } from "../../src/services/events/index";
import { closedPort, harness, startReceiver, subBody, type Harness, type Receiver } from "./helpers";

describe("Integration: callback verification", () => {
  let h: Harness;
  let receiver: Receiver;
  beforeEach(async () => {
    receiver = await startReceiver();
    h = await harness({ timeoutMs: 300 });
  });
  afterEach(async () => {
    await h.close();
    await receiver.close();
  });

  async function refusal(body: unknown): Promise<{ reason: unknown; status: number }> {
    try {
      await h.events.subscriptions.subscribe(body);
    } catch (e) {
      assert.ok(isAppError(e) && e.code === "callback_refused", String(e));
      return { reason: e.extra.reason, status: e.status };
    }
    assert.fail("subscribe was expected to be refused");
  }

  it("sends a signed single-use challenge and creates the subscription when it is echoed", async () => {
    const secret = generateSecret();
    const res = await h.events.subscriptions.subscribe(subBody(receiver.url, secret));
    assert.match(res.id, /^sub_/);
    const [v] = receiver.received;
    assert.equal(v.json.type, "verification");
    assert.ok(typeof v.json.challenge === "string" && v.json.challenge.length >= 32);
    assert.deepEqual(new Webhook(secret).verify(v.raw, v.headers), v.json);
    assert.equal(v.headers["x-mcp-subscription-id"], res.id);

    await h.events.subscriptions.subscribe(subBody(receiver.url, secret, "game.started"));
    assert.equal(receiver.received.length, 1, "the URL passed a moment ago and is not asked again");
  });

  it("uses a different challenge each time a URL is verified", async () => {
    await h.events.subscriptions.subscribe(subBody(receiver.url, generateSecret()));
    h.clock.now = new Date(h.clock.now.getTime() + 24 * 3600 * 1000 + 1);
    await h.events.subscriptions.subscribe(subBody(receiver.url, generateSecret(), "game.move"));
    assert.equal(receiver.received.length, 2, "a verification older than a day is asked again");
    assert.notEqual(receiver.received[0].json.challenge, receiver.received[1].json.challenge);
  });

  it("refuses with challenge_failed when the answer echoes another challenge", async () => {
    receiver.respond = () => ({ status: 200, body: { challenge: "something else" } });
    assert.deepEqual(await refusal(subBody(receiver.url, generateSecret())), { reason: "challenge_failed", status: 422 });
  });

  it("refuses with challenge_failed when the answer is not JSON", async () => {
    receiver.respond = () => ({ status: 200, body: "ok" });
    assert.equal((await refusal(subBody(receiver.url, generateSecret()))).reason, "challenge_failed");
  });

  it("refuses with bad_status when the callback answers 500 even with the challenge", async () => {
    receiver.respond = (r) => ({ status: 500, body: { challenge: r.json.challenge } });
    assert.equal((await refusal(subBody(receiver.url, generateSecret()))).reason, "bad_status");
  });

  it("refuses with timeout when the callback answers too late", async () => {
    receiver.respond = (r) => ({ status: 200, body: { challenge: r.json.challenge }, delayMs: 1000 });
    assert.equal((await refusal(subBody(receiver.url, generateSecret()))).reason, "timeout");
  });

  it("refuses with unreachable when nothing listens on the port", async () => {
    const url = `https://127.0.0.1:${await closedPort()}/hook`;
    assert.equal((await refusal(subBody(url, generateSecret()))).reason, "unreachable");
  });

  it("refuses with unreachable when the certificate is not trusted", async () => {
    const strict = await harness({ ca: undefined });
    try {
      await assert.rejects(strict.events.subscriptions.subscribe(subBody(receiver.url, generateSecret())), (e: unknown) => {
        assert.ok(isAppError(e) && e.extra.reason === "unreachable");
        return true;
      });
    } finally {
      await strict.close();
    }
  });

  it("refuses with not_https before any request when the URL is http", async () => {
    const url = `http://127.0.0.1:${receiver.port}/hook`;
    assert.equal((await refusal(subBody(url, generateSecret()))).reason, "not_https");
    assert.equal(receiver.received.length, 0);
  });

  it("stores nothing when verification fails", async () => {
    receiver.respond = () => ({ status: 404 });
    await refusal(subBody(receiver.url, generateSecret()));
    assert.equal(await h.store.subscriptions.urlVerifiedAt(receiver.url), null);
    assert.deepEqual(await h.store.subscriptions.findSubscriptions("game.finished", {}, h.clock.now.toISOString()), []);
  });
});
