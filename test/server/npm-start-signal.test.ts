/**
 * `npm start` stops on a signal sent to the npm process alone (not its process group): npm forwards SIGINT
 * and SIGTERM to the shell it starts, and the script `exec`s node, so the signal reaches the server.
 */
import { strict as assert } from "node:assert";
import { execFileSync, spawn } from "node:child_process";
import { createConnection } from "node:net";
import { join } from "node:path";
import { useTempDir } from "../support/temp-dir";
import { freePort } from "../support/server";

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ port, host: "127.0.0.1" });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });

/** The process ids below `pid` (its children, theirs, ...), from ps. */
const descendants = (pid: number): number[] => {
  const rows = execFileSync("ps", ["-e", "-o", "pid=,ppid="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((l) => l.trim().split(/\s+/).map(Number));
  const found: number[] = [];
  const walk = (p: number) => rows.filter(([, pp]) => pp === p).forEach(([c]) => (found.push(c), walk(c)));
  walk(pid);
  return found;
};

/** Polls an async check until it holds. */
async function eventually(check: () => boolean | Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("End-to-end: npm start and a signal to npm alone", function () {
  this.timeout(60_000);
  const dir = useTempDir("npm-start-signal-");

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`closes the server's port and leaves no process when npm gets ${signal}`, async () => {
      const port = await freePort();
      const npm = spawn("npm", ["start"], {
        env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATABASE: join(dir(), `${signal}.sqlite`), LOG_LEVEL: "warn" },
        stdio: "ignore",
      });
      // Recorded before the signal: a server left running is orphaned, no longer below npm, and killed below.
      let children: number[] = [];
      try {
        await eventually(() => portOpen(port), "the server listening", 40_000);
        children = descendants(npm.pid!);
        assert.ok(children.length > 0);
        npm.kill(signal);
        await eventually(async () => !(await portOpen(port)), "the port closed", 15_000);
        await eventually(() => children.every((c) => !alive(c)), "every process npm started gone", 15_000);
      } finally {
        for (const c of [...children, ...descendants(npm.pid!)]) if (alive(c)) process.kill(c, "SIGKILL");
        if (alive(npm.pid!)) npm.kill("SIGKILL");
      }
    });
  }
});
