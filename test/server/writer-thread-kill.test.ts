/**
 * A SIGKILL while the writer thread holds a batch loses no acknowledged move (the slow suite: it starts, kills and
 * restarts a server process). test/server/writer-thread.test.ts checks that the move path writes on that thread.
 */
import { strict as assert } from "node:assert";
import { join } from "node:path";
import Database from "better-sqlite3";
import { playNext, seatedFriendGame } from "../support/play";
import { spawnServer } from "../support/process";
import { http } from "../support/server";
import { useTempDir } from "../support/temp-dir";

describe("End-to-end: a SIGKILL while the writer thread holds a batch loses no acknowledged move", function () {
  this.timeout(120_000);
  const dir = useTempDir("arena-writer-kill-");

  it("keeps every move answered 200 before the kill, in order", async function () {
    const database = join(dir(), "kill.sqlite");
    const env = { DATABASE: database };
    const first = await spawnServer(env);
    const games = await Promise.all(Array.from({ length: 8 }, () => seatedFriendGame(first.url)));
    const acked = new Map<string, string[]>(games.map((g) => [g.id, []]));
    let total = 0;
    let inFlight = 0;
    let killed = false;
    const players = games.map(async (g) => {
      while (!killed && acked.get(g.id)!.length < 16) {
        try {
          inFlight++;
          const r = await playNext(first.url, g.id, g.tokens).finally(() => inFlight--);
          if (r.status === 200) {
            acked.get(g.id)!.push(r.json.move.notation as string);
            total++;
          }
        } catch {
          return; // the connection died with the process
        }
      }
    });
    while (total < 40) await new Promise((r) => setTimeout(r, 5));
    // Another connection takes the write lock: the writer thread's next batch waits for it, holding the moves
    // sent meanwhile, unanswered. The server is killed while it holds them.
    const admin = new Database(database);
    admin.pragma("busy_timeout = 5000");
    admin.exec("BEGIN IMMEDIATE");
    try {
      await new Promise((r) => setTimeout(r, 500));
      assert.ok(inFlight > 0, "moves are waiting for the writer thread's batch");
      await first.stop("SIGKILL");
    } finally {
      admin.exec("ROLLBACK");
      admin.close();
    }
    killed = true;
    await Promise.all(players);

    const second = await spawnServer(env, first.port);
    try {
      for (const g of games) {
        const moves = (await http(second.url, "GET", `/api/v1/games/${g.id}`)).json.moves as string[];
        const mine = acked.get(g.id)!;
        assert.deepEqual(moves.slice(0, mine.length), mine, `game ${g.id}: every acknowledged move is kept, in order`);
        // A move committed just before the lock was taken may have lost its answer with the process.
        assert.ok(moves.length <= mine.length + 1, "at most the one unanswered move of the game was stored besides");
      }
    } finally {
      await second.stop();
    }
  });
});
