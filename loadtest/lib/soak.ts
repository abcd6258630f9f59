/**
 * Soak sampling: the server's RSS, heap and CPU read from its Prometheus endpoint (`/metrics`, so it works
 * against any server, in this process or not) every interval, and the drift between a baseline sample
 * (minute 5, once the caches and pools have warmed up) and the last one. Only the samples are kept: one
 * every 30 s is 120 for an hour.
 */
import type { HttpClient } from "./common";
import { median, round } from "./common";

export interface SoakSample {
  /** Seconds since the load started. */
  t: number;
  rssMb: number;
  heapUsedMb: number;
  /** Server CPU over the last interval, percent of one core. */
  cpuPct: number;
  /** The load generator's own heap, to show it stays bounded too. */
  generatorHeapMb: number;
  /** Moves the server accepted per second over the last interval: memory under load follows the rate. */
  movesPerSec: number;
  /**
   * Server CPU per accepted move over the last interval, milliseconds (game set-up included): steady when
   * the work per move is; it rises when the server does more for the same load (or the machine slows it).
   */
  cpuMsPerMove: number;
}

const MB = 1024 * 1024;

/** The value of an unlabelled metric in the Prometheus text format. */
export function metricValue(text: string, name: string): number | null {
  const m = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.eE+-]+)`, "m").exec(text);
  return m ? Number(m[1]) : null;
}

/** The sum of every series of a metric (all label sets), or 0 when it has none yet. */
export function metricSum(text: string, name: string): number {
  let sum = 0;
  for (const m of text.matchAll(new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.eE+-]+)`, "gm"))) sum += Number(m[1]);
  return sum;
}

export class SoakSampler {
  readonly samples: SoakSample[] = [];
  private lastCpu: { at: number; seconds: number; moves: number } | null = null;

  constructor(
    private readonly http: HttpClient,
    private readonly started: number,
    private readonly metricsToken?: string,
  ) {}

  async sample(): Promise<SoakSample | null> {
    const r = await this.http.request("GET", "/metrics", { token: this.metricsToken, parse: false, timeoutMs: 10_000 });
    if (r.status !== 200) throw new Error(`GET /metrics -> ${r.status} (set --metrics-token when the server has METRICS_TOKEN)`);
    const rss = metricValue(r.body, "arena_process_resident_memory_bytes");
    const heap = metricValue(r.body, "arena_nodejs_heap_size_used_bytes");
    const cpu = metricValue(r.body, "arena_process_cpu_seconds_total");
    if (rss === null || heap === null || cpu === null) throw new Error("GET /metrics lacks the process metrics");
    const moves = metricSum(r.body, "arena_moves_total");
    const now = Date.now();
    const dt = this.lastCpu ? (now - this.lastCpu.at) / 1000 : 0;
    const cpuPct = this.lastCpu ? (100 * (cpu - this.lastCpu.seconds)) / dt : 0;
    const movesPerSec = this.lastCpu ? (moves - this.lastCpu.moves) / dt : 0;
    this.lastCpu = { at: now, seconds: cpu, moves };
    const s: SoakSample = {
      t: round((now - this.started) / 1000, 0),
      rssMb: round(rss / MB, 1),
      heapUsedMb: round(heap / MB, 1),
      cpuPct: round(cpuPct, 1),
      generatorHeapMb: round(process.memoryUsage().heapUsed / MB, 1),
      movesPerSec: round(movesPerSec, 1),
      cpuMsPerMove: movesPerSec > 0 ? round((10 * cpuPct) / movesPerSec, 2) : 0,
    };
    this.samples.push(s);
    return s;
  }

  /**
   * Drift from minute 5 to the end, in percent: the median of the samples in a window starting at the first
   * sample from minute 5 on against the median of the samples in the same length of time at the end. Single
   * samples swing with the garbage collector by a quarter either way, so each side is a median (5-minute
   * windows, or a sixth of the run for runs shorter than 10 minutes, where the baseline starts at a third of
   * the run).
   */
  /** Where the baseline window starts and how long each window is, in seconds, for a run of this length. */
  static windows(runSeconds: number, baselineS = 300): { from: number; window: number } {
    return { from: runSeconds >= 2 * baselineS ? baselineS : runSeconds / 3, window: Math.min(300, runSeconds / 6) };
  }

  drift(runSeconds: number, baselineS = 300): Drift | null {
    const { from, window } = SoakSampler.windows(runSeconds, baselineS);
    const last = this.samples.at(-1);
    if (!last) return null;
    // The baseline window opens at the first sample at or after `from`: a window opened at `from` itself can
    // fall between two samples when the run is short (a window of 1.3 s between samples 2 s apart).
    const first = this.samples.find((s) => s.t >= from);
    if (!first) return null;
    const base = this.samples.filter((s) => s.t >= first.t && s.t <= first.t + window);
    const end = this.samples.filter((s) => s.t >= last.t - window);
    if (base.length === 0 || end.length === 0 || base[0] === end[0]) return null;
    const med = (xs: number[]) => median(xs);
    const pct = (a: number, b: number) => round((100 * (b - a)) / a, 1);
    const rss = [med(base.map((s) => s.rssMb)), med(end.map((s) => s.rssMb))];
    const heap = [med(base.map((s) => s.heapUsedMb)), med(end.map((s) => s.heapUsedMb))];
    return {
      baselineT: base[0].t,
      endT: last.t,
      windowS: round(window, 0),
      rssMb: rss,
      heapMb: heap,
      rssPct: pct(rss[0], rss[1]),
      heapPct: pct(heap[0], heap[1]),
      cpuPctStart: med(base.map((s) => s.cpuPct)),
      cpuPctEnd: med(end.map((s) => s.cpuPct)),
      movesPerSecStart: med(base.map((s) => s.movesPerSec ?? 0)),
      movesPerSecEnd: med(end.map((s) => s.movesPerSec ?? 0)),
      cpuMsPerMoveStart: round(med(base.map((s) => s.cpuMsPerMove)), 2),
      cpuMsPerMoveEnd: round(med(end.map((s) => s.cpuMsPerMove)), 2),
    };
  }
}

export interface Drift {
  /** Where the baseline window starts and where the run's last sample was, in seconds. */
  baselineT: number;
  endT: number;
  windowS: number;
  /** Medians of the baseline window and of the end window. */
  rssMb: number[];
  heapMb: number[];
  rssPct: number;
  heapPct: number;
  cpuPctStart: number;
  cpuPctEnd: number;
  /** The load in each window: a drift with the rate changed says as much about the load as about a leak. */
  movesPerSecStart: number;
  movesPerSecEnd: number;
  /** Server CPU per move in each window, milliseconds. */
  cpuMsPerMoveStart: number;
  cpuMsPerMoveEnd: number;
}
