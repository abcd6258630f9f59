/**
 * CongoDB, a MongoDB-wire-compatible server (.ci/congodb, installed there with `npm ci`), as a child process
 * on a free loopback port, stopped by its pid. The MongoDB store's contract suite and the cluster tests run
 * against it when MONGODB_URL names no real server.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

export interface MongoHandle { url: string; pid: number; stop(): Promise<void> }

const dir = join(__dirname, "..", "..", ".ci", "congodb");

/** True once `npm ci` has run in .ci/congodb (scripts/test.sh runs it). */
export const congoAvailable = (): boolean => existsSync(join(dir, "node_modules", "@push.rocks", "smartmongo"));

export async function startCongo(): Promise<MongoHandle> {
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
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    url: `mongodb://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, "SIGTERM");
      await exited;
    },
  };
}

/**
 * The MongoDB a suite runs against: MONGODB_URL when set (a real server), else a CongoDB started for the
 * suite, else none (skipped with a message: CongoDB is not installed).
 */
export function useMongo(): { url: () => string | undefined } {
  let handle: MongoHandle | null = null;
  before(async function () {
    if (process.env.MONGODB_URL || !congoAvailable()) return;
    this.timeout(30_000);
    handle = await startCongo();
  });
  after(async function () {
    await handle?.stop();
  });
  return { url: () => process.env.MONGODB_URL ?? handle?.url };
}
