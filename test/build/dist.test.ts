/**
 * The production build: `npm run build` compiles the server to dist/, and the `npm start` command runs
 * it with plain node (no TypeScript loader). The compiled server must find everything it reads at run time
 * from dist/: the AI pool's worker threads, the SQLite checkpointer's and writer's threads, the web client's
 * sources and styles, the committed assets and the API reference's files. `npm start` (and `npm run dev`) read a `.env`
 * file from the working folder through a preloaded module, quietly when there is none.
 *
 * In the slow suite (test/suites/index.cjs): end to end by nature, it compiles the whole server and starts the
 * compiled one as a process, 14 to 37 s in runs of the fast suite on the 2-core machine.
 */
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { bearer, http } from "../support/server";
import { spawnServer, type ServerProcess } from "../support/process";
import { useTempDir } from "../support/temp-dir";

const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };

/** npm start's node arguments, with its files resolved from the project folder so it can run from another. */
const startArgs = () =>
  pkg.scripts.start
    .split(" ")
    .slice(2)
    .map((a) => (a.startsWith("-") ? a : resolve(a)));

describe("Production build: npm run build, then npm start's command", function () {
  this.timeout(90_000);
  const dir = useTempDir("dist-");
  let server: ServerProcess;

  before(async () => {
    // The build script as `npm run build` runs it (tsx is a dependency, so a production install has it).
    const [tool, ...rest] = pkg.scripts.build.split(" ");
    assert.equal(tool, "tsx");
    const script = rest.at(-1)!;
    await promisify(execFile)(process.execPath, ["--import", "tsx", script], { timeout: 60_000 });
    const [exec, node, ...args] = pkg.scripts.start.split(" ");
    assert.equal(exec, "exec", "the shell npm runs becomes node, so a signal npm forwards reaches the server");
    assert.equal(node, "node", "npm start runs plain node");
    assert.ok(!args.some((a) => a.includes("tsx")), "without a TypeScript loader");
    // A file database, so the checkpointer thread runs too; AI threads, so the house decides on the pool.
    server = await spawnServer({ DATABASE: join(dir(), "arena.sqlite"), AI_THREADS: "1", LOG_LEVEL: "info" }, undefined, args);
  });
  after(async () => {
    if (server) assert.equal(await server.stop("SIGTERM"), 0, server.output());
  });

  it("builds JavaScript with source maps, and the worker-thread files beside their modules", () => {
    for (const f of [
      "dist/src/main.js",
      "dist/src/main.js.map",
      "dist/src/services/ai/worker.js",
      "dist/src/store/sqlite/checkpoint-thread.cjs",
      "dist/src/store/sqlite/writer-thread.js",
    ]) {
      assert.ok(existsSync(f), `${f} was built`);
    }
    // The entries that load a thread's TypeScript through tsx are for the sources only.
    for (const f of ["dist/src/services/ai/worker-entry.cjs", "dist/src/store/sqlite/writer-entry.cjs"]) assert.ok(!existsSync(f), `${f} was not copied`);
    assert.ok(pkg.scripts.start.includes("--enable-source-maps"));
    assert.match(pkg.scripts.prepare, /^npm run build( &&|$)/, "npm ci builds, so `npm ci && npm start` runs compiled code");
  });

  it("points a stack trace from the compiled code at the TypeScript line, with npm start's flags", async () => {
    const flags = pkg.scripts.start.split(" ").filter((a) => a === "--enable-source-maps");
    assert.equal(flags.length, 1);
    const script = "try { require('./dist/src/engine/index.js').newGame({ rulesVersion: 99 }, 1, 's') } catch (e) { console.log(e.stack) }";
    const { stdout } = await promisify(execFile)(process.execPath, [...flags, "-e", script], { env: { ...process.env, NODE_OPTIONS: "" } });
    assert.match(stdout, /unknown rules version 99/);
    assert.match(stdout.split("\n")[1], /src[/\\]engine[/\\]setup\.ts:\d+:\d+\)$/, stdout);
    assert.doesNotMatch(stdout, /dist[/\\]src/, stdout);
  });

  it("answers /healthz and plays a house game whose opponent decides on a worker thread", async () => {
    const health = await http(server.url, "GET", "/healthz");
    assert.equal(health.status, 200);
    assert.equal(health.json.store.adapter, "sqlite");
    const created = await http(server.url, "POST", "/api/v1/games", { opponent: "house", level: "normal", name: "Ann" });
    assert.equal(created.status, 201, created.text);
    const { game, playerToken } = created.json;
    let sync: any;
    for (let since = 0; ;) {
      sync = (await http(server.url, "GET", `/api/v1/games/${game.id}/sync?since=${since}&timeout=10`, undefined, bearer(playerToken))).json;
      if (sync.status !== "active") break;
      since = sync.moveCount;
      if (!sync.yourTurn) continue;
      const taken = new Set(sync.state.board.map((c: { square: string }) => c.square));
      const square = "abcd"
        .split("")
        .flatMap((f) => ["1", "2", "3", "4"].map((r) => f + r))
        .find((q) => !taken.has(q));
      const moved = await http(server.url, "POST", `/api/v1/games/${game.id}/moves`, { card: sync.state.hand[0].id, square }, bearer(playerToken));
      assert.equal(moved.status, 200, moved.text);
    }
    assert.equal(sync.status, "finished");
    const metrics = (await http(server.url, "GET", "/metrics")).text;
    assert.match(metrics, /arena_ai_task_seconds_count\{task="decide"\} [1-9]/);
    // A task that failed on its thread would be logged and run inline: none did, and no file was missing.
    assert.doesNotMatch(server.output(), /worker thread failed|Cannot find module|ENOENT/i, server.output());
  });

  it("starts from a folder without .env with no message about it", async () => {
    const cwd = join(dir(), "no-dotenv");
    mkdirSync(cwd);
    const quiet = await spawnServer({ DATABASE: ":memory:" }, undefined, startArgs(), cwd);
    try {
      assert.equal((await http(quiet.url, "GET", "/healthz")).status, 200);
    } finally {
      assert.equal(await quiet.stop("SIGTERM"), 0, quiet.output());
    }
    assert.doesNotMatch(quiet.output(), /\.env not found|Continuing without it/i, quiet.output());
  });

  it("reads .env from its folder, and a variable set in the environment wins over the file's", async () => {
    const cwd = join(dir(), "dotenv");
    mkdirSync(cwd);
    const database = join(cwd, "from-dotenv.sqlite");
    // HOST and PORT from the file could not serve on the loopback port the test waits on: the environment's must win.
    writeFileSync(join(cwd, ".env"), `# read by npm start\nDATABASE=${database}\nHOST=203.0.113.1\nPORT=1\n`);
    const env = await spawnServer({}, undefined, startArgs(), cwd);
    try {
      assert.equal((await http(env.url, "GET", "/healthz")).status, 200);
      assert.ok(existsSync(database), "the store is the file .env names");
    } finally {
      assert.equal(await env.stop("SIGTERM"), 0, env.output());
    }
  });

  it("loads .env from the same module in npm start and npm run dev, as docs/DEPLOY.md says", () => {
    assert.match(pkg.scripts.start, / --require \.\/dist\/src\/shared\/env-file\.js /);
    assert.match(pkg.scripts.dev, / --require \.\/src\/shared\/env-file\.ts /);
    assert.ok(!/--env-file/.test(pkg.scripts.start + pkg.scripts.dev), "not node's flag, which prints a line when the file is missing");
    const deploy = readFileSync("docs/DEPLOY.md", "utf8").replace(/\s+/g, " ");
    assert.ok(deploy.includes(`\`npm start\` runs \`${pkg.scripts.start}\``), "docs/DEPLOY.md states npm start's command");
  });

  it("serves the web client, its assets and the API reference from the files it reads at run time", async () => {
    for (const path of ["/", "/web/css/app.css", "/web/js/home.js", "/vendor/colyseus.js", "/docs", "/api/v1/clients/manifest", "/assets/brand/logo.svg"]) {
      const res = await http(server.url, "GET", path);
      assert.equal(res.status, 200, `${path}: ${res.status}`);
    }
  });
});
