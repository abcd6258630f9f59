import assert from "node:assert/strict";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { Webhook } from "standardwebhooks";
import { jsonBody } from "../../src/edges/api";
import { errorHandler } from "../../src/edges/api/problem";
import { eventsRouter } from "../../src/edges/api/routes/events";
import { generateSecret } from "../../src/services/events/index";
import { createLogger } from "../../src/shared/logger";
import { harness, startReceiver, subBody, type Harness, type Receiver } from "./helpers";

describe("Integration: events routes", () => {
  let h: Harness;
  let receiver: Receiver;
  let server: Server;
  let base: string;
  before(async () => {
    receiver = await startReceiver();
    h = await harness();
    const app = express();
    // The API's own body parser and problem renderer, as src/edges/api mounts them around every router.
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

  const post = (path: string, body: unknown, raw = false) =>
    fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: raw ? (body as string) : JSON.stringify(body) });

  it("lists the eight events with their data schemas when the catalog is requested", async () => {
    const res = await fetch(`${base}/games/events`);
    assert.equal(res.status, 200);
    const { events } = (await res.json()) as { events: Array<{ name: string; data: { properties: Record<string, unknown> } }> };
    assert.deepEqual(
      events.map((e) => e.name),
      [
        "game.turn",
        "game.started",
        "game.move",
        "game.finished",
        "challenge.played",
        "tournament.started",
        "tournament.paired",
        "tournament.finished",
        "league.finished",
      ],
    );
    assert.deepEqual(Object.keys(events[0].data.properties), ["game_id", "seat", "your_turn", "status", "move_count", "last_move", "score", "winner", "url"]);
  });

  it("answers 201 with id, refreshBefore, cursor and truncated when the callback passes", async () => {
    const secret = generateSecret();
    const res = await post("/games/events/subscribe", subBody(receiver.url, secret));
    assert.equal(res.status, 201);
    const body = (await res.json()) as Record<string, unknown>;
    assert.deepEqual(Object.keys(body).sort(), ["cursor", "id", "refreshBefore", "truncated"]);
    assert.match(body.id as string, /^sub_/);
    assert.equal(body.cursor, null);
    assert.equal(body.truncated, false);
    const verification = receiver.received.find((r) => r.json.type === "verification")!;
    assert.ok(new Webhook(secret).verify(verification.raw, verification.headers));
  });

  it("answers 422 callback_refused with a reason when verification fails", async () => {
    receiver.respond = () => ({ status: 200, body: { challenge: "nope" } });
    try {
      const res = await post("/games/events/subscribe", subBody(receiver.url.replace("/hook", "/other"), generateSecret()));
      assert.equal(res.status, 422);
      const body = (await res.json()) as Record<string, unknown>;
      assert.equal(body.code, "callback_refused");
      assert.equal(body.reason, "challenge_failed");
    } finally {
      receiver.respond = (r) => (r.json?.type === "verification" ? { status: 200, body: { challenge: r.json.challenge } } : { status: 204 });
    }
  });

  it("answers 400 bad_request with a readable detail when the body is invalid or not JSON", async () => {
    const bad = await post("/games/events/subscribe", { name: "game.finished" });
    assert.equal(bad.status, 400);
    const body = (await bad.json()) as { code: string; detail: string };
    assert.equal(body.code, "bad_request");
    assert.match(body.detail, /arguments/);
    const notJson = await post("/games/events/subscribe", "{nope", true);
    assert.equal(notJson.status, 400);
    assert.equal(((await notJson.json()) as { code: string }).code, "bad_request");
  });

  it("answers 200 with ok and removed on every unsubscribe of the same triple, with no id or secret", async () => {
    await post("/games/events/subscribe", subBody(receiver.url, generateSecret(), "game.started"));
    const body = { name: "game.started", arguments: { game_id: "g1" }, delivery: { url: receiver.url } };
    const first = await post("/games/events/unsubscribe", body);
    assert.equal(first.status, 200);
    assert.deepEqual(await first.json(), { ok: true, removed: true });
    const second = await post("/games/events/unsubscribe", body);
    assert.equal(second.status, 200);
    assert.deepEqual(await second.json(), { ok: true, removed: false });
  });
});
