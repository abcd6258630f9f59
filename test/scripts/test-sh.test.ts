/**
 * scripts/test.sh, the test command of the README and of CI: it installs the npm packages only when the lock
 * file (or Node) changed since `npm ci` last installed them (run by the script, or by hand: package.json's
 * prepare records it), and otherwise reuses the tree and rebuilds dist/; it runs
 * the type check, the linter, the formatter's check, the fast, the browser and the slow suite, and sums them on its last line. The script is run
 * as it is, in a copy of the repository's layout, with stand-ins for npm, npx and the Debian tools that log
 * what they were asked to do.
 */
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { useTempDir } from "../support/temp-dir";

const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };

/** A stand-in command: logs its arguments; `npm test` and the other suites' scripts print mocha's counts. */
const STAND_IN = `#!/usr/bin/env bash
where=""
case "$PWD" in */.ci/congodb) where=" (in .ci/congodb)" ;; esac
echo "$(basename "$0") $*$where" >> "$CALLS"
case "$*" in
  "test") echo "  5 passing"; echo "  1 pending"; [ -z "$FAIL_FAST" ] || { echo "  1 failing"; exit 1; } ;;
  "run test:browser") echo "  3 passing" ;;
  "run test:slow") echo "  2 passing" ;;
esac
exit 0
`;

describe("scripts/test.sh: reuses an installed tree, runs the three suites", function () {
  this.timeout(30_000);
  const tmp = useTempDir("test-sh-");

  /** Runs the copied script; its exit code, the stand-ins' calls in order, and what it printed. */
  async function run(root: string, bin: string, env: Record<string, string> = {}): Promise<{ code: number; calls: string[]; stdout: string }> {
    const calls = join(root, "calls.log");
    writeFileSync(calls, "");
    const { code, stdout } = await promisify(execFile)("bash", [join(root, "scripts/test.sh")], {
      env: { PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`, CALLS: calls, HOME: root, ...env },
      timeout: 20_000,
    }).then(
      (r) => ({ code: 0, stdout: r.stdout }),
      (err: { code: number; stdout: string }) => ({ code: err.code, stdout: err.stdout }),
    );
    return { code, calls: readFileSync(calls, "utf8").trim().split("\n"), stdout };
  }

  /** A copy of the repository's layout with the script, a lock file, and stand-ins on a PATH of their own. */
  function layout(name: string): { root: string; bin: string } {
    const root = join(tmp(), name);
    const bin = join(tmp(), `${name}-bin`);
    for (const dir of ["scripts", "node_modules", ".ci/congodb/node_modules"]) mkdirSync(join(root, dir), { recursive: true });
    mkdirSync(bin, { recursive: true });
    copyFileSync("scripts/test.sh", join(root, "scripts/test.sh"));
    writeFileSync(join(root, "package-lock.json"), '{"lockfileVersion":3}\n');
    writeFileSync(join(root, ".ci/congodb/package-lock.json"), '{"lockfileVersion":3}\n');
    for (const tool of ["npm", "npx", "redis-server", "openssl", "chromium", "nginx", "curl"]) {
      writeFileSync(join(bin, tool), STAND_IN);
      chmodSync(join(bin, tool), 0o755);
    }
    return { root, bin };
  }

  it("installs from the lock file once, then reuses node_modules until the lock file changes", async () => {
    const { root, bin } = layout("repo");
    const first = await run(root, bin);
    assert.deepEqual(
      first.calls,
      [
        "npm ci --no-audit --no-fund",
        "npm ci --no-audit --no-fund (in .ci/congodb)",
        "npx tsc --noEmit -p .",
        "npm run lint",
        "npm run format:check",
        "npm test",
        "npm run test:browser",
        "npm run test:slow",
      ],
      "a fresh tree: the packages and CongoDB's are installed, then the checks and the three suites",
    );
    assert.equal(first.code, 0);
    assert.equal(first.stdout.trim().split("\n").at(-1), "10 passed, 0 failed, 1 skipped", "the last line sums the three suites");
    assert.match(first.stdout, /^fast suite: \d+ s, exit code 0$/m);
    assert.match(first.stdout, /^browser suite: \d+ s, exit code 0$/m);
    assert.match(first.stdout, /^slow suite: \d+ s, exit code 0$/m);

    const second = await run(root, bin);
    assert.deepEqual(second.calls.slice(0, 2), ["npm run build", "npx tsc --noEmit -p ."], "the same lock file: no install, dist/ rebuilt");
    assert.match(second.stdout, /reusing it/);

    writeFileSync(join(root, "package-lock.json"), '{"lockfileVersion":3,"changed":true}\n');
    const third = await run(root, bin);
    assert.deepEqual(third.calls.slice(0, 2), ["npm ci --no-audit --no-fund", "npx tsc --noEmit -p ."], "a changed lock file: installed again");

    // A failing fast suite still lets the others run, and fails the script.
    const failing = await run(root, bin, { FAIL_FAST: "1" });
    assert.equal(failing.code, 1);
    assert.deepEqual(failing.calls.slice(-3), ["npm test", "npm run test:browser", "npm run test:slow"]);
    assert.equal(failing.stdout.trim().split("\n").at(-1), "10 passed, 1 failed, 1 skipped");
  });

  it("reuses the tree the README's npm ci installed (its prepare script records it), not one npm install left", async () => {
    const { root, bin } = layout("by-hand");
    assert.match(pkg.scripts.prepare, /&& tsx( --require \S+)* scripts\/lock-stamp\.ts$/);
    // package.json's prepare ends with scripts/lock-stamp.ts, which npm runs in the installed tree: here, the copy.
    const stampIn = async (env: Record<string, string>) => {
      await promisify(execFile)(
        process.execPath,
        ["--import", join(process.cwd(), "node_modules/tsx/dist/loader.mjs"), join(process.cwd(), "scripts/lock-stamp.ts")],
        { env: { PATH: process.env.PATH, ...env }, cwd: root },
      );
    };

    await stampIn({ npm_command: "ci" });
    const reused = await run(root, bin);
    assert.deepEqual(
      reused.calls.slice(0, 3),
      ["npm run build", "npm ci --no-audit --no-fund (in .ci/congodb)", "npx tsc --noEmit -p ."],
      "npm ci's tree: no second install (CongoDB's, which npm ci does not install, is installed once)",
    );

    await stampIn({ npm_command: "install" });
    assert.equal((await run(root, bin)).calls[0], "npm ci --no-audit --no-fund", "after npm install: installed again");

    await stampIn({ npm_command: "ci", npm_config_omit: "dev" });
    assert.equal((await run(root, bin)).calls[0], "npm ci --no-audit --no-fund", "without devDependencies: installed again");
  });
});
