/**
 * How long a restart takes with many games stored, against an empty store's start on the same machine in
 * the same run. One server process (the real entry point, `src/main.ts`, on a SQLite file) is filled with
 * `--waiting` waiting games (friend and hosted, nobody joined) and `--active` active friend games, then
 * killed with SIGKILL. Each round then starts a server on an empty file and one on the filled file (killed
 * again with SIGKILL), and records for each:
 *  - answers: from the spawn to the first `GET /healthz` answered 200;
 *  - settled: from the spawn to the "tile arena listening" line, logged once every game to resume has its room;
 *  - CPU: the server process's CPU time (user + system, all threads, from /proc) when it settled. On a
 *    machine shared with other work the wall times follow its load; the CPU a start costs does not.
 * Each round's filled start is compared with its own empty start (run just before it): the table gives
 * both and their difference, and the medians of the differences. A table per checkout, then one JSON line
 * (`{"bench":"restart",...}`).
 * `--root` runs another checkout's `src/main.ts` (with the same node_modules); `--compare <dir>` measures a
 * second checkout beside it, their rounds alternating, for a before and after on the same machine.
 * `--compiled` runs each checkout's compiled build instead, as `npm start` does (`node --enable-source-maps
 * dist/src/main.js`, built beforehand by `npm run build`), without the TypeScript loader.
 *   npm run bench:restart -- [--waiting 2000] [--active 200] [--rounds 3] [--root <dir>] [--compare <dir>] [--compiled]
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { args, freePort, median, num, round, sleep, table } from "./lib/common";
import { cpuMsOf } from "./lib/process-cpu";

const ENV = { LOG_LEVEL: "info", RATE_LIMIT_SCALE: "1000", HOUSE_DELAY_MS: "0", HOST: "127.0.0.1" };

interface Started {
  url: string;
  answersMs: number;
  settledMs: number;
  settledCpuMs: number;
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** Runs the compiled `dist/src/main.js` instead of `src/main.ts` through tsx (`--compiled`). */
let compiled = false;

/** Node's arguments for `root`'s entry point: the TypeScript through tsx, or the compiled build as `npm start` runs it. */
function entry(root: string): string[] {
  return compiled ? ["--enable-source-maps", path.join(root, "dist/src/main.js")] : ["--import", "tsx", path.join(root, "src/main.ts")];
}

/** Spawns `root`'s entry point on `database` and waits until it has settled. */
async function start(root: string, database: string): Promise<Started> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const child = spawn(process.execPath, entry(root), {
    cwd: root,
    env: { ...process.env, ...ENV, PORT: String(port), PUBLIC_BASE_URL: url, DATABASE: database },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let settledMs = 0;
  let settledCpuMs = NaN;
  const onData = (d: Buffer) => {
    out += d.toString();
    if (!settledMs && out.includes("tile arena listening")) {
      settledMs = performance.now() - t0;
      settledCpuMs = cpuMsOf(child.pid);
    }
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let answersMs = 0;
  const deadline = t0 + 300_000;
  while (!answersMs || !settledMs) {
    if (child.exitCode !== null || performance.now() > deadline) throw new Error(`server did not start:\n${out.slice(-2000)}`);
    if (!answersMs) {
      try {
        if ((await fetch(`${url}/healthz`)).ok) answersMs = performance.now() - t0;
      } catch {
        /* not listening yet */
      }
    }
    await sleep(20);
  }
  return {
    url,
    answersMs,
    settledMs,
    settledCpuMs,
    kill: async (signal) => {
      child.kill(signal);
      await exited;
    },
  };
}

async function post(url: string, body: unknown) {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (res.status >= 300) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { code?: string };
}

/** Makes `n` games with at most 16 requests at once. */
async function fill(n: number, make: (i: number) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < n) await make(next++);
    }),
  );
}

/** A filled store for `root`'s server: `waiting` waiting games and `active` active ones, then SIGKILL. */
async function filledStore(root: string, database: string, waiting: number, active: number) {
  const first = await start(root, database);
  const games = `${first.url}/api/v1/games`;
  await fill(waiting, (i) => post(games, { opponent: i % 2 ? "hosted" : "friend" }));
  await fill(active, async () => {
    const g = await post(games, { opponent: "friend" });
    await post(`${games}/join`, { code: g.code });
  });
  await first.kill("SIGKILL");
}

/** One round for `root`: an empty store's start, then the filled store's (killed again with SIGKILL). */
async function round1(root: string, emptyDb: string, filled: string): Promise<number[]> {
  const empty = await start(root, emptyDb);
  await empty.kill("SIGTERM");
  const full = await start(root, filled);
  await full.kill("SIGKILL");
  const row = [empty.answersMs, empty.settledMs, empty.settledCpuMs, full.answersMs, full.settledMs, full.settledCpuMs];
  // The filled start against its own round's empty start: answers, settled, CPU.
  row.push(full.answersMs - empty.answersMs, full.settledMs - empty.settledMs, full.settledCpuMs - empty.settledCpuMs);
  return row.map((x) => round(x, 0));
}

async function main() {
  const a = args();
  const waiting = num(a, "waiting", 2000, 0, 100_000);
  const active = num(a, "active", 200, 0, 20_000);
  const rounds = num(a, "rounds", 3, 1, 20);
  compiled = a.has("compiled");
  // Each root fills a store of its own; with two, their rounds alternate (the machine's load drifts).
  const roots = [path.resolve(a.get("root") ?? path.join(__dirname, "..")), ...(a.has("compare") ? [path.resolve(a.get("compare")!)] : [])];
  for (const root of roots) {
    if (compiled && !existsSync(path.join(root, "dist/src/main.js"))) throw new Error(`${root}: no dist/src/main.js (run npm run build there)`);
  }
  const dir = mkdtempSync(path.join(tmpdir(), "arena-restart-bench-"));
  try {
    for (const [i, root] of roots.entries()) await filledStore(root, path.join(dir, `filled-${i}.sqlite`), waiting, active);
    const rows = roots.map(() => [] as number[][]);
    for (let r = 0; r < rounds; r++) {
      for (const [i, root] of roots.entries()) rows[i].push(await round1(root, path.join(dir, `empty-${i}-${r}.sqlite`), path.join(dir, `filled-${i}.sqlite`)));
    }
    const summaries = roots.map((root, i) => {
      const col = (c: number) => median(rows[i].map((row) => row[c]));
      return {
        root,
        empty: { answersMs: col(0), settledMs: col(1), settledCpuMs: col(2) },
        filled: { answersMs: col(3), settledMs: col(4), settledCpuMs: col(5) },
        later: { answersMs: col(6), settledMs: col(7), settledCpuMs: col(8) },
        rows: rows[i],
      };
    });
    for (const s of summaries) {
      const head = ["round", "empty answers", "empty settled", "empty CPU", "filled answers", "filled settled", "filled CPU", "+answers", "+settled", "+CPU"];
      console.log(
        table(
          `${s.root}${compiled ? " (compiled)" : ""}: restart with ${waiting} waiting and ${active} active games (ms from spawn; +: filled - empty of the round)`,
          head,
          [
            ...s.rows.map((row, r) => [r + 1, ...row]),
            [
              "median",
              s.empty.answersMs,
              s.empty.settledMs,
              s.empty.settledCpuMs,
              s.filled.answersMs,
              s.filled.settledMs,
              s.filled.settledCpuMs,
              s.later.answersMs,
              s.later.settledMs,
              s.later.settledCpuMs,
            ],
          ],
        ),
      );
    }
    console.log(JSON.stringify({ bench: "restart", waiting, active, rounds, compiled, summaries }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
