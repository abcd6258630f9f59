/**
 * A process's CPU time, read from Linux's /proc: on a machine shared with other work, the CPU a start costs
 * varies much less than its wall time (bench:restart, and the restart test of waiting games).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

/** Clock ticks per second of /proc's CPU times (100 on Linux almost everywhere; asked once). */
let ticksPerSecond: number | undefined;

/** A process's CPU time so far in ms, all its threads (user + system); NaN where there is no /proc. */
export function cpuMsOf(pid: number | undefined): number {
  try {
    ticksPerSecond ??= Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;
    // The command name (field 2) may hold spaces: the fields after it start past its closing parenthesis.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) / ticksPerSecond) * 1000;
  } catch {
    return NaN;
  }
}
