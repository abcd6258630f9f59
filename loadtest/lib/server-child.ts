/**
 * The server under a soak, in its own process so its memory and CPU are its own: the bench server on a
 * file database (an in-memory one would grow with every game and read as a leak). Tells its parent the URL
 * over IPC; stops on "stop". On "gc" it runs a full garbage collection and answers its memory after it: the
 * heap that survives a forced collection is what the server holds, apart from garbage not yet collected.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { settledMemory } from "./common";
import { startBenchServer } from "./server";

async function main() {
  // A database of our own in the temporary directory is removed on stop (an hour's soak writes hundreds of
  // thousands of games); one given in SOAK_DATABASE is kept for whoever wants to read it.
  const ownDir = process.env.SOAK_DATABASE ? null : mkdtempSync(path.join(tmpdir(), "arena-soak-"));
  const database = process.env.SOAK_DATABASE || path.join(ownDir!, "arena.sqlite");
  const server = await startBenchServer({ database });
  process.on("message", (m) => {
    if (m === "stop") {
      void server.close().finally(() => {
        if (ownDir) rmSync(ownDir, { recursive: true, force: true });
        process.exit(0);
      });
    }
    if (m === "gc") void settledMemory().then((mem) => process.send?.({ gc: mem }));
  });
  // A parent that dies without "stop" must not leave a server running (and loading the machine) behind.
  process.on("disconnect", () => process.exit(0));
  process.send?.({ url: server.url, database });
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
