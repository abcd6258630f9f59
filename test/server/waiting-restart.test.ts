/**
 * A restart over 2,000 waiting games settles about as soon as an empty store's (the slow suite: it fills the
 * store and starts two server processes). test/server/waiting-games.test.ts checks the same shape in process:
 * a restart re-creates the active games' rooms only.
 */
import { strict as assert } from "node:assert";
import { join } from "node:path";
import { cpuMsOf } from "../../loadtest/lib/process-cpu";
import { spawnServer } from "../support/process";
import { bootServer, eventually, http } from "../support/server";
import { useTempDir } from "../support/temp-dir";

const WAITING = 2000;

/** Runs `task` for 0..n-1 with at most `width` at once. */
async function inParallel(n: number, width: number, task: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) await task(next++);
    }),
  );
}

/** A store of `WAITING` waiting games, friend and hosted, written by a server in this process: the friend games' codes. */
async function fill(database: string): Promise<string[]> {
  const server = await bootServer({ database });
  const codes: string[] = [];
  try {
    await inParallel(WAITING, 16, async (i) => {
      const r = await http(server.url, "POST", "/api/v1/games", { opponent: i % 2 ? "hosted" : "friend" });
      assert.equal(r.status, 201, r.text);
      if (i % 2 === 0) codes.push(r.json.code);
    });
  } finally {
    await server.close();
  }
  return codes;
}

/**
 * Milliseconds from spawning the server to its "listening" line, logged once every live game is resumed, and
 * the CPU it had used by then: on a machine shared with other work the wall time follows the machine's load,
 * the CPU a start costs much less.
 */
async function startUp(database: string) {
  const started = Date.now();
  const child = await spawnServer({ DATABASE: database, LOG_LEVEL: "info" });
  await eventually(() => child.output().includes("tile arena listening"), "the server to settle", 120_000);
  return { child, ms: Date.now() - started, cpu: cpuMsOf(child.child.pid) };
}

describe("End-to-end: a restart over 2,000 waiting games", function () {
  this.timeout(300_000);
  const dir = useTempDir("arena-waiting-restart-");

  it("restarts with them settled about as soon as an empty store, and they are still joined lazily", async () => {
    const database = join(dir(), "waiting.sqlite");
    const codes = await fill(database);
    const empty = await startUp(join(dir(), "empty.sqlite"));
    await empty.child.stop();
    const full = await startUp(database);
    try {
      const detail = `start with ${WAITING} waiting games ${full.ms} ms (CPU ${full.cpu} ms), empty store ${empty.ms} ms (CPU ${empty.cpu} ms)`;
      // Generous: resuming 2,000 rooms one by one took several times an empty start.
      assert.ok(full.ms <= 2 * empty.ms + 2000, detail);
      // The target, within 2 s of an empty store's start, held to the CPU (resuming them cost 3-4.5 s of it).
      if (Number.isFinite(full.cpu) && Number.isFinite(empty.cpu)) assert.ok(full.cpu - empty.cpu < 2000, detail);
      const joined = await http(full.child.url, "POST", "/api/v1/games/join", { code: codes[0] });
      assert.equal(joined.status, 200, joined.text);
      assert.equal(joined.json.game.status, "active");
    } finally {
      await full.child.stop();
    }
  });
});
