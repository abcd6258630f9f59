/**
 * Bot accounts end to end on a real server: register, play a rated game under the bot's one profile, a
 * bot-vs-bot friend game, per-key limits beside the per-address one, a revoked key refused, and registrations
 * and open streams bounded per address.
 */
import { strict as assert } from "node:assert";
import type { RunningServer } from "../../src/server";
import { playToEnd, waitForJson } from "../agents/play";
import { openStream } from "../support/ndjson";
import { bearer, bootServer, eventually, http } from "../support/server";

let server: RunningServer;

async function register(name: string) {
  const r = await http(server.url, "POST", "/api/v1/bots", { name, owner: "ops@example.org" });
  assert.equal(r.status, 201, r.text);
  assert.match(r.json.key, /^bk_/);
  assert.match(r.json.bot.id, /^BOT-/);
  return r.json as { key: string; bot: { id: string; name: string } };
}

describe("Integration: bot accounts", function () {
  this.timeout(60_000);
  before(async () => (server = await bootServer()));
  after(async () => server?.close());

  it("registers a bot whose key is shown once and stored hashed, and reads it back with the key", async () => {
    const { key, bot } = await register("Hashed");
    const me = await http(server.url, "GET", "/api/v1/bots/me", undefined, bearer(key));
    assert.equal(me.status, 200);
    assert.equal(me.json.id, bot.id);
    assert.equal(me.json.player.kind, "bot");
    assert.equal(me.json.key, undefined);
    const stored = await server.store.bots.getBot(bot.id);
    assert.ok(stored && stored.keyHash !== key && !JSON.stringify(stored).includes(key), "only a hash of the key is stored");
    assert.equal((await http(server.url, "POST", "/api/v1/bots", { name: "" })).status, 400);
  });

  it("plays a rated house game under the bot's one profile, marked as a bot", async () => {
    const { key, bot } = await register("Ranked");
    const created = await http(server.url, "POST", "/api/v1/games", { opponent: "house", level: "easy" }, bearer(key));
    assert.equal(created.status, 201, created.text);
    assert.equal(created.json.player.id, bot.id);
    assert.equal(created.json.player.secret, undefined, "no new guest secret: the bot plays as itself");
    const seat = created.json.seat as "A" | "B";
    assert.equal(created.json.game.players[seat].kind, "bot");
    const end = await playToEnd(server.url, created.json.game.id, created.json.playerToken);
    assert.ok(["win", "loss", "draw"].includes(end.result));
    const profile = await waitForJson(server.url, `/api/v1/players/${bot.id}`, (j) => j.player.games === 1);
    assert.equal(profile.player.kind, "bot");
    const again = await http(server.url, "POST", "/api/v1/games", { opponent: "house", level: "easy" }, bearer(key));
    assert.equal(again.json.player.id, bot.id, "the same profile every game");
    const both = await http(server.url, "POST", "/api/v1/games", { opponent: "house", player: { id: bot.id, secret: "ps_whatever-secret" } }, bearer(key));
    assert.equal(both.status, 400);
  });

  it("lets a bot join another bot's friend game with its invite code, both seats marked as bots", async () => {
    const one = await register("Inviter");
    const two = await register("Invitee");
    const created = await http(server.url, "POST", "/api/v1/games", { opponent: "friend" }, bearer(one.key));
    const joined = await http(server.url, "POST", "/api/v1/games/join", { code: created.json.code }, bearer(two.key));
    assert.equal(joined.status, 200, joined.text);
    assert.equal(joined.json.player.id, two.bot.id);
    const players = joined.json.game.players;
    assert.deepEqual([players.A.kind, players.B.kind], ["bot", "bot"]);
    assert.deepEqual(new Set([players.A.id, players.B.id]), new Set([one.bot.id, two.bot.id]));
  });

  it("refuses a revoked key everywhere while the bot and its profile stay", async () => {
    const { key, bot } = await register("Retired");
    const revoked = await http(server.url, "DELETE", "/api/v1/bots/me", undefined, bearer(key));
    assert.equal(revoked.status, 200);
    const create = await http(server.url, "POST", "/api/v1/games", { opponent: "house" }, bearer(key));
    assert.equal(create.status, 401);
    assert.match(create.json.detail, /revoked/);
    assert.equal((await http(server.url, "GET", "/api/v1/bots/me", undefined, bearer(key))).status, 401);
    const asSecret = await http(server.url, "POST", "/api/v1/games", { opponent: "house", player: { id: bot.id, secret: key } });
    assert.equal(asSecret.status, 401, "the key no longer works as the profile's secret either");
    assert.equal((await http(server.url, "GET", `/api/v1/bots/${bot.id}`)).json.revoked, true);
    assert.equal((await http(server.url, "GET", "/api/v1/bots/BOT-NOSUCH")).status, 404);
  });
});

