/**
 * `--cpu-profile DIR`: a V8 CPU profile of the server process for each measured window only (warm-up and
 * set-up outside the window are left out), written as DIR/<label>.cpuprofile for Chrome DevTools or
 * speedscope, beside an allocation profile of the same window (DIR/<label>.heapprofile: sampled
 * allocations, those already collected included, so it shows what keeps the garbage collector busy, not
 * what stays). Off unless the flag is given; the profilers slow the server, so figures of a profiled run are
 * not comparable with an unprofiled one.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { join } from "node:path";

let dir: string | null = null;

export function profileWindowsInto(directory: string | undefined): void {
  dir = directory ?? null;
  if (dir) mkdirSync(dir, { recursive: true });
}

/** Starts profiling this process; the returned function stops and writes the profile (a no-op when off). */
export async function profileWindow(label: string): Promise<() => Promise<void>> {
  if (!dir) return async () => undefined;
  const out = join(dir, label.replace(/[^\w.-]+/g, "-"));
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("HeapProfiler.enable");
  await session.post("HeapProfiler.startSampling", { samplingInterval: 32_768, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  await session.post("Profiler.start");
  return async () => {
    const { profile } = await session.post("Profiler.stop");
    const { profile: heap } = await session.post("HeapProfiler.stopSampling");
    writeFileSync(`${out}.cpuprofile`, JSON.stringify(profile));
    writeFileSync(`${out}.heapprofile`, JSON.stringify(heap));
    session.disconnect();
  };
}
