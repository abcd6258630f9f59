/**
 * The server under a soak, in its own process so its memory and CPU are its own: the bench server on a
 * file database (an in-memory one would grow with every game and read as a leak). Tells its parent the URL
 * over IPC; stops on "stop". On "gc" it runs a full garbage collection and answers its memory after it: the
 * heap that survives a forced collection is what the server holds, apart from garbage not yet collected.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { settledMemory } from "./common";
import { startBenchServer } from "./server";

async function main() {
  const database = process.env.SOAK_DATABASE || path.join(mkdtempSync(path.join(tmpdir(), "arena-soak-")), "arena.sqlite");
  const server = await startBenchServer({ database });
  process.on("message", (m) => {
    if (m === "stop") void server.close().finally(() => process.exit(0));
    if (m === "gc") void settledMemory().then((mem) => process.send?.({ gc: mem }));
  });
  process.send?.({ url: server.url, database });
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
