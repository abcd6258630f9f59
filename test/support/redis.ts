/** A private redis-server on a free loopback port, stopped by its pid. */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { freePort } from "./server";

export interface RedisHandle {
  url: string;
  stop(): Promise<void>;
}

export const redisAvailable = (): boolean => spawnSync("redis-server", ["--version"]).status === 0;

export async function startRedis(): Promise<RedisHandle> {
  const port = await freePort();
  const child: ChildProcess = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
  const deadline = Date.now() + 10_000;
  const net = await import("node:net");
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, "127.0.0.1", () => (s.end(), resolve(true)));
      s.once("error", () => resolve(false));
    });
    if (ok) break;
    if (Date.now() > deadline) throw new Error("redis-server did not start");
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        process.kill(child.pid!, "SIGTERM");
      }),
  };
}
