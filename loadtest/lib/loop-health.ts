/**
 * How well a process's event loop kept up over a window: how late its timers ran (perf_hooks'
 * monitorEventLoopDelay, sampling every 10 ms) and the garbage collector's pauses on the main thread. A round
 * trip that is slow while the CPU is mostly idle is usually one of these, on either side of the socket, so the
 * benchmarks read them for the server and the load generator alike.
 *
 * A stall (a tick of the 10 ms timer that ran at least STALL_MS late) is also split by where the main thread
 * spent it, read from Linux's per-thread scheduler counters (/proc/thread-self/schedstat: nanoseconds on a
 * CPU and waiting for one): running (JavaScript, or a GC pause, which is reported apart), waiting in the run
 * queue (the cores were taken by other threads or processes), or neither: asleep in a system call, such as a
 * write that waits for the disk. Where the file is missing the split reads as zeros.
 */
import { readFileSync } from "node:fs";
import { constants, monitorEventLoopDelay, performance, PerformanceObserver, type IntervalHistogram } from "node:perf_hooks";

export interface LoopHealth {
  /** Event-loop delay, milliseconds: how late a timer due every 10 ms ran. */
  delayP50Ms: number;
  delayP99Ms: number;
  delayMaxMs: number;
  /** Main-thread GC pauses over the window: their sum, the longest, and how many were major (mark-compact). */
  gcMs: number;
  gcMaxMs: number;
  majorGcs: number;
  /** Ticks at least STALL_MS late, and how the main thread spent their time in all (milliseconds). */
  stalls: StallSplit;
}

export interface StallSplit {
  count: number;
  /** The time between each stalled tick and the tick before it, summed (10 ms of each were due anyway). */
  ms: number;
  /** Of it: on a CPU outside GC pauses, in GC pauses, waiting for a CPU, and asleep (the rest, timer wait included). */
  runMs: number;
  gcMs: number;
  queuedMs: number;
  asleepMs: number;
}

/** A tick this late is a stall worth splitting: a round trip budget of 50 ms cannot absorb many of them. */
export const STALL_MS = 20;
const NO_STALLS: StallSplit = { count: 0, ms: 0, runMs: 0, gcMs: 0, queuedMs: 0, asleepMs: 0 };

/** The calling thread's [on-CPU, run-queue wait] nanoseconds, or null where the kernel does not tell. */
function schedstat(): [number, number] | null {
  try {
    const [run, wait] = readFileSync("/proc/thread-self/schedstat", "utf8").split(" ");
    return [Number(run), Number(wait)];
  } catch {
    return null;
  }
}

/** Adds two splits (several load generators' stalls, summed). */
export function addStalls(a: StallSplit, b: StallSplit): StallSplit {
  return {
    count: a.count + b.count,
    ms: a.ms + b.ms,
    runMs: a.runMs + b.runMs,
    gcMs: a.gcMs + b.gcMs,
    queuedMs: a.queuedMs + b.queuedMs,
    asleepMs: a.asleepMs + b.asleepMs,
  };
}

const round = (x: number) => Math.round(x * 100) / 100;

function roundSplit(s: StallSplit): StallSplit {
  return { count: s.count, ms: round(s.ms), runMs: round(s.runMs), gcMs: round(s.gcMs), queuedMs: round(s.queuedMs), asleepMs: round(s.asleepMs) };
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
  /** The stall split's own 10 ms tick (monitorEventLoopDelay's histogram has no times to split by). */
  private readonly ticker?: NodeJS.Timeout;
  private stalls: StallSplit = { ...NO_STALLS };
  /** Stalls not yet split by GC (the observer reports a pause after it, in a later turn), and recent pauses. */
  private pending: { from: number; to: number; runMs: number; queuedMs: number }[] = [];
  private pauses: { from: number; to: number }[] = [];

  constructor(opts: { delay?: boolean } = {}) {
    if (opts.delay ?? true) {
      this.delay = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
      let last = performance.now();
      let stat = schedstat();
      this.ticker = setInterval(() => {
        const now = performance.now();
        const next = schedstat();
        const late = now - last - RESOLUTION_MS;
        if (late >= STALL_MS) {
          const [run, queued] = stat && next ? [(next[0] - stat[0]) / 1e6, (next[1] - stat[1]) / 1e6] : [0, 0];
          this.pending.push({ from: last, to: now, runMs: run, queuedMs: queued });
        }
        last = now;
        stat = next;
        // A pause is reported after it ends, in a later turn: a second on, a stall's overlaps are all known.
        if (this.pauses.length > 1000 || this.pending.length > 100) this.settle(now - 1000);
      }, RESOLUTION_MS);
      this.ticker.unref();
    }
    this.gc = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (this.ticker) this.pauses.push({ from: e.startTime, to: e.startTime + e.duration });
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
    this.stalls = { ...NO_STALLS };
    this.pending = [];
    this.pauses = [];
  }

  /** Splits the stalls that ended before `until` by the GC pauses that overlapped them, and forgets older pauses. */
  private settle(until = Infinity): StallSplit {
    const ready = this.pending.filter((p) => p.to < until);
    this.pending = this.pending.filter((p) => p.to >= until);
    for (const p of ready) {
      const gc = this.pauses.reduce((a, g) => a + Math.max(0, Math.min(p.to, g.to) - Math.max(p.from, g.from)), 0);
      const s = this.stalls;
      const between = p.to - p.from;
      s.count++;
      s.ms += between;
      s.gcMs += gc;
      s.runMs += Math.max(0, p.runMs - gc);
      s.queuedMs += p.queuedMs;
      s.asleepMs += Math.max(0, between - p.runMs - p.queuedMs);
    }
    // Only pauses that could still overlap a stall not yet split are kept.
    const horizon = Math.min(performance.now() - 1000, ...this.pending.map((p) => p.from));
    this.pauses = this.pauses.filter((g) => g.to > horizon);
    return this.stalls;
  }

  /** The window so far. */
  read(): LoopHealth {
    return {
      delayP50Ms: this.delay ? lateMs(this.delay.percentile(50)) : 0,
      delayP99Ms: this.delay ? lateMs(this.delay.percentile(99)) : 0,
      delayMaxMs: this.delay ? lateMs(this.delay.max) : 0,
      gcMs: round(this.gcMs),
      gcMaxMs: round(this.gcMaxMs),
      majorGcs: this.majorGcs,
      stalls: roundSplit(this.settle()),
    };
  }

  stop(): void {
    this.delay?.disable();
    clearInterval(this.ticker);
    this.gc.disconnect();
  }
}
