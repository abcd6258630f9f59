/**
 * `npm test` (the fast suite), `npm run test:browser` and `npm run test:slow` together run every test file,
 * each once: the browser and slow suites' patterns are the fast suite's ignores. Files are collected with mocha's
 * own collector, from the mocha config each script names (test/suites/). The fast suite starts with its longest
 * files, each once.
 */
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { relative, resolve } from "node:path";

// Mocha's file collector (what `mocha <spec> --ignore <pattern>` runs); not a documented export.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const collect = require("mocha/lib/cli/collect-files.cjs") as (o: {
  ignore: string[];
  extension: string[];
  file: string[];
  recursive: boolean;
  sort: boolean;
  spec: string[];
}) => { files: string[] };

const scripts = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts;

/** The spec and ignore patterns of the mocha config a script names (`--config <file>`), and nothing else. */
function patterns(script: string): { spec: string[]; ignore: string[] } {
  const config = /^mocha (?:--parallel --jobs \d+ )?--config (\S+)$/.exec(script)?.[1];
  assert.ok(config, `${script}: mocha with a suite's config, no patterns of its own`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { spec = [], ignore = [] } = require(resolve(config)) as { spec?: string[]; ignore?: string[] };
  return { spec, ignore };
}

const files = (p: { spec: string[]; ignore: string[] }) =>
  collect({ ...p, extension: ["ts"], file: [], recursive: true, sort: true })
    .files.map((f) => relative(process.cwd(), f))
    .sort();

describe("Test suites: fast, browser and slow", () => {
  it("split every test file between them, each into one", () => {
    const fast = files(patterns(scripts.test));
    const browser = files(patterns(scripts["test:browser"]));
    const slow = files(patterns(scripts["test:slow"]));
    const all = files({ spec: ["test/**/*.test.ts"], ignore: [] });
    assert.ok(slow.includes("test/ai/strength.test.ts") && slow.some((f) => f.startsWith("test/loadtest/")), slow.join("\n"));
    assert.ok(browser.includes("test/web/play.test.ts") && browser.includes("test/bots/hosted-browser.test.ts"), browser.join("\n"));
    const suites = [fast, browser, slow];
    assert.deepEqual(fast.filter((f) => browser.includes(f) || slow.includes(f)).concat(browser.filter((f) => slow.includes(f))), [], "no file in two");
    assert.deepEqual(suites.flat().sort(), all, "no file left out");
    assert.ok(fast.length > slow.length * 4);
  });

  it("starts the fast suite with its longest files, each a file of the fast suite", () => {
    const fast = files(patterns(scripts.test));
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { longest } = require(resolve("test/suites/index.cjs")) as { longest: string[] };
    assert.ok(longest.length > 0);
    for (const f of longest) assert.ok(fast.includes(f), `${f}: not a file of the fast suite`);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const spec = (require(resolve("test/suites/fast.cjs")) as { spec: string[] }).spec;
    assert.deepEqual(spec.slice(0, longest.length), longest);
    assert.equal(new Set(spec).size, spec.length, "no file twice");
  });
});
