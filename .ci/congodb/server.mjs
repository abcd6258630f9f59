// Starts CongoDB on a loopback port (argv[2], 0 = a free one) and prints {"port": N} once it listens.
// Run as a child process by test/support/congodb.ts, which stops it by its pid.
import { CongoServer } from "@push.rocks/smartmongo/dist_ts/congodb/index.js";

const server = new CongoServer({ host: "127.0.0.1", port: Number(process.argv[2] ?? 0) });
await server.start();
const { port } = server.server.address();
process.stdout.write(`${JSON.stringify({ port })}\n`);
const stop = () => void server.stop().finally(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
