/**
 * Group commit: the game writes of every room of the process that arrive in one event-loop turn are stored
 * in one transaction, so a process pays one commit (one fsync with synchronous=FULL) per turn instead of
 * two per move. A room awaits its write before it acknowledges or broadcasts anything, so "every accepted
 * action is durable before it is acknowledged" holds for each member of a batch.
 *
 * The commit window: a batch is committed at most once every `windowMs`. A write that arrives sooner after
 * the last commit waits for the window's end and shares that commit with whatever arrives meanwhile. A
 * commit has a price of its own whatever it carries (the transaction's WAL write, and with FULL an fsync of
 * several hundred microseconds of CPU), and with a few hundred moves a second spread over many games nearly
 * every turn carries a single move: without a window that price is paid per move. A write that comes after a
 * quiet spell is committed in the same turn. The server sets a
 * window here for MongoDB only: SQLite's writer thread keeps the same window between its own fsyncs and
 * groups what arrives meanwhile by itself (sqlite/writer-thread.ts), so there this class only gathers one
 * turn's writes into one message to it.
 */
import type { GamesPort, GameWrite, GameWriteResult } from "./port";

interface Pending {
  write: GameWrite;
  resolve(result: GameWriteResult): void;
  reject(err: unknown): void;
}

export interface GroupCommitStats {
  batches: number;
  writes: number;
}

export interface GroupCommitOptions {
  /** The shortest time between two commits, in milliseconds; 0 commits every turn's writes at once. */
  windowMs?: number;
}

export class GroupCommit {
  private pending: Pending[] = [];
  private scheduled = false;
  private readonly counts: GroupCommitStats = { batches: 0, writes: 0 };
  private readonly windowMs: number;
  /** When the last batch was committed (performance.now()). */
  private lastFlush = -Infinity;

  constructor(
    private readonly games: Pick<GamesPort, "commitGames">,
    options: GroupCommitOptions = {},
  ) {
    this.windowMs = options.windowMs ?? 0;
  }

  /**
   * Queues a write for the batch of this turn. Resolves once the batch is committed ("conflict" when this
   * write's condition did not hold); rejects when the batch failed, in which case nothing of it was stored.
   */
  submit(write: GameWrite): Promise<GameWriteResult> {
    return new Promise((resolve, reject) => {
      this.pending.push({ write, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      const wait = this.lastFlush + this.windowMs - performance.now();
      // setImmediate runs after the I/O callbacks of this turn: every message read in it joins the batch.
      if (wait <= 0) setImmediate(() => void this.flush());
      else setTimeout(() => void this.flush(), wait);
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
    this.lastFlush = performance.now();
    this.counts.batches++;
    this.counts.writes += batch.length;
    try {
      const results = await this.games.commitGames(batch.map((p) => p.write));
      batch.forEach((p, i) => p.resolve(results[i] ?? "conflict"));
    } catch (err) {
      for (const p of batch) p.reject(err);
    }
  }
}
