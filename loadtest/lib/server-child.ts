/**
 * The server under a soak, in its own process so its memory and CPU are its own: the bench server on a
 * file database (an in-memory one would grow with every game and read as a leak). Tells its parent the URL
 * over IPC; stops on "stop".
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startBenchServer } from "./server";

async function main() {
  const database = process.env.SOAK_DATABASE || path.join(mkdtempSync(path.join(tmpdir(), "arena-soak-")), "arena.sqlite");
  const server = await startBenchServer({ database });
  process.on("message", (m) => {
    if (m === "stop") void server.close().finally(() => process.exit(0));
  });
  process.send?.({ url: server.url, database });
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
