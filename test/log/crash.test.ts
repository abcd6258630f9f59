/**
 * The appender killed mid-stream (SIGKILL, while games finish and batches are appended every 10 ms): after the
 * restart every finished game is in the log exactly once (those the restarted server finishes on resuming them
 * too), and the new head is consistent with the last head served before the kill. Slow suite (it runs the
 * server as two child processes).
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { httpGetJson } from "../../src/services/leagues/verify";
import { verifyLog } from "../../src/services/log/verify";
import type { TreeHeadRecord } from "../../src/store";
import { spawnServer } from "../support/process";
import { bearer, http } from "../support/server";

describe("End-to-end: the public log's appender killed mid-batch", function () {
  this.timeout(120_000);
  let dir: string;
  before(function () {
    dir = mkdtempSync(join(tmpdir(), "log-crash-"));
  });
  after(function () {
    rmSync(dir, { recursive: true, force: true });
  });

  it("loses no finished game, appends none twice, and continues the tree consistently after a restart", async function () {
    // The killed process held the log's lease: the restarted one appends once it runs out (LOG_LEASE_MS).
    const env = { DATABASE: join(dir, "arena.sqlite"), LOG_BATCH_MS: "10", LOG_LEASE_MS: "3000" };
    const first = await spawnServer(env);
    const games: Array<{ id: string; token: string }> = [];
    for (let i = 0; i < 60; i++) {
      const g = await http(first.url, "POST", "/api/v1/games", { opponent: "house", level: "easy", name: `P${i}` });
      assert.equal(g.status, 201, g.text);
      games.push({ id: g.json.game.id as string, token: g.json.playerToken as string });
    }
    // Games finish in a stream; the server is killed once the log has grown past a few batches.
    let lastHead: TreeHeadRecord;
    let killed = false;
    const finishing = (async () => {
      for (const g of games) {
        if (killed) break;
        await http(first.url, "POST", `/api/v1/games/${g.id}/resign`, undefined, bearer(g.token)).catch(() => null);
      }
    })();
    for (;;) {
      const h = await http(first.url, "GET", "/api/v1/log/head");
      lastHead = h.json as TreeHeadRecord;
      if (lastHead.size >= 15) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    killed = true;
    await first.stop("SIGKILL");
    await finishing;

    const second = await spawnServer(env, first.port);
    try {
      const finishedGames = () => {
        const db = new Database(env.DATABASE, { readonly: true });
        try {
          return (db.prepare("SELECT id FROM games WHERE status = 'finished'").all() as { id: string }[]).map((r) => r.id).sort();
        } finally {
          db.close();
        }
      };
      // The log served a head of lastHead.size entries, so at least as many games were finished and stored; on
      // a busy machine the kill may land before another one finishes, so exactly that many is possible.
      const atRestart = finishedGames();
      assert.ok(atRestart.length >= lastHead.size, `${atRestart.length} games finished before the kill, the log held ${lastHead.size}`);
      // A game whose finishing action was stored but not yet its finish write (ratings, status, log mark: the
      // second write of a finish) is finished by the restarted server when it resumes the game, and enters the
      // log after it. So the log is compared with the games finished once it caught up: the entries are read
      // first and the finished games after them (a game is appended only once finished), until they agree. A
      // lost append never agrees, and the assertions below then show which game is missing.
      const deadline = Date.now() + Number(env.LOG_LEASE_MS) + 30_000;
      let logged: string[];
      let finished: string[];
      for (;;) {
        const { entries } = (await http(second.url, "GET", `/api/v1/log/entries?from=0&count=1000`)).json as { entries: Array<{ entry: { gameId: string } }> };
        logged = entries.map((e) => e.entry.gameId);
        finished = finishedGames();
        if (JSON.stringify([...logged].sort()) === JSON.stringify(finished) || Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.equal(new Set(logged).size, logged.length, "no game appended twice");
      assert.deepEqual([...logged].sort(), finished, "every finished game is in the log");
      const report = await verifyLog(httpGetJson(second.url), { since: lastHead });
      assert.deepEqual(report.problems, []);
    } finally {
      await second.stop();
    }
  });
});
