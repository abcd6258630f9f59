/**
 * The README states facts a newcomer acts on: versions, the problem codes, the hand sizes, the commands and
 * where things are. Each is read out of the README's text and held to the code it describes, and the curl
 * game it gives is run, as written, against a real server: a README that drifts from the code fails here.
 */
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { ERROR_CODES } from "../../src/errors";
import { CURRENT_RULES_VERSION, newGame, type Ruleset } from "../../src/game";
import { loadConfig } from "../../src/config";
import type { RunningServer } from "../../src/server";
import { bootServer } from "../support/server";
import { useTempDir } from "../support/temp-dir";

const readme = readFileSync("README.md", "utf8");
const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { engines: { node: string }; scripts: Record<string, string> };

/** The text of a `## heading` section, up to the next `## `. */
function section(heading: string): string {
  const start = readme.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `the README has a "${heading}" section`);
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** The one match of `re` in the README (its first group), failing with what was looked for. */
function stated(re: RegExp, what: string): string {
  const m = re.exec(readme.replace(/\s+/g, " "));
  assert.ok(m, `the README states ${what}`);
  return m[1];
}

const WORDS: Record<string, number> = { four: 4, five: 5, six: 6, seven: 7 };

describe("README: every fact it states matches the code", () => {
  it("fits a page or two (under 12 KB)", () => {
    assert.ok(Buffer.byteLength(readme) < 12 * 1024, `README.md is ${Buffer.byteLength(readme)} bytes`);
  });

  it("names the current rules version", () => {
    assert.equal(Number(stated(/`rulesVersion`, now (\d+)/, "the rules version")), CURRENT_RULES_VERSION);
  });

  it("gives the hand sizes each seat is dealt, per ruleset", () => {
    const second = WORDS[stated(/second mover is dealt (\w+) cards/, "the second mover's hand")];
    const base = WORDS[stated(/\((\w+) and its champion\)/, "the cards besides the champion")];
    const [classic, mutators] = stated(/\(hands of (\d+ and \d+)\)/, "the first mover's hands")
      .split(" and ")
      .map(Number);
    const dealt = (ruleset: Ruleset) => {
      const g = newGame({ ruleset }, 7, "readme");
      const other = g.firstPlayer === "A" ? "B" : "A";
      return { first: g.hands[g.firstPlayer].length, second: g.hands[other].length, champions: g.hands[other].filter((c) => c.startsWith("K")).length };
    };
    for (const [ruleset, first] of [
      ["classic", classic],
      ["mutators", mutators],
    ] as const) {
      const d = dealt(ruleset);
      assert.deepEqual({ first: d.first, second: d.second }, { first, second }, ruleset);
      assert.equal(d.champions, 1, "one champion card in a hand");
      assert.equal(d.second - d.champions, base);
    }
  });

  it("lists exactly the problem codes of src/errors.ts", () => {
    const list = stated(/with a stable `code`: (.*?)\. Its `docs` link/, "the problem codes");
    const codes = [...list.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]);
    assert.deepEqual([...codes].sort(), Object.keys(ERROR_CODES).sort());
  });

  it("states the Node version package.json requires, which Colyseus accepts", () => {
    const version = stated(/Node\.js (\d+\.\d+) or later/, "the Node requirement");
    assert.equal(pkg.engines.node, `>=${version}.0`);
    const colyseus = JSON.parse(readFileSync("node_modules/colyseus/package.json", "utf8")) as { engines: { node: string } };
    assert.match(colyseus.engines.node, new RegExp(`\\b${version.split(".")[0]}\\b`));
  });

  it("names the default port and the embedded store the config uses", () => {
    const config = loadConfig({});
    assert.equal(Number(stated(/listens on port (\d+)/, "the port")), config.port);
    assert.ok(config.database.startsWith(stated(/SQLite file under `([^`]+)`/, "the SQLite folder")));
  });

  it("runs only npm scripts that package.json has, here and in docs/", () => {
    const files = ["README.md", ...readdirSync("docs").filter((f) => f.endsWith(".md")).map((f) => join("docs", f)), "CONTRIBUTING.md"].filter((f) => existsSync(f));
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      for (const m of text.matchAll(/npm (?:run )?([a-z][\w:-]*)/g)) {
        const name = m[1];
        // npm's own commands, not scripts.
        if (["ci", "install", "run", "warns", "exec", "i"].includes(name)) continue;
        if (m[0].startsWith("npm run ") || ["start", "test"].includes(name)) {
          assert.ok(name in pkg.scripts, `${file}: "${m[0]}" is not a script in package.json`);
        }
      }
    }
  });

  it("says which Debian packages the test command installs", () => {
    const installs = stated(/installs (`[^.]*?) from Debian/, "what the test command installs");
    const named = [...installs.matchAll(/`([\w-]+)`/g)].map((m) => m[1]).sort();
    const script = readFileSync("scripts/test.sh", "utf8");
    const installed = [...script.matchAll(/need_apt\+=\(([\w-]+)\)/g)].map((m) => m[1]).sort();
    assert.deepEqual(named, installed);
  });

  it("points at paths and documents that exist", () => {
    for (const m of section("What is where").matchAll(/`((?:src|rooms|web|test|loadtest|scripts|deploy|\.ci)\/[^`]*)`/g)) {
      assert.ok(existsSync(m[1]), `${m[1]} exists`);
    }
    for (const m of readme.matchAll(/\]\(((?!https?:)[^)#]+)(#[^)]*)?\)/g)) assert.ok(existsSync(m[1]), `${m[1]} exists`);
  });

  describe("the curl game, as written, against a real server", function () {
    this.timeout(90_000);
    let server: RunningServer;
    const tmp = useTempDir("readme-curl-");
    before(async () => {
      server = await bootServer();
    });
    after(async () => {
      await server?.close();
    });

    it("plays a whole game against the house and reads its replay and review", async () => {
      const block = /```sh\n([\s\S]*?)```/.exec(section("Play a game with curl"))?.[1];
      assert.ok(block, "the curl section has a shell block");
      assert.ok(block.includes("localhost:2567"), "the block talks to the default port");
      const script = block.replaceAll("localhost:2567", `127.0.0.1:${server.port}`);
      const { stdout } = await promisify(execFile)("bash", ["-c", script], {
        env: { ...process.env, TMPDIR: tmp() },
        timeout: 80_000,
        maxBuffer: 16 * 1024 * 1024,
      });
      const moves = stdout.split("\n").filter((l) => /^\w+@[a-d][1-4] /.test(l));
      assert.equal(moves.length, 8, `it played its seat's moves:\n${stdout.slice(0, 2000)}`);
      assert.ok(
        moves.every((l) => l.endsWith(" 200")),
        `every move was accepted:\n${moves.join("\n")}`,
      );
      assert.match(stdout, /"seed":\d+/, "the replay reveals the seed");
      assert.match(stdout, /"mark":/, "the review marks the moves");
      // Its files went to the temporary folder, none to the working directory.
      assert.ok(!existsSync("game.json") && !existsSync("sync.json"));
      assert.equal(readdirSync(tmp()).length, 1);
    });
  });
});
