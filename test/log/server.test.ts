/**
 * The public log on a running server: every finished public game (played to the end, or aborted while it
 * waited) is appended once; its record and replay name its index; the REST and MCP reads answer proofs that
 * verify against the signed head.
 */
import assert from "node:assert/strict";
import type { RunningServer } from "../../src/server";
import { checkEntry } from "../../src/services/log/check";
import { verifyHead } from "../../src/services/log/heads";
import { leafHash, verifyConsistency, verifyInclusion } from "../../src/services/log/merkle";
import type { GameEntry } from "../../src/services/log/entry";
import { canonicalJson } from "../../src/services/log/canonical";
import { playToEnd } from "../agents/play";
import { bootServer, http } from "../support/server";
import { connect } from "../mcp/helpers";

const hex = (s: string) => Buffer.from(s, "hex");

describe("Integration: the public game log", function () {
  this.timeout(60_000);
  let server: RunningServer;
  before(async () => {
    server = await bootServer({ logBatchMs: 50, waitingGameTtlS: 1 });
  });
  after(async () => {
    await server?.close();
  });

  /** The game's inclusion proof, once its batch is in. */
  async function proofOf(id: string) {
    for (let i = 0; i < 200; i++) {
      const p = await http(server.url, "GET", `/api/v1/log/games/${id}/proof`);
      if (p.status === 200) return p.json as { index: number; treeSize: number; rootHash: string; leafHash: string; path: string[] };
      assert.equal(p.status, 404, p.text);
      assert.equal(p.json.code, "not_found");
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`game ${id} never reached the log`);
  }

  it("appends a finished game, names its index on its record and replay, and proves it against the signed head", async function () {
    const created = await http(server.url, "POST", "/api/v1/games", { opponent: "house", level: "easy", name: "Ann" });
    const id = created.json.game.id as string;
    await playToEnd(server.url, id, created.json.playerToken as string);
    const proof = await proofOf(id);
    const head = (await http(server.url, "GET", "/api/v1/log/head")).json;
    const key = (await http(server.url, "GET", "/api/v1/log/key")).json;
    assert.ok(verifyHead(key.publicKey as string, head), "the head verifies with the served key");
    assert.equal(proof.rootHash, head.rootHash);
    assert.ok(verifyInclusion(hex(proof.leafHash), proof.index, proof.treeSize, proof.path.map(hex), hex(head.rootHash as string)));
    assert.equal((await http(server.url, "GET", `/api/v1/games/${id}`)).json.logIndex, proof.index);
    const replay = (await http(server.url, "GET", `/api/v1/games/${id}/replay`)).json;
    assert.equal(replay.logIndex, proof.index);

    const { entries } = (await http(server.url, "GET", `/api/v1/log/entries?from=${proof.index}&count=1`)).json;
    const entry = entries[0].entry as GameEntry;
    assert.equal(entry.gameId, id);
    assert.deepEqual(leafHash(Buffer.from(canonicalJson(entry))), hex(proof.leafHash));
    assert.deepEqual(checkEntry(entry), { ok: true });
    assert.equal(entry.seed, replay.seed);
    assert.equal(entry.commitment, replay.commitment);
    assert.equal(entry.decidedBy, replay.decidedBy);
    assert.equal(entry.actions.filter((a) => a.kind === "place").length, replay.moveCount);
  });

  it("logs a game aborted while it waited once, and a private game never", async function () {
    const priv = await http(server.url, "POST", "/api/v1/games", { opponent: "house", level: "easy", name: "Bo", public: false });
    const privId = priv.json.game.id as string;
    await http(server.url, "POST", `/api/v1/games/${privId}/resign`, undefined, { authorization: `Bearer ${priv.json.playerToken as string}` });
    const waiting = await http(server.url, "POST", "/api/v1/games", { opponent: "hosted" });
    const waitingId = waiting.json.game.id as string;
    const p2 = await proofOf(waitingId);
    const head = (await http(server.url, "GET", "/api/v1/log/head")).json;
    const { entries, treeSize } = (await http(server.url, "GET", `/api/v1/log/entries?from=0&count=1000`)).json;
    assert.equal(treeSize, head.size);
    assert.equal(entries.length, head.size);
    // The private game finished before the waiting one was aborted: its batch is in by now, without it.
    assert.ok(!entries.some((e: { entry: { kind: string } }) => e.entry.kind === "private"));
    assert.ok(!JSON.stringify(entries).includes(privId));
    assert.equal(
      (await http(server.url, "GET", `/api/v1/log/games/${privId}/proof`, undefined, { authorization: `Bearer ${priv.json.playerToken as string}` })).status,
      404,
    );
    const waitingEntry = entries[p2.index].entry as GameEntry;
    assert.equal(waitingEntry.decidedBy, "aborted");
    assert.deepEqual(checkEntry(waitingEntry), { ok: true }, JSON.stringify(waitingEntry));
    const ids = entries.map((e: { entry: { gameId?: string } }) => e.entry.gameId).filter(Boolean);
    assert.equal(new Set(ids).size, ids.length, "no game twice");
  });

  it("proves consistency between two sizes, and refuses sizes it does not have", async function () {
    const head = (await http(server.url, "GET", "/api/v1/log/head")).json;
    const first = (await http(server.url, "GET", "/api/v1/log/entries?from=0&count=1")).json.entries[0];
    const c = (await http(server.url, "GET", `/api/v1/log/consistency?first=1&second=${head.size as number}`)).json;
    assert.equal(c.firstRootHash, leafHashHex(first.entry));
    assert.ok(verifyConsistency(1, head.size as number, hex(c.firstRootHash as string), hex(head.rootHash as string), (c.proof as string[]).map(hex)));
    const bad = await http(server.url, "GET", `/api/v1/log/consistency?first=${(head.size as number) + 5}`);
    assert.equal(bad.status, 400);
    assert.equal(bad.headers.get("content-type")?.split(";")[0], "application/problem+json");
    assert.equal((await http(server.url, "GET", "/api/v1/log/entries?count=5000")).status, 400);
    assert.equal((await http(server.url, "GET", "/api/v1/log/games/nosuchgame/proof")).status, 404);
  });

  it("answers the same head and proofs over MCP", async function () {
    const mcp = await connect(server.url);
    try {
      const head = await mcp.ok("log_head", {});
      assert.equal(head.rootHash, (await http(server.url, "GET", "/api/v1/log/head")).json.rootHash);
      const entries = await mcp.ok("log_entries", { from: 0, count: 1 });
      const gameId = (entries.entries[0].entry as GameEntry).gameId;
      const proof = await mcp.ok("log_inclusion_proof", { game_id: gameId });
      assert.ok(verifyInclusion(hex(proof.leafHash), proof.index, proof.treeSize, (proof.path as string[]).map(hex), hex(head.rootHash)));
      assert.equal((await mcp.ok("log_key", {})).algorithm, "Ed25519");
      assert.equal((await mcp.ok("log_consistency_proof", { first: 1 })).second, head.size);
    } finally {
      await mcp.close();
    }
  });
});

const leafHashHex = (entry: unknown) => leafHash(Buffer.from(canonicalJson(entry))).toString("hex");
