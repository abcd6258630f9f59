/**
 * One subscriber must not degrade another's deliveries: an endless answer is cut off at a small cap, and a
 * slow receiver uses its own share of the delivery slots.
 */
import assert from "node:assert/strict";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { createCallbackClient, generateSecret, subscriptionKey } from "../../src/services/events/index";
import { echo, harness, startReceiver, subBody, testCert, type Harness, type Receiver } from "./helpers";

interface Endless {
  url: string;
  /** Bytes the server managed to hand to the connection before it was closed. */
  written(): number;
  closed: Promise<void>;
  close(): Promise<void>;
}

/** A callback that echoes verifications, then answers every event with 200 and a body that never ends. */
async function startEndless(): Promise<Endless> {
  const { key, cert } = testCert();
  let written = 0;
  let onClosed!: () => void;
  const closed = new Promise<void>((resolve) => (onClosed = resolve));
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  const server = https.createServer({ key, cert }, (req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => {
      const json = JSON.parse(Buffer.concat(parts).toString("utf8")) as { type?: string; challenge?: string };
      if (json.type === "verification") return void res.end(JSON.stringify({ challenge: json.challenge }));
      res.writeHead(200, { "content-type": "application/json" });
      res.on("close", onClosed);
      const pushMore = (): void => {
        while (!res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pushMore);
        }
      };
      pushMore();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}/hook`,
    written: () => written,
    closed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const MB = 1024 * 1024;

describe("Integration: webhook answers are read up to a cap", () => {
  let endless: Endless;
  beforeEach(async () => {
    endless = await startEndless();
  });
  afterEach(() => endless.close());

  it("closes the connection once an endless answer passes the cap, long before the deadline", async () => {
    const client = createCallbackClient({ allowPrivate: true, ca: testCert().cert, timeoutMs: 60_000 });
    const body = JSON.stringify({ eventId: "evt_1" });
    const res = await client.post(endless.url, body, {});
    await endless.closed;
    assert.equal(res.ok, true);
    assert.equal(res.ok && res.status, 200, "the status was read: the delivery counts as answered");
    assert.ok(res.ok && res.body.length <= 16 * 1024, "only the cap is kept");
    // What the server got rid of includes the kernel's socket buffers; reading to the deadline would be gigabytes.
    assert.ok(endless.written() < 32 * MB, `server wrote ${endless.written()} bytes before the close`);
  });

  it("delivers to another subscriber while an endless answer is being cut off", async () => {
    const h = await harness({ timeoutMs: 60_000 });
    const other = await startReceiver();
    try {
      await h.events.subscriptions.subscribe(subBody(endless.url, generateSecret()));
      await h.events.subscriptions.subscribe(subBody(other.url, generateSecret()));
      h.events.emit({ name: "game.finished", match: { game_id: "g1" }, data: {} });
      await other.waitFor(1);
      await endless.closed;
      await h.events.dispatcher.idle();
      assert.ok(endless.written() < 32 * MB);
    } finally {
      await h.close();
      await other.close();
    }
  });
});

describe("Integration: a slow subscriber uses a bounded share of the delivery slots, whatever host it shares", () => {
  let h: Harness;
  let slow: Receiver;
  let fast: Receiver;
  beforeEach(async () => {
    h = await harness();
    slow = await startReceiver();
    fast = await startReceiver();
  });
  afterEach(async () => {
    await h.close();
    await slow.close();
    await fast.close();
  });

  it("delivers a healthy subscription's events before any of 32 slow subscriptions of another subscriber on the same host has answered", async () => {
    await h.close();
    h = await harness({ timeoutMs: 10_000 });
    slow.respond = (r) => (r.json?.type === "verification" ? echo(r, 0) : { status: 204, delayMs: 4800 });
    // Same callback host (127.0.0.1) for both subscribers, as on a shared receiver platform; only the port differs.
    for (let i = 0; i < 32; i++) await h.events.subscriptions.subscribe(subBody(`https://127.0.0.1:${slow.port}/hook${i}`, generateSecret()));
    await h.events.subscriptions.subscribe(subBody(fast.url, generateSecret()));
    for (let i = 0; i < 3; i++) h.events.emit({ name: "game.finished", match: { game_id: "g1" }, data: { i } });
    await fast.waitFor(3, 15_000);
    assert.equal(slow.answered - 32, 0, "no slow delivery had been answered when the healthy one had all three");
    // The slow subscriptions now wait in the slow lane, which starts nothing while it holds more than its share.
    for (let i = 0; i < 300 && h.events.dispatcher.stats().slow.subscriptions < 32; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(h.events.dispatcher.stats().slow.subscriptions, 32, "every slow subscription, and only those, is in the slow lane");
    h.events.emit({ name: "game.finished", match: { game_id: "g1" }, data: { i: 3 } });
    await fast.waitFor(4, 15_000);
    assert.equal(slow.answered - 32, 0, "the fourth was not held behind the slow answers either");
    assert.ok(slow.events().length <= 32, `one POST in flight per slow subscription, none started once they were found slow (${slow.events().length})`);
  });

  it("counts answers slower than the latency budget against the subscription, reports them and drops it after five", async () => {
    await h.close();
    h = await harness({ latencyBudgetMs: 100 });
    slow.respond = (r) => (r.json?.type === "verification" ? echo(r, 0) : { status: 204, delayMs: 300 });
    await h.events.subscriptions.subscribe(subBody(slow.url, generateSecret()));
    const key = subscriptionKey("game.finished", { game_id: "g1" }, slow.url);
    for (let i = 0; i < 4; i++) {
      h.events.emit({ name: "game.finished", match: { game_id: "g1" }, data: { i } });
      await slow.waitFor(i + 1);
      await h.events.dispatcher.idle();
    }
    assert.equal((await h.store.subscriptions.getSubscriptionByKey(key))?.failures, 4);
    assert.equal(h.events.dispatcher.stats().overBudget, 4);
    assert.ok(h.logger.lines.some((l) => l.level === "warn" && /latency budget/.test(l.msg ?? "")));
    h.events.emit({ name: "game.finished", match: { game_id: "g1" }, data: { i: 4 } });
    await slow.waitFor(5);
    await h.events.dispatcher.idle();
    assert.equal(await h.store.subscriptions.getSubscriptionByKey(key), null, "dropped like a failing subscription");
  });
});
