/**
 * A sealed league game and the public log, on a running server: the first game of a deal finishes and the
 * sequencer appends batches after it (a game finished later is in the log), yet no read of the log (entries,
 * the inclusion proof, the export by index and by month, MCP log_entries and log_inclusion_proof, the export
 * the command-line tool writes) shows it while its twin, dealt from the same seed, is being played. Once the
 * twin has finished and the league unsealed the deal, both are appended, after the games finished meanwhile.
 */
import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import type { RunningServer } from "../../src/server";
import { writeExport } from "../../src/services/log/export";
import type { GameEntry } from "../../src/services/log/entry";
import { playToEnd } from "../agents/play";
import { connect, type McpTestClient } from "../mcp/helpers";
import { bearer, bootServer, http } from "../support/server";
import { firstMove, playSeat, type DealRow } from "../leagues/play";

describe("Integration: a sealed league game stays out of the public log until its deal is over", function () {
  this.timeout(120_000);
  let server: RunningServer;
  let base: string;
  let mcp: McpTestClient;
  before(async () => {
    server = await bootServer({ logBatchMs: 50 });
    base = server.url;
    mcp = await connect(base);
  });
  after(async () => {
    await mcp?.close();
    await server?.close();
  });

  /** Waits for a game's inclusion proof (its batch in the log) and answers its index. */
  async function loggedIndex(id: string): Promise<number> {
    for (let i = 0; i < 200; i++) {
      const p = await http(base, "GET", `/api/v1/log/games/${id}/proof`);
      if (p.status === 200) return p.json.index as number;
      assert.equal(p.status, 404, p.text);
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`game ${id} never reached the log`);
  }

  /** A house game played to its end now: once it is in the log, the sequencer ran after everything before it. */
  async function houseGame(): Promise<string> {
    const created = await http(base, "POST", "/api/v1/games", { opponent: "house", level: "easy", name: "Witness" });
    const id = created.json.game.id as string;
    await playToEnd(base, id, created.json.playerToken as string);
    return id;
  }

  /** Every way the log is read, as text: the entries, both exports, MCP's entries, the operator's export. */
  async function everyRead(month: string): Promise<Record<string, string>> {
    const size = (await http(base, "GET", "/api/v1/log/head")).json.size as number;
    const cli = new PassThrough();
    const chunks: Buffer[] = [];
    cli.on("data", (c: Buffer) => chunks.push(c));
    // What `npm run export:games` writes, from the same store.
    await writeExport(server.store.log, size, { kind: "month", month }, cli);
    cli.end();
    return {
      entries: (await http(base, "GET", `/api/v1/log/entries?from=0&count=1000`)).text,
      exportByIndex: (await http(base, "GET", `/api/v1/exports/games?from=0&to=1000`)).text,
      exportByMonth: (await http(base, "GET", `/api/v1/exports/games?month=${month}`)).text,
      mcpEntries: JSON.stringify(await mcp.ok("log_entries", { from: 0, count: 1000 })),
      cliExport: Buffer.concat(chunks).toString("utf8"),
    };
  }

  it("logs neither game of a deal while one is played, then both, in the order of unsealing", async () => {
    const created = await http(base, "POST", "/api/v1/leagues", { name: "Sealed log", deals: 1, turnSeconds: 60 });
    const id = created.json.league.id as string;
    const tokens: string[] = [];
    for (const name of ["Log bot A", "Log bot B"]) {
      const reg = await http(base, "POST", "/api/v1/bots", { name });
      const j = await http(base, "POST", `/api/v1/leagues/${id}/join`, undefined, bearer(reg.json.key));
      tokens.push(j.json.playerToken as string);
    }
    assert.equal((await http(base, "POST", `/api/v1/leagues/${id}/start`, undefined, bearer(created.json.directorToken))).status, 200);
    const deal = (await http(base, "GET", `/api/v1/leagues/${id}/games`)).json.deals[0] as DealRow;
    const [one, two] = deal.games.map((g) => g.gameId);

    await Promise.all(tokens.map((t) => playSeat(base, one, t, firstMove)));
    const finished = await server.store.games.getGame(one);
    assert.equal(finished?.status, "finished");
    assert.equal(finished.sealed, true);
    const seed = JSON.stringify(finished.seed);
    const month = finished.finishedAt!.slice(0, 7);
    // A game finished after the sealed one is appended: the sequencer has run since, and left the sealed one out.
    const witness = await houseGame();
    const witnessIndex = await loggedIndex(witness);

    const proof = await http(base, "GET", `/api/v1/log/games/${one}/proof`);
    assert.equal(proof.status, 404, proof.text);
    assert.equal(proof.json.code, "not_found");
    const viaMcp = await mcp.raw("log_inclusion_proof", { game_id: one });
    assert.equal(viaMcp.isError, true);
    assert.equal(viaMcp.structuredContent.code, "not_found");
    const reads = await everyRead(month);
    assert.match(reads.exportByIndex, new RegExp(witness), "the reads do show the games that are logged");
    for (const [read, text] of Object.entries(reads)) {
      assert.doesNotMatch(text, new RegExp(one), `${read} shows the sealed game`);
      assert.doesNotMatch(text, new RegExp(two), `${read} shows the deal's running game`);
      assert.ok(!text.includes(`"seed":${seed}`), `${read} shows the deal's seed`);
    }

    // The twin ends: the league unseals the deal, and both games are appended, after the witness.
    await Promise.all(tokens.map((t) => playSeat(base, two, t, firstMove)));
    const [indexOne, indexTwo] = await Promise.all([loggedIndex(one), loggedIndex(two)]);
    assert.ok(indexOne > witnessIndex && indexTwo > witnessIndex, "appended when unsealed, after the game that finished later");
    const { entries } = (await http(base, "GET", `/api/v1/log/entries?from=0&count=1000`)).json as { entries: { index: number; entry: GameEntry }[] };
    const logged = entries.filter((e) => e.entry.gameId === one || e.entry.gameId === two);
    assert.equal(logged.length, 2, "each once");
    for (const e of logged) assert.equal(JSON.stringify(e.entry.seed), seed);
    const after = await everyRead(month);
    for (const read of ["entries", "exportByIndex", "exportByMonth", "mcpEntries", "cliExport"]) assert.match(after[read], new RegExp(one), read);
  });
});
