/**
 * League standings speed: the table of a finished league (Bradley-Terry fit and 1,000 bootstrap refits) of N
 * entrants and D deals a pair, with seeded random results, timed in CPU time of this process (the steadier
 * figure on a shared machine) and wall time, after one warm-up table.
 *   npx tsx loadtest/league-bench.ts [--entrants N] [--deals D]
 * Prints one line, then one JSON line.
 */
import { parseArgs } from "node:util";
import { makeRng, randInt } from "../src/ai/rng";
import { buildSchedule, countedDeals } from "../src/leagues/schedule";
import { leagueTable } from "../src/leagues/table";

const { values } = parseArgs({ options: { entrants: { type: "string", default: "16" }, deals: { type: "string", default: "50" } } });
const N = Number(values.entrants);
const D = Number(values.deals);
const rng = makeRng(7);
const ids = Array.from({ length: N }, (_, i) => `BOT-${i}`);
let k = 0;
const schedule = buildSchedule(ids, D, () => randInt(rng, 0, 2 ** 31 - 2), () => `g_${k++}`);
const outcomes = ["first", "second", "second", "first", "draw"] as const;
for (const d of schedule) for (const g of d.games) g.outcome = outcomes[randInt(rng, 0, outcomes.length - 1)];
const deals = countedDeals(schedule);
leagueTable(ids, deals, "l_warmup");
const cpu0 = process.cpuUsage();
const wall0 = performance.now();
leagueTable(ids, deals, "l_bench");
const cpu = process.cpuUsage(cpu0);
const cpuMs = Math.round((cpu.user + cpu.system) / 1000);
const wallMs = Math.round(performance.now() - wall0);
console.log(`${N} entrants, ${D} deals a pair (${deals.length} deals, ${deals.length * 2} games): table in ${cpuMs} ms CPU (${wallMs} ms wall)`);
console.log(JSON.stringify({ entrants: N, deals: D, games: deals.length * 2, cpuMs, wallMs }));
