/**
 * How long each test file takes, for finding the slow ones: a mocha root-hook plugin that appends one line per
 * file, `<wall seconds>\t<CPU seconds>\t<file>`, to the file named by FILE_TIMES (nothing when it is unset).
 * Root hooks wrap each file only in parallel mode (each file a run of its own in a worker), so:
 *
 *   FILE_TIMES=/tmp/times.tsv npx mocha --parallel --jobs 2 --config test/suites/fast.cjs --require test/support/file-times.ts
 *   sort -rn /tmp/times.tsv | head -25
 *
 * The CPU column is the worker's (its threads included) plus, on Linux, that of the child processes that ended
 * during the file (servers, Redis, CongoDB, command-line tools it started and stopped). A file's imports are
 * loaded before its hooks run, so neither column counts them.
 */
import { appendFileSync, readFileSync } from "node:fs";
import { relative } from "node:path";
import type { Context } from "mocha";

let started = 0;
let cpu = process.cpuUsage();
let children = 0;

/** CPU seconds of the ended child processes this process waited for (cutime + cstime of /proc/self/stat). */
function childSeconds(): number {
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
    // Fields 16 and 17 of stat(5), in clock ticks (100 a second on Linux); the split drops the first two.
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return 0;
  }
}

export const mochaHooks = {
  beforeAll() {
    started = performance.now();
    cpu = process.cpuUsage();
    children = childSeconds();
  },
  afterAll(this: Context) {
    const out = process.env.FILE_TIMES;
    if (!out) return;
    const root = this.test?.parent;
    const file = root?.suites.find((s) => s.file)?.file ?? root?.tests.find((t) => t.file)?.file ?? "?";
    const used = process.cpuUsage(cpu);
    const wall = ((performance.now() - started) / 1000).toFixed(1);
    const seconds = (used.user + used.system) / 1e6 + childSeconds() - children;
    appendFileSync(out, `${wall}\t${seconds.toFixed(1)}\t${relative(process.cwd(), file)}\n`);
  },
};
