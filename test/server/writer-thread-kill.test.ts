/**
 * A SIGKILL while the writer thread holds a batch loses no acknowledged move (the slow suite: it starts, kills and
 * restarts a server process). test/server/writer-thread.test.ts checks that the move path writes on that thread.
 */
import { strict as assert } from "node:assert";
import { join } from "node:path";
import Database from "better-sqlite3";
import { assertAckedMovesKeptAfterRestart, playConcurrently, seatedFriendGame } from "../support/play";
import { spawnServer } from "../support/process";
import { useTempDir } from "../support/temp-dir";

describe("End-to-end: a SIGKILL while the writer thread holds a batch loses no acknowledged move", function () {
  this.timeout(120_000);
  const dir = useTempDir("arena-writer-kill-");

  it("keeps every move answered 200 before the kill, in order", async function () {
    const database = join(dir(), "kill.sqlite");
    const env = { DATABASE: database };
    const first = await spawnServer(env);
    const games = await Promise.all(Array.from({ length: 8 }, () => seatedFriendGame(first.url)));
    const play = playConcurrently(first.url, games);
    await play.acknowledged(40);
    // Another connection takes the write lock: the writer thread's next batch waits for it, holding the moves
    // sent meanwhile, unanswered. The server is killed while it holds them.
    const admin = new Database(database);
    admin.pragma("busy_timeout = 5000");
    admin.exec("BEGIN IMMEDIATE");
    try {
      await new Promise((r) => setTimeout(r, 500));
      assert.ok(play.inFlight() > 0, "moves are waiting for the writer thread's batch");
      await first.stop("SIGKILL");
    } finally {
      admin.exec("ROLLBACK");
      admin.close();
    }
    await play.stop();
    // A move committed just before the lock was taken may have lost its answer with the process.
    await assertAckedMovesKeptAfterRestart(env, first.port, play.acked);
  });
});
