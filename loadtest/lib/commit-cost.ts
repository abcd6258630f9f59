/**
 * What durability costs per move: the group commit on a SQLite file, with synchronous=FULL (survives power
 * loss; the default) and NORMAL (survives a process crash), measured side by side on the same disk. Each
 * round submits one action of each of `games` games in one event-loop turn, as `games` rooms moving at once
 * would, so a round is one batch, one transaction, one commit. Each write carries what a room's move stores
 * (the action; move count, score and last move time). A last pass without checkpoints counts the WAL pages
 * a write adds (what the checkpointer later copies into the database file and the fsyncs cover), in batches
 * of ten spread over 2,000 stored active games as on a busy server, where a batch's games rarely share a
 * page of the tables and indexes it writes.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GroupCommit } from "../../src/store/group-commit";
import { SqliteStore } from "../../src/store/sqlite";
import { nowMs, round } from "./common";

export interface CommitCost {
  synchronous: "FULL" | "NORMAL";
  games: number;
  batches: number;
  usPerBatch: number;
  usPerWrite: number;
  cpuUsPerWrite: number;
  walPagesPerWrite: number;
}

/** Bytes of a WAL frame: a page (SQLite's default 4 KiB) and its 24-byte header; the file has a 32-byte header. */
const WAL_FRAME = 4096 + 24;

/** The games stored for the WAL page count: batches of `games` take turns among them. */
const STORED_FOR_PAGES = 2000;

async function measure(synchronous: "FULL" | "NORMAL", games: number, batches: number, checkpoints = true, stored = games): Promise<CommitCost> {
  const dir = mkdtempSync(join(tmpdir(), "commit-cost-"));
  const path = join(dir, "arena.sqlite");
  const store = new SqliteStore({ path, synchronous, ...(checkpoints ? {} : { checkpointMs: 0 }) });
  const walPages = () => (statSync(`${path}-wal`).size - 32) / WAL_FRAME;
  try {
    await store.init();
    const at = new Date().toISOString();
    const ids = Array.from({ length: Math.max(games, stored) }, (_, i) => `g${i}`);
    // Records of a real game's size: two claimed seats, a seed commitment.
    const seat = (i: number, s: string) => ({
      playerId: `p_${s}${i}`.padEnd(22, "x"),
      name: `Player ${s}${i}`,
      kind: "human" as const,
      tokenHash: "f".repeat(64),
    });
    for (const [i, id] of ids.entries()) {
      await store.games.createGame({
        id,
        ruleset: "classic",
        opponent: "friend",
        public: true,
        turnSeconds: 120,
        seed: 1,
        salt: "s".repeat(32),
        commitment: "c".repeat(64),
        status: "active",
        seats: { A: seat(i, "A"), B: seat(i, "B") },
        moveCount: 0,
        score: { A: 0, B: 0 },
        winner: null,
        createdAt: at,
        updatedAt: at,
      });
    }
    const commits = new GroupCommit(store.games);
    const pages0 = walPages();
    const c0 = process.cpuUsage();
    const t0 = nowMs();
    const rounds = ids.length / games;
    for (let b = 0; b < batches; b++) {
      // A batch's games are spread over the table (games i * rounds + b % rounds), as the games that happen
      // to move in one turn are; each game's next action index is n.
      const batch = ids.filter((_, i) => i % rounds === b % rounds);
      const n = Math.floor(b / rounds);
      await Promise.all(
        batch.map((gameId) =>
          commits.submit({
            gameId,
            actions: [{ gameId, index: n, action: { kind: "place", card: "E7", square: "b3" }, at }],
            patch: { moveCount: n + 1, score: { A: n + 1, B: n }, lastMoveAt: at },
          }),
        ),
      );
    }
    const ms = nowMs() - t0;
    const cpu = process.cpuUsage(c0);
    const writes = games * batches;
    return {
      synchronous,
      games,
      batches,
      usPerBatch: round((ms * 1000) / batches, 0),
      usPerWrite: round((ms * 1000) / writes, 1),
      cpuUsPerWrite: round((cpu.user + cpu.system) / writes, 1),
      walPagesPerWrite: round((walPages() - pages0) / writes, 2),
    };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Both modes, alternating, `rounds` times each; returns the median round of each. */
export async function commitCosts(games: number, batches: number, rounds = 3): Promise<CommitCost[]> {
  const runs: Record<"FULL" | "NORMAL", CommitCost[]> = { FULL: [], NORMAL: [] };
  for (let r = 0; r < rounds; r++) {
    for (const mode of r % 2 === 0 ? (["FULL", "NORMAL"] as const) : (["NORMAL", "FULL"] as const)) runs[mode].push(await measure(mode, games, batches));
  }
  const mid = (xs: CommitCost[]) => xs.sort((a, b) => a.usPerWrite - b.usPerWrite)[Math.floor(xs.length / 2)];
  // The timed passes checkpoint as the server does, so their WAL wraps; the page count is taken without.
  const { walPagesPerWrite } = await measure("NORMAL", 10, Math.max(batches, (STORED_FOR_PAGES / 10) * 2), false, STORED_FOR_PAGES);
  return [mid(runs.FULL), mid(runs.NORMAL)].map((c) => ({ ...c, walPagesPerWrite }));
}
