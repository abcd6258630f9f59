/**
 * How long the server's group commits take (the batch's transaction plus, with synchronous=FULL, the WAL
 * fsync), measured around the store's `commitGames` as the group commit calls it. A move's acknowledgement
 * waits for its batch, so a slow disk shows up here before it shows up as a slow round trip: the capacity
 * table reads it beside the event loops to tell a stalled disk from a busy CPU.
 */
import { createHistogram, type RecordableHistogram } from "node:perf_hooks";
import type { GamesPort } from "../../src/store";

export interface CommitLatency { batches: number; p99Ms: number; maxMs: number }

export class CommitTimer {
  private readonly histogram: RecordableHistogram = createHistogram();

  /** Wraps the store's commitGames in place (the group commit looks it up on every batch). */
  constructor(store: Pick<GamesPort, "commitGames">) {
    const inner = store.commitGames.bind(store);
    store.commitGames = async (writes) => {
      const started = process.hrtime.bigint();
      try {
        return await inner(writes);
      } finally {
        this.histogram.record(Math.max(1, Number(process.hrtime.bigint() - started)));
      }
    };
  }

  reset(): void {
    this.histogram.reset();
  }

  read(): CommitLatency {
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    return { batches: this.histogram.count, p99Ms: this.histogram.count ? ms(this.histogram.percentile(99)) : 0, maxMs: this.histogram.count ? ms(this.histogram.max) : 0 };
  }
}
