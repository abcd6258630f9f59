/** Entry point: `npm start`. Reads the environment once, starts the server, stops it on SIGTERM/SIGINT. */
import { loadConfig } from "./config";
import { startServer } from "./server";

async function main() {
  const config = loadConfig();
  const server = await startServer(config);
  const stop = (signal: string) => {
    server.log.info({ signal }, "shutting down");
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
