/**
 * Re-derives a duplicate league's standings from its public replays and compares them with the published ones.
 *   npm run league:verify -- <baseUrl> <leagueId>
 * Exit 0 when every check passes; 1 on any mismatch (each named on stderr); 2 on bad usage or an unreachable server.
 */
import { httpGetJson, verifyLeague } from "../services/leagues/verify";

async function main(args: string[]): Promise<number> {
  const [baseUrl, leagueId] = args;
  if (!baseUrl || !leagueId || args.length !== 2) {
    process.stderr.write("usage: league:verify <baseUrl> <leagueId>\n");
    return 2;
  }
  let report;
  try {
    report = await verifyLeague(httpGetJson(baseUrl), leagueId);
  } catch (err) {
    process.stderr.write(`cannot read the league: ${(err as Error).message}\n`);
    return 2;
  }
  for (const r of report.table) {
    process.stdout.write(
      `${String(r.rank).padStart(3)}  ${r.playerId.padEnd(14)} ${r.rating.toFixed(1).padStart(7)}  [${r.low.toFixed(1)}, ${r.high.toFixed(1)}]  ${r.wins}-${r.draws}-${r.losses}\n`,
    );
  }
  if (report.status !== "finished") process.stdout.write(`note: the league is ${report.status}; its table may change\n`);
  for (const p of report.problems) process.stderr.write(`MISMATCH ${p}\n`);
  process.stdout.write(`${report.gamesChecked} games checked, ${report.problems.length} mismatches\n`);
  return report.problems.length === 0 ? 0 : 1;
}

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
