/**
 * docs/OPEN-DATA.md's loaders, run as the document prints them: the Python (standard library only) and the
 * TypeScript code blocks are taken out of the document and run on an export that `npm run export:games` wrote
 * from the store of a server this test starts and plays games on. Each loader must read every line and find
 * each entry's canonical JSON hashing to its leaf hash (rated games' ratings included).
 */
import assert from "node:assert/strict";
import { execFile, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { gunzipSync, gzipSync } from "node:zlib";
import type { RunningServer } from "../../src/server";
import { playToEnd } from "../agents/play";
import { bootServer, http } from "../support/server";

const run = promisify(execFile);
const DOC = readFileSync(join(__dirname, "..", "..", "docs", "OPEN-DATA.md"), "utf8");
/** The file name the document's loaders read. */
const FILE = "games-2026-11.ndjson.gz";

/** The code block of `lang` under the heading that starts with `heading`. */
function block(heading: string, lang: string): string {
  const at = DOC.indexOf(`\n### ${heading}`);
  assert.ok(at >= 0, `docs/OPEN-DATA.md has a "### ${heading}" section`);
  const m = new RegExp("```" + lang + "\\n([\\s\\S]*?)\\n```").exec(DOC.slice(at));
  assert.ok(m, `the "${heading}" section has a \`\`\`${lang} block`);
  return m[1];
}

interface Line {
  index: number;
  leafHash: string;
  entry: {
    gameId: string;
    ruleset: string;
    winner: string | null;
    decidedBy: string;
    actions: { kind: string }[];
    seats: Record<string, { ratingAfter?: unknown }>;
  };
}

describe("docs/OPEN-DATA.md's loaders on a real export", function () {
  this.timeout(120_000);
  let server: RunningServer;
  let dir: string;
  let lines: Line[];

  before(async function () {
    dir = mkdtempSync(join(tmpdir(), "open-data-"));
    const database = join(dir, "arena.db");
    server = await bootServer({ database, logBatchMs: 50 });
    for (let i = 0; i < 3; i++) {
      const created = await http(server.url, "POST", "/api/v1/games", { opponent: "house", level: "easy", name: `Reader ${i}` });
      assert.equal(created.status, 201, created.text);
      const id = created.json.game.id as string;
      const token = created.json.playerToken as string;
      if (i === 1) await http(server.url, "POST", `/api/v1/games/${id}/resign`, undefined, { authorization: `Bearer ${token}` });
      else await playToEnd(server.url, id, token);
    }
    for (let i = 0; i < 200 && (await http(server.url, "GET", "/api/v1/log/head")).json.size < 3; i++) await new Promise((r) => setTimeout(r, 50));
    const first = (await http(server.url, "GET", "/api/v1/log/entries?from=0&count=1")).json.entries[0].entry as { finishedAt: string };
    // `npm run export:games`, on the store the server writes: the month the games finished in.
    await run("npm", ["run", "--silent", "export:games", "--", "--month", first.finishedAt.slice(0, 7), "--out", join(dir, FILE)], {
      cwd: join(__dirname, "..", ".."),
      env: { ...process.env, DATABASE: database, LOG_LEVEL: "silent" },
    });
    lines = gunzipSync(readFileSync(join(dir, FILE)))
      .toString()
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Line);
    assert.equal(lines.length, 3);
    assert.ok(
      lines.some((l) => Object.values(l.entry.seats).some((s) => s.ratingAfter)),
      "a rated game's entry, whose ratings the loaders must hash as the log does",
    );
  });
  after(async function () {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("the Python loader reads every entry, each hashing to its leaf", async function () {
    if (spawnSync("python3", ["--version"]).error) {
      console.log("    python3 is not installed: the Python loader of docs/OPEN-DATA.md is not run");
      return this.skip();
    }
    const script = join(dir, "loader.py");
    writeFileSync(script, block("A loader in Python", "python"));
    const { stdout } = await run("python3", [script], { cwd: dir });
    const printed = stdout.trim().split("\n");
    assert.deepEqual(
      printed,
      lines.map((l) =>
        [l.index, l.entry.gameId, l.entry.ruleset, l.entry.winner ?? "None", l.entry.decidedBy, l.entry.actions.filter((a) => a.kind === "place").length].join(
          " ",
        ),
      ),
    );
  });

  it("the Python loader refuses an entry that does not hash to its leaf", async function () {
    if (spawnSync("python3", ["--version"]).error) return this.skip();
    const script = join(dir, "loader.py");
    writeFileSync(script, block("A loader in Python", "python"));
    const other = mkdtempSync(join(tmpdir(), "open-data-bad-"));
    try {
      const bad = lines.map((l, i) => JSON.stringify(i === 1 ? { ...l, entry: { ...l.entry, winner: "draw" } } : l)).join("\n");
      writeFileSync(join(other, FILE), gzipSync(`${bad}\n`));
      await assert.rejects(run("python3", [script], { cwd: other }), /AssertionError/);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it("the TypeScript loader reads every entry, each hashing to its leaf", async function () {
    const module = join(dir, "loader.ts");
    writeFileSync(module, block("A loader in TypeScript", "ts"));
    const { load } = (await import(pathToFileURL(module).href)) as { load: (path: string) => AsyncIterable<Line> };
    const read: Line[] = [];
    for await (const row of load(join(dir, FILE))) read.push(row);
    assert.deepEqual(read, lines);
    const bad = join(dir, "bad.ndjson.gz");
    writeFileSync(bad, gzipSync(`${JSON.stringify({ ...lines[0], entry: { ...lines[0].entry, decidedBy: "timeout" } })}\n`));
    await assert.rejects(async () => {
      for await (const _ of load(bad)) void _;
    }, /does not hash to its leaf/);
  });
});
