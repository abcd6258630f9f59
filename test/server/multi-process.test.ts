import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pickMove, playRest, seatedFriendGame } from "../support/play";
import { spawnServer, type ServerProcess } from "../support/process";
import { redisAvailable, startRedis, type RedisHandle } from "../support/redis";
import { bearer, http } from "../support/server";

/**
 * Two server processes sharing Redis and one SQLite file: a game created on one plays through the other, quick
 * match tickets queued on both are paired, and the rate-limit counters are shared. In the slow suite
 * (test/suites/index.cjs), with the cluster's trials: end to end by nature, it starts two server processes and
 * Redis, most of its 8 to 52 s in runs of the fast suite on the 2-core machine.
 */
describe("End-to-end: two processes share games through Redis presence and remote room calls", function () {
  this.timeout(120_000);
  let redis: RedisHandle;
  let p1: ServerProcess;
  let p2: ServerProcess;
  let dir: string;

  before(async function () {
    if (!redisAvailable()) {
      console.log("    multi-process tests skipped: redis-server is not installed (scripts/test.sh installs it)");
      this.skip();
    }
    dir = mkdtempSync(join(tmpdir(), "arena-multi-"));
    redis = await startRedis();
    const env = { REDIS_URL: redis.url, DATABASE: join(dir, "shared.sqlite") };
    p1 = await spawnServer(env);
    p2 = await spawnServer(env);
  });
  after(async () => {
    await p1?.stop();
    await p2?.stop();
    await redis?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("plays a game created on one process through the other, with long-polls woken across processes", async () => {
    const { id, tokens } = await seatedFriendGame(p1.url, { joinBase: p2.url });
    const turn = (await http(p2.url, "GET", `/api/v1/games/${id}`)).json.turn as string;
    const other = turn === "A" ? "B" : "A";
    // the waiter polls one process, the move lands on the other
    const waiting = http(p1.url, "GET", `/api/v1/games/${id}/sync?since=0&timeout=15`, undefined, bearer(tokens[other]));
    await new Promise((r) => setTimeout(r, 300));
    const view = (await http(p2.url, "GET", `/api/v1/games/${id}/sync`, undefined, bearer(tokens[turn]))).json;
    const moved = await http(p2.url, "POST", `/api/v1/games/${id}/moves`, pickMove(view.state), bearer(tokens[turn]));
    assert.equal(moved.status, 200, moved.text);
    const woken = await waiting;
    assert.equal(woken.json.moves.length, 1);
    // each seat plays through a different process
    const ends = await Promise.all([playRest(p1.url, id, tokens.A), playRest(p2.url, id, tokens.B)]);
    assert.equal(ends[0].status, "finished");
    assert.equal((await http(p2.url, "GET", `/api/v1/games/${id}/replay`)).json.moveCount, 16);
  });

  it("pairs quick-match tickets queued on different processes", async () => {
    const first = await http(p1.url, "POST", "/api/v1/games/quick-match", { ruleset: "classic" });
    assert.equal(first.status, 202);
    const second = await http(p2.url, "POST", "/api/v1/games/quick-match", { ruleset: "classic", wait: 10 });
    assert.equal(second.status, 200, second.text);
    const polled = await http(p2.url, "GET", `/api/v1/games/quick-match/${first.json.ticket}?timeout=10`);
    assert.equal(polled.json.status, "matched");
    assert.equal(polled.json.game.id, second.json.game.id);
  });

  it("shares rate-limit counters between processes", async () => {
    const r1 = await http(p1.url, "GET", "/api/v1/games?limit=1");
    const r2 = await http(p2.url, "GET", "/api/v1/games?limit=1");
    const remaining = (h: Headers) => Number(/r=(\d+)/.exec(h.get("ratelimit") ?? "")![1]);
    assert.equal(remaining(r2.headers), remaining(r1.headers) - 1);
  });
});
