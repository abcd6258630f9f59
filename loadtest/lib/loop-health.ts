/**
 * How well a process's event loop kept up over a window: how late its timers ran (perf_hooks'
 * monitorEventLoopDelay, sampling every 10 ms) and the garbage collector's pauses on the main thread. A round
 * trip that is slow while the CPU is mostly idle is usually one of these, on either side of the socket, so the
 * benchmarks read them for the server and the load generator alike.
 */
import { constants, monitorEventLoopDelay, PerformanceObserver, type IntervalHistogram } from "node:perf_hooks";

export interface LoopHealth {
  /** Event-loop delay, milliseconds: how late a timer due every 10 ms ran. */
  delayP50Ms: number;
  delayP99Ms: number;
  delayMaxMs: number;
  /** Main-thread GC pauses over the window: their sum, the longest, and how many were major (mark-compact). */
  gcMs: number;
  gcMaxMs: number;
  majorGcs: number;
}

const RESOLUTION_MS = 10;
/** The histogram holds the time between samples, the 10 ms period included: what is reported is the lateness beyond it. */
const lateMs = (ns: number) => Math.max(0, Math.round(ns / 1e4 - RESOLUTION_MS * 100) / 100);

export class LoopMonitor {
  /** Sampling the delay wakes the loop every 10 ms: left out where the process's own idle CPU is measured. */
  private readonly delay?: IntervalHistogram;
  private readonly gc: PerformanceObserver;
  private gcMs = 0;
  private gcMaxMs = 0;
  private majorGcs = 0;

  constructor(opts: { delay?: boolean } = {}) {
    if (opts.delay ?? true) this.delay = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    this.gc = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        this.gcMs += e.duration;
        this.gcMaxMs = Math.max(this.gcMaxMs, e.duration);
        if ((e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) this.majorGcs++;
      }
    });
    this.gc.observe({ entryTypes: ["gc"] });
    this.delay?.enable();
  }

  /** Starts a new window. */
  reset(): void {
    this.delay?.reset();
    this.gcMs = 0;
    this.gcMaxMs = 0;
    this.majorGcs = 0;
  }

  /** The window so far. */
  read(): LoopHealth {
    const round = (x: number) => Math.round(x * 100) / 100;
    return {
      delayP50Ms: this.delay ? lateMs(this.delay.percentile(50)) : 0,
      delayP99Ms: this.delay ? lateMs(this.delay.percentile(99)) : 0,
      delayMaxMs: this.delay ? lateMs(this.delay.max) : 0,
      gcMs: round(this.gcMs),
      gcMaxMs: round(this.gcMaxMs),
      majorGcs: this.majorGcs,
    };
  }

  stop(): void {
    this.delay?.disable();
    this.gc.disconnect();
  }
}
