/**
 * Starts a local cluster for trials and tests: a private redis-server, N server processes on loopback
 * sharing one store (a SQLite file, or MongoDB: a given server or a private CongoDB), and optionally nginx
 * in front (the recipe of src/services/cluster/nginx.ts). Every child is stopped by its pid.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, connect, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startCongo } from "./congodb";
import { nginxConfig, nodePath } from "./nginx";

export interface LaunchOptions {
  processes: number;
  /** SQLite file shared by the processes (default: a file in a fresh temporary directory). */
  database?: string;
  /** The store the processes share (default sqlite). */
  store?: "sqlite" | "mongodb";
  /** With store mongodb, the server to use (default: a private CongoDB, started and stopped with the cluster). */
  mongodbUrl?: string;
  /** Put nginx in front, listening on this port (0: a free one). */
  nginxPort?: number;
  /** Extra environment for every process (e.g. faster heartbeats in tests). */
  env?: Record<string, string>;
  /** Where each child's output goes (default: discarded). */
  onOutput?: (name: string, chunk: string) => void;
}

export interface Member {
  name: string;
  port: number;
  url: string;
  publicAddress: string;
  child: ChildProcess;
}

export interface LaunchedCluster {
  redisUrl: string;
  /** The SQLite file the processes share (unused with MongoDB). */
  database: string;
  /** With MongoDB, the database the processes share. */
  mongodbUrl?: string;
  members: Member[];
  /** The front's URL (nginx), or the first process's when there is no nginx. */
  url: string;
  nginx?: ChildProcess;
  /** Stops one member with a signal and resolves when it exited (SIGSTOP resolves at once). */
  signal(member: number, signal: NodeJS.Signals): Promise<void>;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once("error", rej);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => res(port));
    });
  });
}

async function waitFor(check: () => Promise<boolean>, what: string, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (child.exitCode !== null) throw new Error(`${what} exited early (code ${child.exitCode})`);
    if (Date.now() > until) throw new Error(`${what} did not start within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const listening = (port: number) =>
  new Promise<boolean>((res) => {
    const s = connect(port, "127.0.0.1", () => (s.end(), res(true)));
    s.once("error", () => res(false));
  });

const exited = (child: ChildProcess) =>
  new Promise<void>((res) => (child.exitCode !== null || child.signalCode !== null ? res() : child.once("exit", () => res())));

function pipe(child: ChildProcess, name: string, onOutput?: LaunchOptions["onOutput"]) {
  child.stdout?.on("data", (d: Buffer) => onOutput?.(name, d.toString()));
  child.stderr?.on("data", (d: Buffer) => onOutput?.(name, d.toString()));
}

export async function launchCluster(o: LaunchOptions): Promise<LaunchedCluster> {
  const dir = mkdtempSync(join(tmpdir(), "arena-cluster-"));
  const database = o.database ? resolve(o.database) : join(dir, "arena.sqlite");
  const children: ChildProcess[] = [];
  const stopAll = async () => {
    for (const c of children.reverse()) {
      if (c.exitCode !== null || c.signalCode !== null) continue;
      c.kill("SIGCONT");
      c.kill("SIGTERM");
      const done = exited(c);
      const timer = setTimeout(() => c.kill("SIGKILL"), 30_000);
      await done;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const redisPort = await freePort();
    const redis = spawn("redis-server", ["--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(redis);
    pipe(redis, "redis", o.onOutput);
    await waitFor(() => listening(redisPort), "redis-server", redis);
    const redisUrl = `redis://127.0.0.1:${redisPort}`;
    let mongodbUrl: string | undefined;
    if (o.store === "mongodb") {
      let server = o.mongodbUrl;
      if (!server) {
        const congo = await startCongo();
        children.push(congo.child);
        pipe(congo.child, "congodb", o.onOutput);
        server = congo.url;
      }
      const u = new URL(server);
      if (u.pathname.length <= 1) u.pathname = "/arena";
      mongodbUrl = u.toString();
    }

    const front = o.nginxPort === undefined ? undefined : o.nginxPort || (await freePort());
    const ports = await Promise.all(Array.from({ length: o.processes }, () => freePort()));
    const members: Member[] = [];
    for (const [i, port] of ports.entries()) {
      const publicAddress = front ? `127.0.0.1:${front}/${nodePath(i + 1)}` : `127.0.0.1:${port}`;
      const name = `node-${i + 1}`;
      const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
        env: {
          ...process.env,
          PORT: String(port),
          HOST: "127.0.0.1",
          REDIS_URL: redisUrl,
          DATABASE: database,
          ...(mongodbUrl ? { MONGODB_URL: mongodbUrl } : {}),
          PUBLIC_ADDRESS: publicAddress,
          PUBLIC_BASE_URL: `http://127.0.0.1:${front ?? port}`,
          ...(front ? { TRUST_PROXY: "1" } : {}),
          ...o.env,
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      children.push(child);
      pipe(child, name, o.onOutput);
      const url = `http://127.0.0.1:${port}`;
      // One at a time: each process checks the registry as it starts.
      await waitFor(async () => (await fetch(`${url}/healthz`)).ok, name, child);
      members.push({ name, port, url, publicAddress, child });
    }

    let nginx: ChildProcess | undefined;
    if (front) {
      const ngDir = join(dir, "nginx");
      mkdirSync(ngDir, { recursive: true });
      // Started as root, nginx's workers run as an unprivileged user that must reach its temp paths.
      chmodSync(dir, 0o755);
      chmodSync(ngDir, 0o777);
      const conf = join(ngDir, "nginx.conf");
      writeFileSync(conf, nginxConfig({ listen: front, listenHost: "127.0.0.1", backends: members.map((m) => `127.0.0.1:${m.port}`), prefixDir: ngDir }));
      const check = spawnSync("nginx", ["-t", "-p", ngDir, "-c", conf], { encoding: "utf8" });
      if (check.status !== 0) throw new Error(`nginx refused the configuration:\n${check.stderr}`);
      nginx = spawn("nginx", ["-p", ngDir, "-c", conf, "-g", "daemon off;"], { stdio: ["ignore", "pipe", "pipe"] });
      children.push(nginx);
      pipe(nginx, "nginx", o.onOutput);
      await waitFor(async () => (await fetch(`http://127.0.0.1:${front}/healthz`)).ok, "nginx", nginx);
    }

    return {
      redisUrl,
      database,
      mongodbUrl,
      members,
      url: front ? `http://127.0.0.1:${front}` : members[0].url,
      nginx,
      signal: async (i, signal) => {
        const child = members[i].child;
        child.kill(signal);
        if (signal !== "SIGSTOP" && signal !== "SIGCONT") await exited(child);
      },
      stop: stopAll,
    };
  } catch (e) {
    await stopAll();
    throw e;
  }
}
