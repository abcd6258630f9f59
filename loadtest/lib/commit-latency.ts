/**
 * How long the server's group commits take (the batch's transaction plus, with synchronous=FULL, the WAL
 * fsync), measured around the store's `commitGames` as the group commit calls it, and how long the WAL's
 * fsyncs themselves take. A move's acknowledgement waits for its batch, so a slow disk shows up here before
 * it shows up as a slow round trip: the capacity table reads both beside the event loops to tell a stalled
 * disk from a busy CPU, and a batch's wait from the fsyncs it waited for.
 */
import { createHistogram, type RecordableHistogram } from "node:perf_hooks";
import type { GamesPort } from "../../src/store";

export interface CommitLatency {
  count: number;
  p99Ms: number;
  maxMs: number;
}

/** Durations recorded since the last reset, read as a count, a p99 and a maximum in milliseconds. */
export class LatencyRecorder {
  private readonly histogram: RecordableHistogram = createHistogram();

  recordSeconds(seconds: number): void {
    this.histogram.record(Math.max(1, Math.round(seconds * 1e9)));
  }

  reset(): void {
    this.histogram.reset();
  }

  read(): CommitLatency {
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    return {
      count: this.histogram.count,
      p99Ms: this.histogram.count ? ms(this.histogram.percentile(99)) : 0,
      maxMs: this.histogram.count ? ms(this.histogram.max) : 0,
    };
  }
}

export class CommitTimer extends LatencyRecorder {
  /** Wraps the store's commitGames in place (the group commit looks it up on every batch). */
  constructor(store: Pick<GamesPort, "commitGames">) {
    super();
    const inner = store.commitGames.bind(store);
    store.commitGames = async (writes) => {
      const started = process.hrtime.bigint();
      try {
        return await inner(writes);
      } finally {
        this.recordSeconds(Number(process.hrtime.bigint() - started) / 1e9);
      }
    };
  }
}
