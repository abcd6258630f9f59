/**
 * The public game log at scale, on a SQLite file: builds a log of `--entries` real-sized game entries (one
 * engine-played game's entry, its id varied), appended in batches through the store port as the sequencer
 * appends them (entries, completed subtrees, a signed head per batch); then
 *  - proofs: `--proofs` inclusion proofs of random games against the newest head (LogService.inclusion, the
 *    REST read's work without HTTP), each timed: p50, p99, max of the wall time, and p50, p99 of the process's
 *    CPU time (user + system) during it, which a machine shared with other work does not stretch;
 *  - export: every entry written as NDJSON (src/services/log/export.ts) into a sink that counts bytes, timed, with the
 *    process's peak RSS and heap during it against before it (flat memory: the export holds a page at a time).
 * One table, then one JSON line (`{"bench":"log",...}`).
 *   npm run bench:log -- [--entries 1000000] [--proofs 2000] [--batch 5000]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { apply, commitmentOf, legalMoves, newGame, type Action } from "../src/engine";
import { canonicalJson } from "../src/services/log/canonical";
import { gameEntryOf, leafOf } from "../src/services/log/entry";
import { writeExport } from "../src/services/log/export";
import { signHead } from "../src/services/log/heads";
import { loadLogKey } from "../src/services/log/keys";
import { appendLeaf, frontierRoot, type Hash } from "../src/services/log/merkle";
import { LogService } from "../src/services/log/service";
import type { GameRecord, LogEntryRecord, LogNodeRecord } from "../src/store";
import { SqliteStore } from "../src/store/sqlite";
import { args, nowMs, num, percentile, round, table } from "./lib/common";

const a = args();
const entries = num(a, "entries", 1_000_000, 1, 10_000_000);
const proofs = num(a, "proofs", 2000, 1, 1_000_000);
const batchSize = num(a, "batch", 5000, 1, 100_000);

/** One finished game, played by the engine: the template every entry of the log copies. */
function template(): GameRecord & { actions: Action[] } {
  const seed = 424242;
  let state = newGame({ ruleset: "classic", rulesVersion: 3 }, seed, "salt");
  const actions: Action[] = [];
  while (state.status === "active") {
    const res = apply(state, { kind: "place", ...legalMoves(state)[0] });
    if (!res.ok) throw new Error(res.detail);
    state = res.state;
    actions.push(state.actions.at(-1)!);
  }
  const t = "2026-11-02T10:00:00.000Z";
  return {
    id: "g_template",
    ruleset: "classic",
    rulesVersion: 3,
    opponent: "friend",
    public: true,
    turnSeconds: 60,
    seed,
    salt: "salt",
    commitment: commitmentOf(seed, "salt"),
    status: "finished",
    moveCount: 16,
    score: state.score,
    winner: state.winner,
    decidedBy: state.decidedBy,
    seats: { A: { playerId: "P7K2QX", name: "a", kind: "human" }, B: { playerId: "house", name: "House", kind: "house" } },
    createdAt: t,
    updatedAt: t,
    finishedAt: t,
    actions,
  };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), "log-bench-"));
  const store = new SqliteStore({ path: path.join(dir, "log.db"), synchronous: "NORMAL", checkpointMs: 0 });
  try {
    await store.init();
    const key = await loadLogKey(store.log, undefined);
    const lease = (await store.log.claimLogLease("bench", new Date(0).toISOString(), new Date(Date.now() + 86_400_000).toISOString()))!;
    const base = template();
    const stored = base.actions.map((action, index) => ({ gameId: base.id, index, action, at: base.finishedAt! }));
    let frontier: Hash[] = [];
    let bytes = 0;
    const buildStart = nowMs();
    for (let from = 0; from < entries; from += batchSize) {
      const rows: LogEntryRecord[] = [];
      const nodes: LogNodeRecord[] = [];
      for (let i = from; i < Math.min(entries, from + batchSize); i++) {
        const gameId = `g_${i.toString(36).padStart(8, "0")}`;
        const entry = gameEntryOf({ ...base, id: gameId }, stored);
        const leaf = leafOf(entry);
        const grown = appendLeaf(frontier, i, leaf.hash);
        frontier = grown.frontier;
        for (const n of grown.nodes) nodes.push({ level: n.level, index: n.index, hash: n.hash.toString("hex") });
        const json = canonicalJson(entry);
        bytes += json.length;
        rows.push({ index: i, gameId, leaf: json, finishedAt: base.finishedAt! });
      }
      const size = from + rows.length;
      const head = signHead(key, { size, rootHash: frontierRoot(frontier).toString("hex"), timestamp: new Date().toISOString() });
      if (!(await store.log.appendLog({ epoch: lease.epoch, fromSize: from, entries: rows, nodes, head }))) throw new Error("append refused");
    }
    const buildS = (nowMs() - buildStart) / 1000;

    const service = new LogService(store.log, key);
    const proofOf = (i: number) => service.inclusion(`g_${i.toString(36).padStart(8, "0")}`);
    // Warmed up and collected first: the build's garbage is not the proofs' pause.
    for (let k = 0; k < 200; k++) await proofOf(Math.floor(Math.random() * entries));
    global.gc?.();
    const times: number[] = [];
    const cpu: number[] = [];
    for (let k = 0; k < proofs; k++) {
      const i = Math.floor(Math.random() * entries);
      const c0 = process.cpuUsage();
      const t0 = nowMs();
      const p = await proofOf(i);
      times.push(nowMs() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
      if (p.index !== i) throw new Error("wrong index");
    }

    global.gc?.();
    const before = process.memoryUsage();
    let peakRss = before.rss;
    let peakHeap = before.heapUsed;
    let written = 0;
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        written += chunk.length;
        const m = process.memoryUsage();
        peakRss = Math.max(peakRss, m.rss);
        peakHeap = Math.max(peakHeap, m.heapUsed);
        cb();
      },
    });
    const exportStart = nowMs();
    const summary = await writeExport(store.log, entries, { kind: "index", from: 0, to: entries }, sink);
    const exportS = (nowMs() - exportStart) / 1000;
    const mb = written / 1e6;
    const result = {
      bench: "log",
      entries,
      entryBytes: Math.round(bytes / entries),
      buildSeconds: round(buildS),
      proofP50Ms: round(percentile(times, 50), 3),
      proofP99Ms: round(percentile(times, 99), 3),
      proofMaxMs: round(Math.max(...times), 3),
      proofCpuP50Ms: round(percentile(cpu, 50), 3),
      proofCpuP99Ms: round(percentile(cpu, 99), 3),
      exportEntries: summary.count,
      exportMB: round(mb),
      exportSeconds: round(exportS, 2),
      exportMBps: round(mb / exportS),
      rssBeforeMB: round(before.rss / 1e6),
      rssPeakMB: round(peakRss / 1e6),
      heapBeforeMB: round(before.heapUsed / 1e6),
      heapPeakMB: round(peakHeap / 1e6),
    };
    console.log(
      table(
        `public log, ${entries} entries (~${result.entryBytes} B each), SQLite`,
        ["measure", "value"],
        [
          ["build (s)", result.buildSeconds],
          [`inclusion proof p50 / p99 / max (ms, ${proofs})`, `${result.proofP50Ms} / ${result.proofP99Ms} / ${result.proofMaxMs}`],
          ["inclusion proof CPU p50 / p99 (ms)", `${result.proofCpuP50Ms} / ${result.proofCpuP99Ms}`],
          ["export (MB, s, MB/s)", `${result.exportMB}, ${result.exportSeconds}, ${result.exportMBps}`],
          ["RSS before / peak during export (MB)", `${result.rssBeforeMB} / ${result.rssPeakMB}`],
          ["heap before / peak during export (MB)", `${result.heapBeforeMB} / ${result.heapPeakMB}`],
        ],
      ),
    );
    console.log(JSON.stringify(result));
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
