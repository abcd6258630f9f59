/**
 * Group commit: the game writes of every room of the process that arrive in one event-loop turn are stored
 * in one transaction, so a process pays one commit (one fsync with synchronous=FULL) per turn instead of
 * two per move. A room awaits its write before it acknowledges or broadcasts anything, so "every accepted
 * action is durable before it is acknowledged" holds for each member of a batch.
 */
import type { GameWrite, GameWriteResult, Store } from "./port";

interface Pending {
  write: GameWrite;
  resolve(result: GameWriteResult): void;
  reject(err: unknown): void;
}

export interface GroupCommitStats { batches: number; writes: number }

export class GroupCommit {
  private pending: Pending[] = [];
  private scheduled = false;
  private readonly counts: GroupCommitStats = { batches: 0, writes: 0 };

  constructor(private readonly store: Pick<Store, "commitGames">) {}

  /**
   * Queues a write for the batch of this turn. Resolves once the batch is committed ("conflict" when this
   * write's condition did not hold); rejects when the batch failed, in which case nothing of it was stored.
   */
  submit(write: GameWrite): Promise<GameWriteResult> {
    return new Promise((resolve, reject) => {
      this.pending.push({ write, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      // setImmediate runs after the I/O callbacks of this turn: every message read in it joins the batch.
      setImmediate(() => void this.flush());
    });
  }

  /** Batches committed and writes they carried, since start (the writes per batch show how well it groups). */
  stats(): GroupCommitStats {
    return { ...this.counts };
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    this.scheduled = false;
    if (batch.length === 0) return;
    this.counts.batches++;
    this.counts.writes += batch.length;
    try {
      const results = await this.store.commitGames(batch.map((p) => p.write));
      batch.forEach((p, i) => p.resolve(results[i] ?? "conflict"));
    } catch (err) {
      for (const p of batch) p.reject(err);
    }
  }
}
