/**
 * The verifier (npm run log:verify) against a running server whose store is then tampered with: a changed
 * game, a removed or reordered entry and a rewritten history are each caught; an honest log passes.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { httpGetJson } from "../../src/services/leagues/verify";
import { canonicalJson } from "../../src/services/log/canonical";
import { gameEntryOf, leafOf, type LogEntry } from "../../src/services/log/entry";
import { signHead } from "../../src/services/log/heads";
import { openLogKeys } from "../../src/services/log/keys";
import { appendLeaf, frontierRoot, type Hash } from "../../src/services/log/merkle";
import { verifyLog } from "../../src/services/log/verify";
import { SqliteStore } from "../../src/store/sqlite";
import type { RunningServer } from "../../src/server";
import type { TreeHeadRecord } from "../../src/store";
import { playToEnd } from "../agents/play";
import { bootServer, http } from "../support/server";
import { playedGame } from "./fixtures";

const run = promisify(execFile);

describe("Integration: the public log's verifier", function () {
  this.timeout(90_000);
  let server: RunningServer;
  let dir: string;
  let db: Database.Database;
  const ids: string[] = [];

  async function finishGame(): Promise<string> {
    const created = await http(server.url, "POST", "/api/v1/games", { opponent: "house", level: "easy", name: "Ann" });
    const id = created.json.game.id as string;
    if (ids.length % 2)
      await http(server.url, "POST", `/api/v1/games/${id}/resign`, undefined, { authorization: `Bearer ${created.json.playerToken as string}` });
    else await playToEnd(server.url, id, created.json.playerToken as string);
    ids.push(id);
    return id;
  }
  async function logged(size: number) {
    for (let i = 0; i < 200 && (await http(server.url, "GET", "/api/v1/log/head")).json.size < size; i++) await new Promise((r) => setTimeout(r, 50));
  }
  const verify = (since?: TreeHeadRecord) => verifyLog(httpGetJson(server.url), { since });

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "log-verify-"));
    const database = join(dir, "arena.db");
    server = await bootServer({ logBatchMs: 50, database });
    for (let i = 0; i < 4; i++) await finishGame();
    await logged(4);
    db = new Database(database);
    db.pragma("busy_timeout = 5000");
  });
  after(async () => {
    db?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("passes an honest log, and one that only grew since a saved head", async function () {
    const first = await verify();
    assert.deepEqual(first.problems, []);
    assert.equal(first.entriesChecked, 4);
    await finishGame();
    await logged(5);
    const second = await verify(first.head);
    assert.deepEqual(second.problems, []);
    assert.equal(second.head.size, 5);
  });

  it("catches an entry removed from the log", async function () {
    const row = db.prepare("SELECT * FROM log_entries WHERE idx = 1").get() as Record<string, unknown>;
    db.prepare("DELETE FROM log_entries WHERE idx = 1").run();
    try {
      const report = await verify();
      assert.ok(
        report.problems.some((p) => p.includes("entry 1 is missing")),
        report.problems.join("\n"),
      );
    } finally {
      db.prepare("INSERT INTO log_entries (idx, game_id, finished_at, leaf, private_salt) VALUES (@idx, @game_id, @finished_at, @leaf, @private_salt)").run(
        row,
      );
    }
  });

  it("catches two entries swapped, and a history rewritten since a saved head", async function () {
    const saved = (await verify()).head;
    const swap = () => {
      const a = db.prepare("SELECT game_id, leaf FROM log_entries WHERE idx = 0").get() as { game_id: string; leaf: string };
      const b = db.prepare("SELECT game_id, leaf FROM log_entries WHERE idx = 2").get() as { game_id: string; leaf: string };
      db.transaction(() => {
        db.prepare("UPDATE log_entries SET game_id = ?, leaf = ? WHERE idx = 0").run(`${b.game_id}~`, b.leaf);
        db.prepare("UPDATE log_entries SET game_id = ?, leaf = ? WHERE idx = 2").run(a.game_id, a.leaf);
        db.prepare("UPDATE log_entries SET game_id = ? WHERE idx = 0").run(b.game_id);
      })();
    };
    swap();
    try {
      const report = await verify();
      assert.ok(
        report.problems.some((p) => p.includes("do not make the signed root")),
        report.problems.join("\n"),
      );
    } finally {
      swap();
    }
    // A head whose root is not the log's at that size: the saved history and the served one differ.
    const forged = { ...saved, rootHash: "00".repeat(32) };
    const report = await verify(forged);
    assert.ok(
      report.problems.some((p) => p.includes("saved head")),
      report.problems.join("\n"),
    );
  });

  it("exits 0 on an honest log and saves its head; exits 1 on a tampered one", async function () {
    const cli = join(process.cwd(), "src/cli/log-verify.ts");
    const saved = join(dir, "head.json");
    const ok = await run(process.execPath, ["--import", "tsx", cli, server.url, "--save", saved]);
    assert.match(ok.stdout, /5 entries checked, 0 mismatches/);
    assert.equal((JSON.parse(readFileSync(saved, "utf8")) as TreeHeadRecord).size, 5);
    assert.doesNotMatch(ok.stdout, /saved head/, "no saved head given, none compared");
    const again = await run(process.execPath, ["--import", "tsx", cli, server.url, "--since", saved]);
    assert.match(again.stdout, /consistency with the saved head \(size 5, root [0-9a-f]+\): checked, the log only grew/);
    db.prepare("UPDATE log_entries SET leaf = replace(leaf, '\"winner\":', '\"winner\": ') WHERE idx = 3").run();
    const bad = await run(process.execPath, ["--import", "tsx", cli, server.url, "--since", saved]).then(
      () => ({ code: 0, stderr: "" }),
      (e: { code: number; stderr: string }) => e,
    );
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /MISMATCH/);
    assert.match((bad as { stdout?: string }).stdout ?? "", /consistency with the saved head \(size 5, /);
  });

  it("catches a game changed in the store after it was logged", async function () {
    // A game this server has not read since it finished (it keeps finished games it read in memory).
    const id = await finishGame();
    await logged(ids.length);
    const before = (db.prepare("SELECT doc FROM games WHERE id = ?").get(id) as { doc: string }).doc;
    db.prepare("UPDATE games SET doc = json_set(doc, '$.seed', json_extract(doc, '$.seed') + 1) WHERE id = ?").run(id);
    try {
      const report = await verify();
      assert.ok(
        report.problems.some((p) => p.includes(id)),
        report.problems.join("\n"),
      );
    } finally {
      db.prepare("UPDATE games SET doc = ? WHERE id = ?").run(before, id);
    }
  });
});

describe("Integration: a log holding format 1 entries", function () {
  this.timeout(90_000);
  let server: RunningServer | undefined;
  let dir: string;
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("still verifies once the server appends format 2 entries after them", async function () {
    dir = mkdtempSync(join(tmpdir(), "log-format1-"));
    const database = join(dir, "arena.db");
    // A log as the server wrote it before ratings were recorded: two format 1 entries under a signed head.
    const store = new SqliteStore({ path: database, checkpointMs: 0 });
    await store.init();
    const key = (await openLogKeys(store.log, { keyFile: join(dir, "log-signing.key"), origin: "localhost/log" })).current;
    const lease = (await store.log.claimLogLease("earlier", new Date(0).toISOString(), new Date(1).toISOString()))!;
    let frontier: Hash[] = [];
    const entries = [];
    const nodes = [];
    for (let n = 0; n < 2; n++) {
      const { record, actions } = playedGame(n);
      await store.games.createGame(record);
      await store.games.commitGames([{ gameId: record.id, actions, patch: {} }]);
      const entry = { ...gameEntryOf(record, actions), format: 1 as const };
      const grown = appendLeaf(frontier, n, leafOf(entry).hash);
      frontier = grown.frontier;
      nodes.push(...grown.nodes.map((x) => ({ level: x.level, index: x.index, hash: x.hash.toString("hex") })));
      entries.push({ index: n, gameId: record.id, leaf: canonicalJson(entry), finishedAt: entry.finishedAt });
    }
    const head = signHead(key, { size: 2, rootHash: frontierRoot(frontier).toString("hex"), timestamp: new Date().toISOString() });
    assert.ok(await store.log.appendLog({ epoch: lease.epoch, fromSize: 0, entries, nodes, head }));
    await store.close();

    server = await bootServer({ logBatchMs: 50, database });
    const created = await http(server.url, "POST", "/api/v1/games", { opponent: "house", level: "easy", name: "Ann" });
    await playToEnd(server.url, created.json.game.id as string, created.json.playerToken as string);
    for (let i = 0; i < 200 && (await http(server.url, "GET", "/api/v1/log/head")).json.size < 3; i++) await new Promise((r) => setTimeout(r, 50));
    const served = (await http(server.url, "GET", "/api/v1/log/entries?from=0&count=10")).json.entries as { entry: LogEntry }[];
    assert.deepEqual(
      served.map((e) => e.entry.format),
      [1, 1, 3],
    );
    const report = await verifyLog(httpGetJson(server.url));
    assert.deepEqual(report.problems, []);
    assert.equal(report.entriesChecked, 3);
  });
});
