/**
 * The verifier's rating checks, end to end: games played on a running server leave format 3 entries whose
 * rating steps and chains verify; an entry rewritten and the log re-signed with the log's own key (so every
 * hash and the signature hold) is still caught when its ratingAfter is not the Glicko-2 step, when a step does
 * not continue the player's previous one, and when its seats or kind of game are not the game's record.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { httpGetJson } from "../../src/services/leagues/verify";
import { canonicalJson } from "../../src/services/log/canonical";
import { ENTRY_FORMAT, leafOf, type GameEntry } from "../../src/services/log/entry";
import { generateLogKeyPem, logKeyFrom, signHead, type LogKey } from "../../src/services/log/heads";
import { appendLeaf, frontierRoot, type Hash } from "../../src/services/log/merkle";
import { verifyLog } from "../../src/services/log/verify";
import { DEFAULT_RATING, rateSeat } from "../../src/services/players/rating";
import type { RunningServer } from "../../src/server";
import { playToEnd } from "../agents/play";
import { bootServer, http } from "../support/server";

describe("Integration: the verifier recomputes and chains the logged ratings", function () {
  this.timeout(90_000);
  let server: RunningServer;
  let dir: string;
  let db: Database.Database;
  let ann: { id: string; secret: string };
  /** The log's own key: the server is started with it (LOG_SIGNING_KEY), so the test can re-sign as the log does. */
  const signingPem = generateLogKeyPem();
  let key: LogKey;
  const games: string[] = [];

  /** A house game played to its end by Ann. */
  async function houseGame(level: string): Promise<void> {
    const created = await http(server.url, "POST", "/api/v1/games", { opponent: "house", level, name: "Ann", ...(ann ? { player: ann } : {}) });
    assert.equal(created.status, 201, created.text);
    ann ??= { id: created.json.player.id as string, secret: created.json.player.secret as string };
    const id = created.json.game.id as string;
    await playToEnd(server.url, id, created.json.playerToken as string);
    games.push(id);
  }

  const rows = () => db.prepare("SELECT idx, leaf FROM log_entries ORDER BY idx").all() as Array<{ idx: number; leaf: string }>;
  const entryAt = (idx: number) => JSON.parse(rows()[idx].leaf) as GameEntry;

  /** Stores `entry` at `idx` and signs the new tree with the log's own key: every hash and the signature hold. */
  function rewrite(idx: number, entry: GameEntry): void {
    db.prepare("UPDATE log_entries SET leaf = ? WHERE idx = ?").run(canonicalJson(entry), idx);
    let frontier: Hash[] = [];
    const nodes: Array<{ level: number; index: number; hash: Buffer }> = [];
    for (const r of rows()) {
      const grown = appendLeaf(frontier, r.idx, leafOf(JSON.parse(r.leaf) as GameEntry).hash);
      frontier = grown.frontier;
      nodes.push(...grown.nodes);
    }
    const size = rows().length;
    const head = signHead(key, { size, rootHash: frontierRoot(frontier).toString("hex"), timestamp: new Date().toISOString() });
    db.transaction(() => {
      const put = db.prepare("INSERT OR REPLACE INTO log_nodes (level, idx, hash) VALUES (?, ?, ?)");
      for (const n of nodes) put.run(n.level, n.index, n.hash);
      db.prepare("UPDATE log_state SET head = ? WHERE id = 1").run(JSON.stringify(head));
      db.prepare("INSERT OR REPLACE INTO log_heads (size, doc) VALUES (?, ?)").run(size, JSON.stringify(head));
    })();
  }

  /** Verifies with `idx` rewritten by `change`, then puts the honest entry back (re-signed). */
  async function problemsWith(idx: number, change: (e: GameEntry) => GameEntry): Promise<string[]> {
    const honest = entryAt(idx);
    rewrite(idx, change(structuredClone(honest)));
    try {
      return (await verifyLog(httpGetJson(server.url))).problems;
    } finally {
      rewrite(idx, honest);
    }
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "rating-verify-"));
    const database = join(dir, "arena.db");
    server = await bootServer({ logBatchMs: 50, database, logSigningKey: signingPem });
    key = logKeyFrom(signingPem, ((await http(server.url, "GET", "/api/v1/log/key")).json as { origin: string }).origin);
    await houseGame("easy");
    await houseGame("hard");
    await houseGame("normal");
    for (let i = 0; i < 200 && (await http(server.url, "GET", "/api/v1/log/head")).json.size < 3; i++) await new Promise((r) => setTimeout(r, 50));
    db = new Database(database);
    db.pragma("busy_timeout = 5000");
  });
  after(async () => {
    db?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("logs each rated step whole, chained from the initial rating, and an honest log verifies", async function () {
    const entries = [0, 1, 2].map(entryAt);
    assert.deepEqual(
      entries.map((e) => e.gameId),
      games,
    );
    assert.ok(entries.every((e) => e.format === ENTRY_FORMAT));
    const seats = entries.map((e) => (e.seats.A!.kind === "human" ? e.seats.A! : e.seats.B!));
    assert.deepEqual(
      seats.map((s) => [s.playerId, s.ratingStep, s.previousStep, s.houseLevel]),
      [
        [ann.id, 1, 0, "easy"],
        [ann.id, 2, 1, "hard"],
        [ann.id, 3, 2, "normal"],
      ],
    );
    assert.deepEqual(seats[0].ratingBefore, DEFAULT_RATING);
    assert.deepEqual(seats[1].ratingBefore, seats[0].ratingAfter);
    assert.equal(seats[1].previousGame, games[0]);
    for (const [i, e] of entries.entries()) assert.equal(seats[i].ratingScore, e.winner === "draw" ? 0.5 : e.seats[e.winner!] === seats[i] ? 1 : 0);
    assert.deepEqual((await verifyLog(httpGetJson(server.url))).problems, []);
  });

  it("catches a ratingAfter rewritten and re-signed, naming the entry and the player", async function () {
    const problems = await problemsWith(1, (e) => {
      const seat = e.seats.A!.kind === "human" ? e.seats.A! : e.seats.B!;
      seat.ratingAfter!.rating += 25;
      return e;
    });
    assert.ok(
      problems.some((p) => p.startsWith(`entry 1 `) && p.includes(ann.id) && p.includes("ratingAfter is not the Glicko-2 step")),
      problems.join("\n"),
    );
  });

  it("catches a step that is its own Glicko-2 step but does not continue the player's previous one", async function () {
    const problems = await problemsWith(2, (e) => {
      const seat = e.seats.A!.kind === "human" ? e.seats.A! : e.seats.B!;
      // A consistent step from a made-up rating: only the chain can tell.
      seat.ratingBefore = { ...seat.ratingBefore!, rating: seat.ratingBefore!.rating + 100 };
      const after = rateSeat(seat.ratingBefore as typeof DEFAULT_RATING, seat.opponentBefore as typeof DEFAULT_RATING, seat.ratingScore!);
      seat.ratingAfter = after;
      return e;
    });
    assert.deepEqual(problems.length, 1, problems.join("\n"));
    assert.match(problems[0], new RegExp(`^entry 2 \\(game ${games[2]}\\), player ${ann.id}, step 3: ratingBefore is not the ratingAfter`));
    const skipped = await problemsWith(2, (e) => {
      const seat = e.seats.A!.kind === "human" ? e.seats.A! : e.seats.B!;
      seat.previousStep = 0;
      delete seat.previousGame;
      return e;
    });
    assert.ok(
      skipped.some((p) => p.startsWith("entry 2 ") && p.includes(ann.id) && p.includes("first rated game")),
      skipped.join("\n"),
    );
  });

  it("catches a seat's kind or the kind of game rewritten against the game's record", async function () {
    const kind = await problemsWith(0, (e) => {
      const seat = e.seats.A!.kind === "human" ? e.seats.A! : e.seats.B!;
      seat.kind = "bot";
      return e;
    });
    assert.ok(
      kind.some((p) => p.startsWith("entry 0: ") && /record differs from the log in seat [AB]'s kind/.test(p)),
      kind.join("\n"),
    );
    const opponent = await problemsWith(0, (e) => ({ ...e, opponent: "friend" }));
    assert.ok(
      opponent.some((p) => p.startsWith("entry 0: ") && p.includes("record differs from the log in opponent")),
      opponent.join("\n"),
    );
    const finished = await problemsWith(0, (e) => ({ ...e, finishedAt: new Date(Date.parse(e.finishedAt) - 60_000).toISOString() }));
    assert.ok(
      finished.some((p) => p.startsWith("entry 0: ") && p.includes("finishedAt")),
      finished.join("\n"),
    );
    assert.deepEqual((await verifyLog(httpGetJson(server.url))).problems, [], "the honest entries put back verify");
  });
});
