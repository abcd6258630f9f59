/**
 * A local cluster for trials: a private redis-server and N processes on loopback sharing one store (a SQLite
 * file, or MongoDB: a given server or a private CongoDB), optionally behind nginx (the tested recipe of
 * docs/DEPLOY.md).
 *   npm run cluster -- --processes 3 [--nginx [--port 8080]] [--database ./data/cluster.sqlite]
 *   npm run cluster -- --processes 3 --store mongodb [--mongodb-url mongodb://host/arena]
 * Stops everything on Ctrl-C. Kill a process (its pid is printed) to watch its games move.
 */
import { parseArgs } from "node:util";
import { launchCluster } from "../services/cluster/launch";

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      processes: { type: "string", default: "3" },
      nginx: { type: "boolean", default: false },
      port: { type: "string", default: "8080" },
      database: { type: "string" },
      store: { type: "string", default: "sqlite" },
      "mongodb-url": { type: "string" },
      verbose: { type: "boolean", default: false },
    },
  });
  const processes = Number(values.processes);
  if (!Number.isInteger(processes) || processes < 1 || processes > 16) throw new Error("--processes is a whole number from 1 to 16");
  const store = values.store;
  if (store !== "sqlite" && store !== "mongodb") throw new Error("--store is sqlite or mongodb");
  if (values["mongodb-url"] && store !== "mongodb") throw new Error("--mongodb-url needs --store mongodb");
  const cluster = await launchCluster({
    processes,
    database: values.database,
    store,
    mongodbUrl: values["mongodb-url"],
    nginxPort: values.nginx ? Number(values.port) : undefined,
    env: { LOG_LEVEL: values.verbose ? "info" : "warn" },
    onOutput: (name, chunk) =>
      process.stderr.write(
        chunk
          .split("\n")
          .filter(Boolean)
          .map((l) => `[${name}] ${l}\n`)
          .join(""),
      ),
  });
  process.stdout.write(`redis: ${cluster.redisUrl}\n`);
  process.stdout.write(`store: ${cluster.mongodbUrl ?? cluster.database}\n`);
  for (const m of cluster.members) process.stdout.write(`${m.name}: ${m.url} (pid ${m.child.pid}, public address ${m.publicAddress})\n`);
  process.stdout.write(`front: ${cluster.url}  (Ctrl-C stops everything)\n`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void cluster.stop().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((err: Error) => {
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
});
