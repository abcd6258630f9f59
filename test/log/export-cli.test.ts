/**
 * `npm run export:games` as a newcomer meets it: --help says it reads the local store (not a server) and that
 * --to is exclusive, and an export of no entries warns on stderr instead of passing for a good one.
 */
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { useTempDir } from "../support/temp-dir";

const CLI = join(process.cwd(), "src/cli/export-games.ts");

describe("export:games command line", function () {
  this.timeout(30_000);
  const dir = useTempDir("export-cli-");
  const run = (args: string[]) =>
    promisify(execFile)(process.execPath, ["--import", "tsx", CLI, ...args], {
      env: { ...process.env, DATABASE: join(dir(), "arena.sqlite"), LOG_LEVEL: "silent" },
    });

  it("says in --help that it reads the local store named by DATABASE, beside the server, and that --to is exclusive", async () => {
    const { stdout } = await run(["--help"]);
    const help = stdout.replace(/\s+/g, " ");
    assert.match(help, /usage: export:games/);
    assert.match(help, /reads the local store named by DATABASE \(or MONGODB_URL\), not a server/);
    assert.match(help, /beside the server with the same DATABASE setting/);
    assert.match(help, /--to is exclusive/);
  });

  it("warns on stderr when the export holds no entries, and still writes the file", async () => {
    const { stdout, stderr } = await run(["--from", "0", "--to", "10", "--out", join(dir(), "none.ndjson.gz")]);
    assert.match(stdout, /^0 entries written to .*none\.ndjson\.gz \(tree of 0\)/);
    assert.match(stderr, /warning: the export holds no entries \(the log in this store has 0\)/);
    assert.match(stderr, /--to is exclusive/);
    assert.match(stderr, /DATABASE/);
  });
});
