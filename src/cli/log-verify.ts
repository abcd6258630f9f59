/**
 * Verifies a server's public game log from the outside (src/services/log/verify.ts).
 *   npm run log:verify -- <baseUrl> [--since head.json] [--save head.json] [--from N --count N | --sample N]
 *   npm run log:verify -- <baseUrl> --league ID | --tournament ID   (every game of the league's or
 *     tournament's table, swiss or arena, is in the log, and the table follows from the logged results: src/services/log/verify-tables.ts)
 *   --key KEY (repeatable): check heads with this public key (SPKI PEM, a signed-note verifier key, or a file
 *     holding either) instead of the key the server serves, which a dishonest server could swap with its heads;
 *     name every key the log was signed with that the checked heads need (a --since head before a rotation).
 * Exit 0 when every check passes; 1 on any difference (each named on stderr); 2 on bad usage or an unreachable
 * server. --save writes the newest head, to pass as --since next time.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { httpGetJson, type GetJson } from "../services/leagues/verify";
import { pinKeys } from "../services/log/head-keys";
import type { TreeHeadRecord } from "../store/port";
import { verifyLeagueInLog, verifyTournamentInLog } from "../services/log/verify-tables";
import { verifyLog, type VerifyOptions } from "../services/log/verify";

const USAGE =
  "usage: log:verify <baseUrl> [--key KEY]... [--since head.json] [--save head.json] [--from N] [--count N] [--sample N]\n       log:verify <baseUrl> [--key KEY]... --league ID | --tournament ID\n";

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        since: { type: "string" },
        save: { type: "string" },
        from: { type: "string" },
        count: { type: "string" },
        sample: { type: "string" },
        league: { type: "string" },
        tournament: { type: "string" },
        key: { type: "string", multiple: true },
      },
    });
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const num = (v: string | undefined) => (v === undefined ? undefined : /^\d+$/.test(v) ? Number(v) : NaN);
  const opts: VerifyOptions = { from: num(values.from), count: num(values.count), sample: num(values.sample) };
  if (positionals.length !== 1 || [opts.from, opts.count, opts.sample].some((n) => Number.isNaN(n))) {
    process.stderr.write(USAGE);
    return 2;
  }
  let get: GetJson = httpGetJson(positionals[0]);
  if (values.key?.length) {
    try {
      get = pinKeys(get, values.key);
    } catch (e) {
      process.stderr.write(`cannot read the key ${values.key.join(", ")}: ${(e as Error).message}\n`);
      return 2;
    }
  } else {
    process.stderr.write("warning: trusting the key the server serves (GET /api/v1/log/key); pin the log's key with --key\n");
  }
  if (values.league !== undefined) return verifyTable(get, { kind: "league", id: values.league });
  if (values.tournament !== undefined) return verifyTable(get, { kind: "tournament", id: values.tournament });
  try {
    if (values.since) opts.since = JSON.parse(readFileSync(values.since, "utf8")) as TreeHeadRecord;
  } catch (e) {
    process.stderr.write(`cannot read ${values.since}: ${(e as Error).message}\n`);
    return 2;
  }
  let report;
  try {
    report = await verifyLog(get, opts);
  } catch (err) {
    process.stderr.write(`cannot read the log: ${(err as Error).message}\n`);
    return 2;
  }
  for (const p of report.problems) process.stderr.write(`MISMATCH ${p}\n`);
  process.stdout.write(`head: size ${report.head.size}, root ${report.head.rootHash}, ${report.head.timestamp}\n`);
  process.stdout.write(`${report.entriesChecked} entries checked, ${report.problems.length} mismatches\n`);
  if (opts.since) {
    // Without this line a clean run does not show that the saved head was compared at all.
    const consistent = report.consistentWithSince === true;
    process.stdout.write(
      `consistency with the saved head (size ${opts.since.size}, root ${opts.since.rootHash}): ${consistent ? "checked, the log only grew" : "FAILED"}\n`,
    );
  }
  if (values.save && report.problems.length === 0) writeFileSync(values.save, `${JSON.stringify(report.head, null, 2)}\n`);
  return report.problems.length === 0 ? 0 : 1;
}

async function verifyTable(get: GetJson, of: { kind: "league" | "tournament"; id: string }): Promise<number> {
  let report;
  try {
    report = of.kind === "league" ? await verifyLeagueInLog(get, of.id) : await verifyTournamentInLog(get, of.id);
  } catch (err) {
    process.stderr.write(`cannot read the ${of.kind} or the log: ${(err as Error).message}\n`);
    return 2;
  }
  for (const p of report.problems) process.stderr.write(`MISMATCH ${p}\n`);
  process.stdout.write(`head: size ${report.head.size}, root ${report.head.rootHash}, ${report.head.timestamp}\n`);
  process.stdout.write(`${of.kind} ${of.id}: ${report.gamesChecked} games checked in the log, ${report.problems.length} mismatches\n`);
  return report.problems.length === 0 ? 0 : 1;
}

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
