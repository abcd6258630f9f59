/**
 * Where a CPU profile's time went, by module (the rules: loadtest/lib/cpuprofile-groups.ts).
 *
 *   npx tsx loadtest/profile-report.ts [--moves N] [--top 10] [--json] FILE.cpuprofile [FILE ...]
 *
 * Reads one or more `.cpuprofile` files (the room benchmark's `--cpu-profile DIR` windows, `node --cpu-prof`)
 * and prints the main thread's self time summed per module group and the functions with the most of it,
 * over every file given; with `--moves N` (the moves played in the profiled windows) each group's busy
 * time per move too. `--json` prints one JSON line after the tables.
 */
import { breakdown, breakdownTables, readProfile } from "./lib/cpuprofile-groups";

function main() {
  const argv = process.argv.slice(2);
  const files: string[] = [];
  let moves: number | null = null;
  let top = 10;
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--moves") moves = Number(argv[++i]);
    else if (argv[i] === "--top") top = Number(argv[++i]);
    else if (argv[i] === "--json") json = true;
    else files.push(argv[i]);
  }
  if (!files.length || (moves !== null && !(moves > 0)) || !(top > 0)) {
    console.error("usage: npx tsx loadtest/profile-report.ts [--moves N] [--top 10] [--json] FILE.cpuprofile [FILE ...]");
    process.exit(2);
  }
  const b = breakdown(files.map(readProfile), moves, top);
  console.log(breakdownTables(b, files.length === 1 ? files[0] : `${files.length} profiles`));
  if (json) console.log(JSON.stringify({ bench: "profile", ...b }));
}

main();
