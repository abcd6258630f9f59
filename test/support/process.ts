/**
 * Runs the real entry point as a child process, as an operator would run it: `src/main.ts` through tsx, or
 * the node arguments given (the compiled `dist/src/main.js`), from the project folder or the `cwd` given.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { freePort } from "./server";

export interface ServerProcess {
  url: string;
  port: number;
  child: ChildProcess;
  output: () => string;
  /** Sends a signal and resolves with the exit code (or signal name). */
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

export async function spawnServer(
  env: Record<string, string>,
  port?: number,
  nodeArgs = ["--import", "tsx", "src/main.ts"],
  cwd?: string,
): Promise<ServerProcess> {
  const p = port ?? (await freePort());
  const child = spawn(process.execPath, nodeArgs, {
    cwd,
    env: {
      ...process.env,
      PORT: String(p),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      HOUSE_DELAY_MS: "0",
      RATE_LIMIT_SCALE: "1000",
      PUBLIC_BASE_URL: `http://127.0.0.1:${p}`,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const exited = new Promise<number | string>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal ?? -1)));
  const url = `http://127.0.0.1:${p}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${out}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      // Not left running: nothing else knows its pid.
      child.kill("SIGKILL");
      throw new Error(`server did not start:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    port: p,
    child,
    output: () => out,
    stop: (signal = "SIGTERM") => {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}
