/**
 * scripts/node-version.cjs: an older Node than 22 stops with a message saying what to install, before the
 * server's native modules fail with NODE_MODULE_VERSION; every node and tsx npm script and mocha preload it.
 */
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

const PRELOAD = "./scripts/node-version.cjs";

/** Runs the preload in a Node that reports `version`, then prints "ran" if it let the program go on. */
const runAs = (version: string) =>
  spawnSync(
    process.execPath,
    ["-e", `Object.defineProperty(process.versions, "node", { value: ${JSON.stringify(version)} }); require(${JSON.stringify(PRELOAD)}); console.log("ran")`],
    { encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } },
  );

describe("Node version preload", () => {
  it("exits with code 1 and says Node >= 22 is needed, and how to get it, when the major is below 22", () => {
    for (const version of ["20.11.1", "18.0.0", "21.7.3"]) {
      const r = runAs(version);
      assert.equal(r.status, 1, `${version}: ${r.stderr}`);
      assert.equal(r.stdout, "", "the program did not run");
      assert.match(r.stderr, /needs Node\.js >= 22/);
      assert.match(r.stderr, new RegExp(`this is Node\\.js ${version.replace(/\./g, "\\.")}`));
      assert.match(r.stderr, /nvm install 22/);
      assert.ok(!r.stderr.includes("NODE_MODULE_VERSION"));
    }
  });

  it("lets Node 22 and later run on, silently", () => {
    for (const version of ["22.12.0", "24.1.0", process.versions.node]) {
      const r = runAs(version);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout.trim(), "ran");
      assert.equal(r.stderr, "");
    }
  });

  it("is preloaded by every npm script that starts node or tsx, and by mocha", () => {
    const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };
    const commands = Object.entries(pkg.scripts).flatMap(([name, script]) => script.split("&&").map((c) => [name, c.trim().replace(/^exec /, "")] as const));
    const runners = commands.filter(([, c]) => /^(node|tsx)\b/.test(c));
    assert.ok(runners.length > 20, "the scripts were found");
    for (const [name, command] of runners) assert.ok(command.includes(`--require ${PRELOAD}`), `${name}: ${command}`);
    for (const name of ["start", "dev", "build"])
      assert.ok(
        runners.some(([n]) => n === name),
        name,
      );
    const mocharc = JSON.parse(readFileSync(".mocharc.json", "utf8")) as { "node-option": string[] };
    assert.equal(mocharc["node-option"][0], `require=${PRELOAD}`, "mocha's processes check before loading tsx");
  });
});
