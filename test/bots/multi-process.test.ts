/**
 * Bots across two processes sharing Redis and the store: a key's rate limit is one budget whichever process
 * answers, and a bot's event stream on one process hears of a game its key started on the other.
 */
import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
    // 120 requests per minute per policy scaled to 12: a budget two processes can run out together.
    const env = { REDIS_URL: redis.url, DATABASE: join(dir, "shared.sqlite"), RATE_LIMIT_SCALE: "0.1" };
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
});
