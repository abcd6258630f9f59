/**
 * CONTRIBUTING.md tells a newcomer how to set up, run one test file or one test, and what the test command
 * does: its commands, files and the script's behaviour are held to the repository here (the npm scripts it
 * runs are checked with the README's, in readme-facts.test.ts). Its timings are measurements, not checked.
 */
import { strict as assert } from "node:assert";
import { existsSync, readFileSync } from "node:fs";

const text = readFileSync("CONTRIBUTING.md", "utf8");
const flat = text.replace(/\s+/g, " ");
const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { engines: { node: string }; scripts: Record<string, string> };
const testSh = readFileSync("scripts/test.sh", "utf8");

describe("CONTRIBUTING.md: its commands and files match the repository", () => {
  it("asks for the Node version package.json requires", () => {
    const version = /Node\.js (\d+\.\d+) or later/.exec(flat)?.[1];
    assert.equal(pkg.engines.node, `>=${version}.0`);
  });

  it("runs one file, and one test of it, as written", () => {
    const lines = [...text.matchAll(/^npx mocha (\S+)(?: -g (\S+))?/gm)];
    assert.equal(lines.length, 2, "one file, then a title filter");
    const [, file] = lines[0];
    assert.ok(existsSync(file), file);
    assert.match(readFileSync(".mocharc.json", "utf8"), /"import=tsx"/, "mocha runs TypeScript through tsx");
    // -g matches a test's full title: its describe's and its own. Every describe of the file here misses the
    // pattern, so the tests selected are those whose own title matches.
    const source = readFileSync(file, "utf8");
    const pattern = new RegExp(lines[1][2]);
    const titles = (fn: string) => [...source.matchAll(new RegExp(`^\\s*${fn}\\("([^"]+)"`, "gm"))].map((m) => m[1]);
    assert.ok(titles("describe").length > 0 && !titles("describe").some((t) => pattern.test(t)));
    const all = titles("it").length;
    const some = titles("it").filter((t) => pattern.test(t)).length;
    assert.ok(some >= 1 && some < all, `-g ${lines[1][2]} selects ${some} of ${all} tests`);
  });

  it("describes the three suites and what scripts/test.sh does", () => {
    assert.match(pkg.scripts.test, /--parallel --jobs 3/, "the fast suite runs three files at a time");
    assert.match(flat, /three files at a time \(mocha --parallel\)/);
    assert.ok(text.includes("test/support/file-times.ts") && existsSync("test/support/file-times.ts"), "the per-file timing plugin");
    for (const f of ["test/scripts/suites.test.ts", "test/docs/env-example.test.ts", "test/docs/readme-facts.test.ts"]) {
      assert.ok(text.includes(f) && existsSync(f), f);
    }
    // The durations it quotes are the lines the script prints.
    assert.match(flat, /`fast suite: N s`, `browser suite: N s`, `slow suite: N s`/);
    assert.match(pkg.scripts["test:browser"], /--parallel --jobs 2/, "the browser suite runs two files at a time");
    assert.match(testSh, /echo "\$name suite: \$\(\(SECONDS - started\)\) s, exit code \$code"/);
    assert.match(testSh, /^suite fast npm test$/m);
    assert.match(testSh, /^suite browser npm run test:browser$/m);
    assert.match(testSh, /^suite slow npm run test:slow$/m);
    // The install is skipped on the same lock file and Node, remembered in node_modules/.lock-hash.
    assert.match(flat, /`node_modules\/\.lock-hash`/);
    assert.match(testSh, /^stamp="node_modules\/\.lock-hash"$/m);
    assert.match(testSh, /\(cat package-lock\.json; node -v\) \| sha256sum/);
    assert.match(flat, /`N passed, N failed, N skipped`/);
    assert.match(testSh, /echo "\$passed passed, \$failed failed, \$skipped skipped"/);
  });

  it("names the Debian packages scripts/test.sh installs", () => {
    const named = /Some tests need Debian packages: (.*?)\. `bash scripts\/test\.sh` installs/.exec(flat)?.[1] ?? "";
    const listed = [...named.matchAll(/`([\w-]+)`/g)].map((m) => m[1]).sort();
    const installed = [...testSh.matchAll(/need_apt\+=\(([\w-]+)\)/g)].map((m) => m[1]).sort();
    assert.deepEqual(listed, installed);
  });
});
