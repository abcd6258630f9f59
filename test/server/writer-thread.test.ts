/**
 * The move path's SQL writes run on the writer thread; test/server/writer-thread-kill.test.ts (slow suite) kills
 * the server while that thread holds a batch.
 */
import { strict as assert } from "node:assert";
import { join } from "node:path";
import type { RunningServer } from "../../src/server";
import { playNext, seatedFriendGame } from "../support/play";
import { bootServer, http } from "../support/server";
import { countMainThreadWrites } from "../support/sql-writes";
import { useTempDir } from "../support/temp-dir";

describe("Integration: the move path runs no SQL write on the event loop", function () {
  this.timeout(30_000);
  const dir = useTempDir("arena-writer-");
  let server: RunningServer | undefined;
  after(async () => {
    await server?.close();
  });

  it("stores the moves of concurrent games through the writer thread: no write statement runs on the main thread", async function () {
    server = await bootServer({ database: join(dir(), "arena.sqlite") });
    const games = await Promise.all(Array.from({ length: 4 }, () => seatedFriendGame(server!.url)));
    const counter = countMainThreadWrites();
    try {
      await Promise.all(
        games.map(async (g) => {
          for (let i = 0; i < 6; i++) {
            const r = await playNext(server!.url, g.id, g.tokens);
            assert.equal(r.status, 200, r.text);
          }
        }),
      );
    } finally {
      counter.stop();
    }
    // The process registry's heartbeat runs on a timer of its own, whatever the rooms do: not the move path.
    const moveWrites = counter.writes.filter((sql) => !/^UPDATE processes SET heartbeat_at/.test(sql));
    assert.deepEqual(moveWrites, [], "SQL writes run on the main thread while moves were played");
    for (const g of games) assert.equal((await http(server.url, "GET", `/api/v1/games/${g.id}`)).json.moveCount, 6);
  });
});
