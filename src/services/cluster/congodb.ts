/**
 * CongoDB, a MongoDB-wire-compatible server (installed in .ci/congodb with `npm ci`), as a child process on
 * a free loopback port, stopped by its pid: the MongoDB a local cluster and the MongoDB store's tests use
 * when no real MongoDB is named. It keeps everything in memory and ignores write concerns (docs/DEPLOY.md).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../../shared/package-root";

export interface CongoHandle {
  /** mongodb://127.0.0.1:<port>/?serverMonitoringMode=poll (no database: callers name theirs). */
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

const dir = join(PACKAGE_ROOT, ".ci", "congodb");

/** True once `npm ci` has run in .ci/congodb (scripts/test.sh runs it). */
export const congoAvailable = (): boolean => existsSync(join(dir, "node_modules", "@push.rocks", "smartmongo"));

export async function startCongo(): Promise<CongoHandle> {
  if (!congoAvailable()) throw new Error("CongoDB is not installed: run `npm ci` in .ci/congodb");
  const child = spawn(process.execPath, [join(dir, "server.mjs"), "0"], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`CongoDB did not start:\n${out}`)), 15_000);
    child.stderr.on("data", (d) => (out += d));
    child.stdout.on("data", (d) => {
      out += d;
      const line = /\{"port":(\d+)\}/.exec(out);
      if (!line) return;
      clearTimeout(timer);
      resolve(Number(line[1]));
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`CongoDB exited (${code}):\n${out}`));
    });
  });
  const exited = new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve())));
  return {
    // CongoDB answers the driver's streaming hello (exhaust, moreToCome) with one plain reply; the driver
    // then takes the server for failed and clears its pool, failing the operations in flight. Polling
    // monitors it with ordinary hellos.
    url: `mongodb://127.0.0.1:${port}/?serverMonitoringMode=poll`,
    child,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, "SIGTERM");
      await exited;
    },
  };
}
