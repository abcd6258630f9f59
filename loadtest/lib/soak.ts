/**
 * Soak sampling: the server's RSS, heap and CPU read from its Prometheus endpoint (`/metrics`, so it works
 * against any server, in this process or not) every interval, and the drift between a baseline sample
 * (minute 5, once the caches and pools have warmed up) and the last one. Only the samples are kept: one
 * every 30 s is 120 for an hour.
 */
import type { HttpClient } from "./common";
import { round } from "./common";

export interface SoakSample {
  /** Seconds since the load started. */
  t: number;
  rssMb: number;
  heapUsedMb: number;
  /** Server CPU over the last interval, percent of one core. */
  cpuPct: number;
  /** The load generator's own heap, to show it stays bounded too. */
  generatorHeapMb: number;
}

const MB = 1024 * 1024;

/** The value of an unlabelled metric in the Prometheus text format. */
export function metricValue(text: string, name: string): number | null {
  const m = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.eE+-]+)`, "m").exec(text);
  return m ? Number(m[1]) : null;
}

export class SoakSampler {
  readonly samples: SoakSample[] = [];
  private lastCpu: { at: number; seconds: number } | null = null;

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
    const now = Date.now();
    const cpuPct = this.lastCpu ? (100 * (cpu - this.lastCpu.seconds)) / ((now - this.lastCpu.at) / 1000) : 0;
    this.lastCpu = { at: now, seconds: cpu };
    const s: SoakSample = {
      t: round((now - this.started) / 1000, 0),
      rssMb: round(rss / MB, 1),
      heapUsedMb: round(heap / MB, 1),
      cpuPct: round(cpuPct, 1),
      generatorHeapMb: round(process.memoryUsage().heapUsed / MB, 1),
    };
    this.samples.push(s);
    return s;
  }

  /**
   * Drift from the first sample at or after `baselineS` (minute 5 by default; a third of the run when it is
   * shorter than twice that) to the last sample, in percent.
   */
  drift(runSeconds: number, baselineS = 300): { baselineT: number; endT: number; rssPct: number; heapPct: number; cpuPctStart: number; cpuPctEnd: number } | null {
    const from = runSeconds >= 2 * baselineS ? baselineS : runSeconds / 3;
    const base = this.samples.find((s) => s.t >= from);
    const end = this.samples.at(-1);
    if (!base || !end || base === end) return null;
    const pct = (a: number, b: number) => round((100 * (b - a)) / a, 1);
    return { baselineT: base.t, endT: end.t, rssPct: pct(base.rssMb, end.rssMb), heapPct: pct(base.heapUsedMb, end.heapUsedMb), cpuPctStart: base.cpuPct, cpuPctEnd: end.cpuPct };
  }
}
