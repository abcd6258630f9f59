/**
 * Re-simulates replay files from their revealed seed and salt.
 *   npm run verify-replay -- FILE...
 * Exit 0 when every file re-simulates exactly; otherwise 1, naming each bad file and its first bad move.
 */
import { readFileSync } from "node:fs";
import { verifyReplay } from "../engine";
import type { Replay } from "../engine/types";

function check(file: string): string | undefined {
  let replay: Replay;
  try {
    replay = JSON.parse(readFileSync(file, "utf8")) as Replay;
  } catch (err) {
    return `cannot read: ${(err as Error).message}`;
  }
  try {
    const res = verifyReplay(replay);
    return res.ok ? undefined : `move ${res.move}: ${res.field}: ${res.detail}`;
  } catch (err) {
    // A malformed file must be reported as refused, not crash the run for the other files.
    return `malformed replay: ${(err as Error).message}`;
  }
}

function main(files: string[]): number {
  if (files.length === 0) {
    process.stderr.write("usage: verify-replay FILE...\n");
    return 2;
  }
  let failed = 0;
  for (const file of files) {
    const problem = check(file);
    if (problem === undefined) process.stdout.write(`ok ${file}\n`);
    else {
      failed++;
      process.stderr.write(`FAIL ${file}: ${problem}\n`);
    }
  }
  return failed === 0 ? 0 : 1;
}

process.exitCode = main(process.argv.slice(2));
