/** Entry point: `npm start`. Reads the environment once, starts the server, stops it on SIGTERM/SIGINT. */
import { loadConfig } from "./shared/config";
import { startServer } from "./server";

const SHUTDOWN_DEADLINE_MS = 25_000;

async function main() {
  const config = loadConfig();
  const server = await startServer(config);
  const stop = (signal: string) => {
    server.log.info({ signal }, "shutting down");
    // Every accepted move is already stored, so a shutdown stuck on a peer is cut short rather than waited on.
    setTimeout(() => {
      server.log.error({ signal, afterMs: SHUTDOWN_DEADLINE_MS }, "shutdown did not finish in time; exiting");
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    server.close().then(
      () => process.exit(0),
      (err) => {
        server.log.error({ err }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
