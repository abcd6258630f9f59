/**
 * A SIGKILL amid the group commits of many games' moves loses no acknowledged move. In the slow suite
 * (test/suites/index.cjs), with test/server/writer-thread-kill.test.ts: it starts, kills and restarts a server
 * process, 15 s alone on the 2-core machine. test/server/group-commit.test.ts checks that a failed group commit
 * refuses its moves and changes nothing, in one process.
 */
import { join } from "node:path";
import { assertAckedMovesKeptAfterRestart, playConcurrently, seatedFriendGame } from "../support/play";
import { spawnServer } from "../support/process";
import { useTempDir } from "../support/temp-dir";

describe("End-to-end: a crash while batches are committed loses no acknowledged move", function () {
  this.timeout(120_000);
  const dir = useTempDir("arena-batch-crash-");

  it("keeps every move answered 200 before a SIGKILL that lands amid moves of many games", async function () {
    const env = { DATABASE: join(dir(), "crash.sqlite") };
    const first = await spawnServer(env);
    const games = await Promise.all(Array.from({ length: 8 }, () => seatedFriendGame(first.url)));
    // Every game moves concurrently, so batches carry several games' writes when the kill lands.
    const play = playConcurrently(first.url, games);
    await play.acknowledged(40);
    const stopped = play.stop();
    await first.stop("SIGKILL");
    await stopped;
    await assertAckedMovesKeptAfterRestart(env, first.port, play.acked);
  });
});
