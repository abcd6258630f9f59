/**
 * A loopback callback on a server that refuses private addresses: the problem document says which setting and
 * which tool make local development work, so a first try against one's own machine is not a dead end.
 */
import assert from "node:assert/strict";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { jsonBody } from "../../src/edges/api";
import { errorHandler } from "../../src/edges/api/problem";
import { eventsRouter } from "../../src/edges/api/routes/events";
import { generateSecret } from "../../src/services/events/index";
import { createLogger } from "../../src/shared/logger";
import { harness, startReceiver, subBody, type Harness, type Receiver } from "./helpers";

describe("Integration: a refused loopback callback names the local-development setting", () => {
  let h: Harness;
  let receiver: Receiver;
  let server: Server;
  let base: string;
  before(async () => {
    receiver = await startReceiver();
    h = await harness({ config: { webhookAllowPrivate: false } });
    const app = express();
    app.use("/api/v1", jsonBody(), eventsRouter({ subscriptions: h.events.subscriptions }));
    app.use(errorHandler(createLogger("silent"), "http://127.0.0.1"));
    server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  });
  after(async () => {
    await new Promise((r) => server.close(r));
    await h.close();
    await receiver.close();
  });

  const subscribe = async (url: string) => {
    const res = await fetch(`${base}/games/events/subscribe`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(subBody(url, generateSecret())),
    });
    return { status: res.status, type: res.headers.get("content-type"), body: (await res.json()) as { code: string; reason: string; detail: string } };
  };

  for (const host of ["127.0.0.1", "localhost", "[::1]", "[fe80::1%25lo]"]) {
    it(`answers forbidden_address for ${host} with WEBHOOK_ALLOW_PRIVATE=true and npm run webhooks:listen in the detail`, async () => {
      const { status, type, body } = await subscribe(`https://${host}:${receiver.port}/hook`);
      assert.equal(status, 422);
      assert.match(type ?? "", /application\/problem\+json/);
      assert.equal(body.code, "callback_refused");
      assert.equal(body.reason, "forbidden_address");
      assert.match(body.detail, /not a public address|forbidden address/);
      assert.match(body.detail, /WEBHOOK_ALLOW_PRIVATE=true/);
      assert.match(body.detail, /npm run webhooks:listen/);
    });
  }

  it("says nothing about local development for a refusal that is not about the address", async () => {
    const { body } = await subscribe(`http://example.com/hook`);
    assert.equal(body.reason, "not_https");
    assert.doesNotMatch(body.detail, /WEBHOOK_ALLOW_PRIVATE/);
  });

  it("never reached the receiver", () => assert.equal(receiver.received.length, 0));
});
