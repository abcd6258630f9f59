import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { AppError, isAppError } from "../../src/shared/errors";
import { generateSecret, type CurrentState } from "../../src/services/events/index";
import { openStore } from "../../src/store/index";
import { harness, startReceiver, subBody, type Harness, type Receiver } from "./helpers";

const DAY = 24 * 3600 * 1000;

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (isAppError(e)) return e.code;
    throw e;
  }
  return "ok";
}

describe("Integration: subscribe and unsubscribe", () => {
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

  it("grants 24 hours when no ttlMs is given and clamps a request above 7 days to 7 days", async () => {
    const a = await h.events.subscriptions.subscribe(subBody(receiver.url, generateSecret()));
    assert.equal(Date.parse(a.refreshBefore) - h.clock.now.getTime(), DAY);
    const b = await h.events.subscriptions.subscribe({ ...subBody(receiver.url, generateSecret()), ttlMs: 30 * DAY });
    assert.equal(Date.parse(b.refreshBefore) - h.clock.now.getTime(), 7 * DAY);
    const c = await h.events.subscriptions.subscribe({ ...subBody(receiver.url, generateSecret()), ttlMs: 3600_000 });
    assert.equal(Date.parse(c.refreshBefore) - h.clock.now.getTime(), 3600_000);
  });

  it("refreshes the lifetime and keeps the id when the same triple subscribes again", async () => {
    const a = await h.events.subscriptions.subscribe(subBody(receiver.url, generateSecret()));
    h.clock.now = new Date(h.clock.now.getTime() + 3600_000);
    const b = await h.events.subscriptions.subscribe(subBody(receiver.url, generateSecret()));
    assert.equal(b.id, a.id);
    assert.equal(Date.parse(b.refreshBefore) - Date.parse(a.refreshBefore), 3600_000);
  });

  it("treats the same URL spelled differently (scheme case, fragment) as the same subscription", async () => {
    const url = receiver.url.replace("/hook", "/hook#frag").replace("https://", "HTTPS://");
    const a = await h.events.subscriptions.subscribe(subBody(receiver.url, generateSecret()));
    const b = await h.events.subscriptions.subscribe(subBody(url, generateSecret()));
    assert.equal(b.id, a.id);
  });

  it("answers bad_request for malformed bodies, unknown events, extra arguments and bad secrets", async () => {
    const s = h.events.subscriptions;
    const ok = subBody(receiver.url, generateSecret());
    const cases: unknown[] = [
      undefined,
      { ...ok, name: "game.nope" },
      { ...ok, arguments: { game_id: "g1", extra: 1 } },
      { ...ok, arguments: {} },
      { ...ok, delivery: { ...ok.delivery, mode: "email" } },
      { ...ok, delivery: { ...ok.delivery, url: "not a url" } },
      { ...ok, delivery: { ...ok.delivery, secret: "abc" } },
      { ...ok, delivery: { ...ok.delivery, secret: generateSecret(16) } },
      { ...ok, delivery: { ...ok.delivery, secret: generateSecret(65) } },
      { ...ok, delivery: { ...ok.delivery, secret: generateSecret(32).replace("whsec_", "") } },
      { ...ok, ttlMs: 0 },
      { ...ok, ttlMs: 1.5 },
    ];
    for (const body of cases) assert.equal(await code(s.subscribe(body)), "bad_request", JSON.stringify(body));
    assert.equal(await code(s.subscribe({ ...ok, delivery: { ...ok.delivery, secret: generateSecret(24) } })), "ok");
    assert.equal(await code(s.subscribe({ ...ok, delivery: { ...ok.delivery, secret: generateSecret(64) } })), "ok");
  });

  it("answers removed true then removed false when the same subscription is unsubscribed twice", async () => {
    const { id } = await h.events.subscriptions.subscribe(subBody(receiver.url, generateSecret()));
    const body = { id, name: "game.finished", arguments: { game_id: "g1" }, delivery: { url: receiver.url } };
    assert.deepEqual(await h.events.subscriptions.unsubscribe(body), { ok: true, removed: true });
    assert.deepEqual(await h.events.subscriptions.unsubscribe(body), { ok: true, removed: false });
    h.events.emit({ name: "game.finished", match: { game_id: "g1" }, data: {} });
    await h.events.dispatcher.idle();
    assert.equal(receiver.events().length, 0);
  });

  it("answers removed false when unsubscribing something never subscribed", async () => {
    const body = { name: "game.move", arguments: { game_id: "zzz" }, delivery: { url: "https://example.com/x" } };
    assert.deepEqual(await h.events.subscriptions.unsubscribe(body), { ok: true, removed: false });
    assert.equal(await code(h.events.subscriptions.unsubscribe({ name: "game.move" })), "bad_request");
  });
});

