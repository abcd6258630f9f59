/**
 * Processes sharing a store: who may start next to whom, what /healthz reports, and limits that hold
 * whichever process a request reaches.
 */
import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnServer, type ServerProcess } from "../support/process";
import { redisAvailable, startRedis, type RedisHandle } from "../support/redis";
import { http } from "../support/server";
import { FAST_CLUSTER } from "./support";

describe("End-to-end: processes sharing one store", function () {
  this.timeout(120_000);
  let dir: string;
  const running: ServerProcess[] = [];
  let redis: RedisHandle | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "arena-registry-"));
  });
  afterEach(async () => {
    for (const p of running.splice(0)) await p.stop("SIGKILL");
    await redis?.stop();
    redis = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it("refuses to start a second process on the same store without shared presence, saying why", async () => {
    const env = { DATABASE: join(dir, "one.sqlite"), ...FAST_CLUSTER };
    running.push(await spawnServer(env));
    await assert.rejects(spawnServer(env), (e: Error) => {
      assert.match(e.message, /another live process shares this store/);
      assert.match(e.message, /REDIS_URL/);
      return true;
    });
    const health = await http(running[0].url, "GET", "/healthz");
    assert.equal(health.status, 200);
    assert.deepEqual([health.json.ok, health.json.store.ok, health.json.store.adapter], [true, true, "sqlite"]);
  });

  it("starts again on the store of a process that was killed, without waiting out its dead-after time", async () => {
    // A dead-after time longer than spawnServer waits for a start (30 s): a restart that waited it out before
    // taking the killed process's fresh record for dead would never come up. test/cluster/join.test.ts counts
    // the looks at the store that decide it.
    const env = { DATABASE: join(dir, "one.sqlite"), ...FAST_CLUSTER, CLUSTER_DEAD_AFTER_MS: "60000" };
    const first = await spawnServer(env);
    await first.stop("SIGKILL");
    running.push(await spawnServer(env));
    const health = await http(running[0].url, "GET", "/healthz");
    assert.equal(health.status, 200);
  });

  describe("with Redis", function () {
    before(function () {
      if (!redisAvailable()) this.skip();
    });

    it("refuses the 121st read of a minute whichever of two processes gets it", async () => {
      redis = await startRedis();
      const env = { REDIS_URL: redis.url, DATABASE: join(dir, "shared.sqlite"), RATE_LIMIT_SCALE: "1", ...FAST_CLUSTER };
      running.push(await spawnServer(env), await spawnServer(env));
      const [p1, p2] = running as [ServerProcess, ServerProcess];
      for (let i = 0; i < 120; i++) {
        const r = await http((i % 2 ? p2 : p1).url, "GET", "/api/v1/games?limit=1");
        assert.equal(r.status, 200, `read ${i + 1}: ${r.text}`);
      }
      for (const p of [p1, p2]) {
        const refused = await http(p.url, "GET", "/api/v1/games?limit=1");
        assert.equal(refused.status, 429);
        assert.equal(refused.json.code, "rate_limited");
        assert.ok(Number(refused.headers.get("retry-after")) > 0);
      }
    });

    it("pairs two REST agents queued on different processes", async () => {
      redis = await startRedis();
      const env = { REDIS_URL: redis.url, DATABASE: join(dir, "shared.sqlite"), ...FAST_CLUSTER };
      running.push(await spawnServer(env), await spawnServer(env));
      const [p1, p2] = running as [ServerProcess, ServerProcess];
      const first = await http(p1.url, "POST", "/api/v1/games/quick-match", { ruleset: "classic" });
      assert.equal(first.status, 202, first.text);
      const second = await http(p2.url, "POST", "/api/v1/games/quick-match", { ruleset: "classic", wait: 10 });
      assert.equal(second.status, 200, second.text);
      const polled = await http(p1.url, "GET", `/api/v1/games/quick-match/${first.json.ticket}?timeout=10`);
      assert.equal(polled.json.status, "matched");
      assert.equal(polled.json.game.id, second.json.game.id);
      assert.notEqual(polled.json.seat, second.json.seat);
    });
  });
});
