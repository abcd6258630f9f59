/**
 * Bots across two processes sharing Redis and the store: a key's rate limit is one budget whichever process
 * answers, a bot's event stream on one process hears of a game its key started on the other, and revoking the
 * key on one process ends its stream on the other.
 *
 * In the slow suite (test/suites/index.cjs), with the cluster's trials: end to end by nature, it starts two
 * server processes and Redis, most of its 11 to 24 s in runs of the fast suite on the 2-core machine.
 */
import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStream } from "../support/ndjson";
import { spawnServer, type ServerProcess } from "../support/process";
import { redisAvailable, startRedis, type RedisHandle } from "../support/redis";
import { bearer, eventually, http } from "../support/server";

describe("End-to-end: bot keys and streams across two processes", function () {
  this.timeout(120_000);
  let redis: RedisHandle;
  let p1: ServerProcess;
  let p2: ServerProcess;
  let dir: string;

  before(async function () {
    if (!redisAvailable()) {
      console.log("    multi-process bot tests skipped: redis-server is not installed (scripts/test.sh installs it)");
      this.skip();
    }
    dir = mkdtempSync(join(tmpdir(), "arena-bots-"));
    redis = await startRedis();
    // 120 requests per minute per policy scaled to 12: a budget two processes can run out together. Bot
    // registrations per address are raised clear of that scale: this file registers several from one address.
    const env = { REDIS_URL: redis.url, DATABASE: join(dir, "shared.sqlite"), RATE_LIMIT_SCALE: "0.1", BOT_REGISTRATIONS_PER_ADDRESS: "1000" };
    p1 = await spawnServer(env);
    p2 = await spawnServer(env);
  });
  after(async () => {
    await p1?.stop();
    await p2?.stop();
    await redis?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("holds one per-key budget across processes, apart from another key's", async () => {
    const one = (await http(p1.url, "POST", "/api/v1/bots", { name: "Spread" })).json;
    const two = (await http(p2.url, "POST", "/api/v1/bots", { name: "Other" })).json;
    const statuses: number[] = [];
    for (let i = 0; i < 16; i++) statuses.push((await http(i % 2 ? p2.url : p1.url, "GET", "/api/v1/bots/me", undefined, bearer(one.key))).status);
    assert.deepEqual(statuses.slice(0, 12), Array(12).fill(200), statuses.join(","));
    assert.deepEqual(statuses.slice(12), [429, 429, 429, 429]);
    assert.equal((await http(p1.url, "GET", "/api/v1/bots/me", undefined, bearer(two.key))).status, 200);
  });

  it("tells a bot's stream on one process of a game its key started on the other", async () => {
    const { key } = (await http(p1.url, "POST", "/api/v1/bots", { name: "Roaming" })).json;
    const ctl = new AbortController();
    const res = await fetch(`${p2.url}/api/v1/stream/events`, { headers: bearer(key), signal: ctl.signal });
    let text = "";
    void (async () => {
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) text += Buffer.from(chunk).toString();
      } catch {
        // closed by the test
      }
    })();
    const game = await http(p1.url, "POST", "/api/v1/games", { opponent: "house" }, bearer(key));
    assert.equal(game.status, 201, game.text);
    await eventually(() => text.includes(`"gameStart","gameId":"${game.json.game.id}"`), "gameStart on the other process", 10_000);
    ctl.abort();
  });

  it("ends a revoked key's stream on the other process at once, with no event after", async () => {
    const gone = (await http(p1.url, "POST", "/api/v1/bots", { name: "Revoked" })).json;
    const other = (await http(p2.url, "POST", "/api/v1/bots", { name: "Opponent" })).json;
    const stream = await openStream(`${p2.url}/api/v1/stream/events`, bearer(gone.key));
    const otherStream = await openStream(`${p1.url}/api/v1/stream/events`, bearer(other.key));
    const created = await http(p1.url, "POST", "/api/v1/games", { opponent: "friend" }, bearer(gone.key));
    assert.equal(created.status, 201, created.text);
    assert.equal((await http(p1.url, "POST", `/api/v1/bots/${gone.bot.id}/challenge`, {}, bearer(other.key))).status, 201);
    await eventually(() => stream.lines.some((e) => e.type === "challenge"), "the stream to be live", 10_000);
    const seen = stream.lines.length;

    assert.equal((await http(p1.url, "DELETE", "/api/v1/bots/me", undefined, bearer(gone.key))).status, 200);
    // The revocation aborted the friend game the bot waited in: nobody joins it.
    assert.equal((await http(p2.url, "POST", "/api/v1/games/join", { code: created.json.code }, bearer(other.key))).status, 410);
    await eventually(() => stream.done(), "the revoked key's stream on the other process to end", 10_000);
    assert.deepEqual(stream.lines.slice(seen), [], "nothing after the revocation");
    assert.equal((await openStream(`${p2.url}/api/v1/stream/events`, bearer(gone.key))).res.status, 401);
    otherStream.close();
  });
});