describe("Integration: game.turn subscriptions and the player token", () => {
  const TOKEN = "pt_" + "s3cr3t".repeat(6);
  let receiver: Receiver;
  let dir: string;
  before(async () => {
    receiver = await startReceiver();
    dir = mkdtempSync(join(tmpdir(), "events-store-"));
  });
  after(async () => {
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const resolveSeat = async (gameId: string, token: string | undefined) => {
    if (gameId !== "g1") throw new AppError("not_found", "no such game");
    return token === TOKEN ? ("B" as const) : null;
  };
  const turnBody = (token: string, gameId = "g1") => subBody(receiver.url, generateSecret(), "game.turn", { game_id: gameId, player_token: token });

  it("never stores, passes to the store, or logs the player token", async () => {
    const file = join(dir, "arena.sqlite");
    const real = await openStore({ database: file });
    const seen: string[] = [];
    const spySubscriptions = new Proxy(real.subscriptions, {
      get(target, prop, recv) {
        const v = Reflect.get(target, prop, recv);
        return typeof v === "function" ? (...args: unknown[]) => (seen.push(JSON.stringify(args) ?? ""), v.apply(target, args)) : v;
      },
    });
    const spy = new Proxy(real, {
      get: (target, prop, recv) => (prop === "subscriptions" ? spySubscriptions : Reflect.get(target, prop, recv)),
    });
    const h = await harness({ store: spy, resolveSeat });
    try {
      const { id } = await h.events.subscriptions.subscribe(turnBody(TOKEN));
      const rec = (await real.subscriptions.findSubscriptions("game.turn", { game_id: "g1" }, h.clock.now.toISOString()))[0];
      assert.equal(rec.id, id);
      assert.deepEqual(rec.arguments, { game_id: "g1", seat: "B" });
      await h.events.subscriptions.unsubscribe({ id, name: "game.turn", arguments: { game_id: "g1", player_token: TOKEN }, delivery: { url: receiver.url } });
      await h.events.subscriptions.subscribe(turnBody(TOKEN));
      assert.ok(seen.length > 0);
      assert.ok(
        seen.every((s) => !s.includes("s3cr3t")),
        "the token reached the store port",
      );
      assert.ok(
        h.logger.lines.every((l) => !JSON.stringify(l).includes("s3cr3t")),
        "the token was logged",
      );
      const db = new Database(file, { readonly: true });
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>;
      const dump = JSON.stringify(tables.map((t) => db.prepare(`SELECT * FROM "${t.name}"`).all()));
      db.close();
      assert.ok(dump.includes('"seat\\":\\"B\\"'), "the seat is what is stored");
      assert.ok(!dump.includes("s3cr3t"), "the token is in a stored row");
    } finally {
      await h.close();
    }
  });

  it("answers unauthorized for a wrong token and not_found for an unknown game", async () => {
    const h = await harness({ resolveSeat });
    try {
      assert.equal(await code(h.events.subscriptions.subscribe(turnBody("pt_wrong"))), "unauthorized");
      assert.equal(await code(h.events.subscriptions.subscribe(turnBody(TOKEN, "nope"))), "not_found");
      const unsub = (token: string) =>
        h.events.subscriptions.unsubscribe({ name: "game.turn", arguments: { game_id: "g1", player_token: token }, delivery: { url: receiver.url } });
      assert.equal(await code(unsub("pt_wrong")), "unauthorized");
    } finally {
      await h.close();
    }
  });

  it("fires at once when it is the seat's turn already and reports the cursor", async () => {
    const data = {
      game_id: "g1",
      seat: "B",
      your_turn: true,
      status: "active",
      move_count: 3,
      last_move: "E7@b3",
      score: { A: 2, B: 1 },
      winner: null,
      url: "https://arena.example/watch/g1",
    };
    const currentState: CurrentState = async (name, args) => {
      assert.equal(name, "game.turn");
      assert.deepEqual(args, { game_id: "g1", seat: "B" });
      return { cursor: 3, events: [{ data, sequence: 3 }] };
    };
    const h = await harness({ resolveSeat, currentState });
    try {
      const before = receiver.events().length;
      const res = await h.events.subscriptions.subscribe(turnBody(TOKEN));
      assert.equal(res.cursor, "3");
      assert.equal(res.truncated, true);
      await receiver.waitFor(before + 1);
      const d = receiver.events().at(-1)!;
      assert.deepEqual(d.json.data, data);
      assert.equal(d.json.cursor, "3");
      const again = await h.events.subscriptions.subscribe(turnBody(TOKEN));
      assert.equal(again.truncated, false, "a refresh does not fire again");
      await h.events.dispatcher.idle();
      assert.equal(receiver.events().length, before + 1);
    } finally {
      await h.close();
    }
  });
});

describe("Integration: game.move starts after the moves already played", () => {
  let receiver: Receiver;
  let h: Harness;
  before(async () => {
    receiver = await startReceiver();
    h = await harness({ currentState: async () => ({ cursor: 4, events: [] }) });
  });
  after(async () => {
    await h.close();
    await receiver.close();
  });

  const move = (n: number) => ({ name: "game.move" as const, match: { game_id: "g1" }, data: { game_id: "g1", move_index: n - 1 }, sequence: n });

  it("answers the move count as cursor and skips moves at or before it", async () => {
    const res = await h.events.subscriptions.subscribe(subBody(receiver.url, generateSecret(), "game.move"));
    assert.deepEqual([res.cursor, res.truncated], ["4", true]);
    for (const n of [3, 4, 5, 5, 6]) h.events.emit(move(n));
    await h.events.dispatcher.idle();
    assert.deepEqual(
      receiver.events().map((d) => d.json.cursor),
      ["5", "6"],
    );
    assert.deepEqual(
      receiver.events().map((d) => d.json.data.move_index),
      [4, 5],
    );
    const refreshed = await h.events.subscriptions.subscribe(subBody(receiver.url, generateSecret(), "game.move"));
    assert.deepEqual([refreshed.cursor, refreshed.truncated], ["6", false]);
  });

  it("answers cursor null and truncated false for an event without a stream", async () => {
    const plain = await harness();
    try {
      const res = await plain.events.subscriptions.subscribe(subBody(receiver.url, generateSecret(), "challenge.played", { token: "ch_1" }));
      assert.deepEqual([res.cursor, res.truncated], [null, false]);
    } finally {
      await plain.close();
    }
  });

  it("removes the new subscription when the current state says the game does not exist", async () => {
    const missing = await harness({
      currentState: async () => {
        throw new AppError("not_found", "no such game");
      },
    });
    try {
      assert.equal(await code(missing.events.subscriptions.subscribe(subBody(receiver.url, generateSecret(), "game.started", { game_id: "x" }))), "not_found");
      assert.deepEqual(await missing.store.subscriptions.findSubscriptions("game.started", {}, missing.clock.now.toISOString()), []);
    } finally {
      await missing.close();
    }
  });
});
