/**
 * What durability costs per move: the group commit on a SQLite file, with synchronous=FULL (survives power
 * loss; the default) and NORMAL (survives a process crash), measured side by side on the same disk. Each
 * round submits one action of each of `games` games in one event-loop turn, as `games` rooms moving at once
 * would, so a round is one batch, one transaction, one commit.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GroupCommit } from "../../src/store/group-commit";
import { SqliteStore } from "../../src/store/sqlite";
import { nowMs, round } from "./common";

export interface CommitCost { synchronous: "FULL" | "NORMAL"; games: number; batches: number; usPerBatch: number; usPerWrite: number; cpuUsPerWrite: number }

async function measure(synchronous: "FULL" | "NORMAL", games: number, batches: number): Promise<CommitCost> {
  const dir = mkdtempSync(join(tmpdir(), "commit-cost-"));
  const store = new SqliteStore({ path: join(dir, "arena.sqlite"), synchronous });
  try {
    await store.init();
    const at = new Date().toISOString();
    const ids = Array.from({ length: games }, (_, i) => `g${i}`);
    for (const id of ids) {
      await store.createGame({
        id, ruleset: "classic", opponent: "friend", public: true, turnSeconds: 120, seed: 1, salt: "s", commitment: "c", status: "active",
        seats: {}, moveCount: 0, score: { A: 0, B: 0 }, winner: null, createdAt: at, updatedAt: at,
      });
    }
    const commits = new GroupCommit(store);
    const c0 = process.cpuUsage();
    const t0 = nowMs();
    for (let b = 0; b < batches; b++) {
      await Promise.all(ids.map((gameId) =>
        commits.submit({ gameId, actions: [{ gameId, index: b, action: { kind: "place", card: "E7", square: "b3" }, at }], patch: { moveCount: b + 1, lastMoveAt: at } })));
    }
    const ms = nowMs() - t0;
    const cpu = process.cpuUsage(c0);
    const writes = games * batches;
    return {
      synchronous, games, batches,
      usPerBatch: round((ms * 1000) / batches, 0),
      usPerWrite: round((ms * 1000) / writes, 1),
      cpuUsPerWrite: round((cpu.user + cpu.system) / writes, 1),
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
  return [mid(runs.FULL), mid(runs.NORMAL)];
}