describe("Integration: bot rate limits", function () {
  this.timeout(60_000);
  // 120 requests per minute scaled to 6, per policy: small enough to run a bucket out in a test. The
  // registrations per address are raised to stay clear of that scale: this test is about keyed requests.
  before(async () => (server = await bootServer({ rateLimitScale: 0.05, botRegistrations: { perAddress: 1000, windowMs: 3600_000 } })));
  after(async () => server?.close());

  it("counts keyed requests per key: one bot's exhausted limit leaves another bot and the address alone", async () => {
    const one = await register("Greedy");
    const two = await register("Patient");
    let status = 200;
    for (let i = 0; i < 10 && status === 200; i++) status = (await http(server.url, "GET", "/api/v1/bots/me", undefined, bearer(one.key))).status;
    assert.equal(status, 429);
    const refused = await http(server.url, "GET", "/api/v1/bots/me", undefined, bearer(one.key));
    assert.match(refused.json.detail, /for this bot key/);
    assert.equal((await http(server.url, "GET", "/api/v1/bots/me", undefined, bearer(two.key))).status, 200);
    assert.equal((await http(server.url, "GET", "/api/v1/rules/3")).status, 200);
    // A made-up key gets no bucket of its own: it is counted against the address, then refused.
    assert.equal((await http(server.url, "GET", "/api/v1/bots/me", undefined, bearer("bk_madeupmadeupmadeup"))).status, 401);
  });
});

describe("Integration: bot registrations and streams per address", function () {
  this.timeout(60_000);
  // One proxy trusted: X-Forwarded-For names the client address. 3 registrations per hour and 4 streams per address.
  before(
    async () =>
      (server = await bootServer({ trustProxy: 1, rateLimitScale: 1, botRegistrations: { perAddress: 3, windowMs: 3600_000 }, streamsPerAddress: 4 })),
  );
  after(async () => server?.close());

  const from = (address: string) => ({ "x-forwarded-for": address });
  const registerFrom = (address: string, body: unknown = { name: "Many" }) => http(server.url, "POST", "/api/v1/bots", body, from(address));

  it("refuses a registration past the address's budget with a 429 problem, and counts only registrations made", async () => {
    // Refused bodies spend nothing.
    for (let i = 0; i < 4; i++) assert.equal((await registerFrom("10.8.0.1", { name: "" })).status, 400);
    const made = [];
    for (let i = 0; i < 3; i++) made.push((await registerFrom("10.8.0.1")).status);
    assert.deepEqual(made, [201, 201, 201]);
    const refused = await registerFrom("10.8.0.1");
    assert.equal(refused.status, 429, refused.text);
    assert.match(refused.headers.get("content-type") ?? "", /application\/problem\+json/);
    assert.equal(refused.json.status, 429);
    assert.match(refused.json.detail, /more than 3 bots registered from this address/);
    assert.ok(Number(refused.headers.get("retry-after")) > 0, "Retry-After says when to come back");
    assert.equal((await registerFrom("10.8.0.2")).status, 201, "another address has its own budget");
  });

  it("bounds the streams one address holds open, event and game streams together, whatever keys it uses", async () => {
    const keys = [];
    for (const address of ["10.8.1.1", "10.8.1.2", "10.8.1.3"]) keys.push((await registerFrom(address)).json.key as string);
    const events = (key: string, address: string) => openStream(`${server.url}/api/v1/stream/events`, { ...bearer(key), ...from(address) });
    const open = [await events(keys[0], "10.8.2.1"), await events(keys[0], "10.8.2.1"), await events(keys[1], "10.8.2.1"), await events(keys[1], "10.8.2.1")];
    assert.deepEqual(
      open.map((s) => s.res.status),
      [200, 200, 200, 200],
    );
    const refused = await events(keys[2], "10.8.2.1");
    assert.equal(refused.res.status, 429);
    const problem = await refused.res.json();
    assert.match(problem.detail, /this address already has 4 streams open/);
    const game = await http(server.url, "POST", "/api/v1/games", { opponent: "house" }, from("10.8.3.1"));
    assert.equal((await openStream(`${server.url}/api/v1/stream/games/${game.json.game.id}`, from("10.8.2.1"))).res.status, 429, "a game stream counts too");
    const elsewhere = await events(keys[2], "10.8.2.2");
    assert.equal(elsewhere.res.status, 200, "another address has its own bound");

    open[0].close();
    await eventually(() => open[0].done(), "a stream to close");
    let again = await events(keys[2], "10.8.2.1");
    for (let i = 0; i < 20 && again.res.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 50));
      again = await events(keys[2], "10.8.2.1");
    }
    assert.equal(again.res.status, 200, "a closed stream frees its place");
    for (const s of [...open, elsewhere, again]) s.close();
  });
});
