/**
 * `--cpu-profile DIR`: a V8 CPU profile of the server process for each measured window only (warm-up and
 * set-up outside the window are left out), written as DIR/<label>.cpuprofile for Chrome DevTools or
 * speedscope, beside an allocation profile of the same window (DIR/<label>.heapprofile: sampled
 * allocations, those already collected included, so it shows what keeps the garbage collector busy, not
 * what stays). Off unless the flag is given; the profilers slow the server, so figures of a profiled run are
 * not comparable with an unprofiled one. The room benchmark's `--profile` profiles its game windows only,
 * without the allocation sampler (which costs more than the CPU sampler), and reads them back
 * (cpuprofile-groups.ts).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { join } from "node:path";

let dir: string | null = null;
let only: ((label: string) => boolean) | null = null;
let heap = true;

export interface ProfileOptions {
  /** Profiles only the windows whose label it accepts (every window without it). */
  only?: (label: string) => boolean;
  /** Samples allocations beside the CPU (true by default). */
  heap?: boolean;
}

export function profileWindowsInto(directory: string | undefined, options: ProfileOptions = {}): void {
  dir = directory ?? null;
  only = options.only ?? null;
  heap = options.heap ?? true;
  if (dir) mkdirSync(dir, { recursive: true });
}

/** The file a window's CPU profile is written to (whether or not it was profiled). */
export const profileFile = (directory: string, label: string): string => join(directory, `${label.replace(/[^\w.-]+/g, "-")}.cpuprofile`);

/** Starts profiling this process; the returned function stops and writes the profile (a no-op when off). */
export async function profileWindow(label: string): Promise<() => Promise<void>> {
  if (!dir || (only && !only(label))) return async () => undefined;
  const cpuFile = profileFile(dir, label);
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  if (heap) {
    await session.post("HeapProfiler.enable");
    await session.post("HeapProfiler.startSampling", {
      samplingInterval: 32_768,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  }
  await session.post("Profiler.start");
  return async () => {
    const { profile } = await session.post("Profiler.stop");
    writeFileSync(cpuFile, JSON.stringify(profile));
    if (heap) {
      const { profile: allocations } = await session.post("HeapProfiler.stopSampling");
      writeFileSync(cpuFile.replace(/\.cpuprofile$/, ".heapprofile"), JSON.stringify(allocations));
    }
    session.disconnect();
  };
}
