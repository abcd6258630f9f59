/**
 * League speed, three figures:
 * - table: the standings of a finished league (Bradley-Terry fit and 1,000 bootstrap refits) of N entrants and
 *   D deals a pair, with seeded random results, timed in CPU time of this process (the steadier figure on a
 *   shared machine) and wall time, after one warm-up table;
 * - burst: a running league of N entrants, D deals a pair and `parallel` 4 (4N games under way) on a SQLite
 *   file, whose games all finish at once (as when every seat resigns together): the results counted of those
 *   reported, the wall time until every report settled, and the longest event-loop stall meanwhile (what a
 *   `/healthz` from another client waits);
 * - list: the league list of `--leagues` such running leagues: its wall time and the bytes of stored JSON it
 *   returns (what the list parses).
 * Games are stood in for (a league game is created and reported finished by the bench), so the figures are the
 * league's own.
 *   npx tsx loadtest/league-bench.ts [--entrants N] [--deals D] [--leagues L]
 * Prints one line per figure, then one JSON line.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { makeRng, randInt } from "../src/services/ai/rng";
import { buildSchedule, countedDeals } from "../src/services/leagues/schedule";
import { leagueTable } from "../src/shared/standings/league-table";
import { LeagueService } from "../src/services/leagues/service";
import { SqliteStore } from "../src/store/sqlite";
import type { GameRecord } from "../src/store/port";

const { values } = parseArgs({
  options: { entrants: { type: "string", default: "16" }, deals: { type: "string", default: "50" }, leagues: { type: "string", default: "20" } },
});
const N = Number(values.entrants);
const D = Number(values.deals);
const L = Number(values.leagues);

function tableFigure() {
  const rng = makeRng(7);
  const ids = Array.from({ length: N }, (_, i) => `BOT-${i}`);
  let k = 0;
  const schedule = buildSchedule(
    ids,
    D,
    () => randInt(rng, 0, 2 ** 31 - 2),
    () => `g_${k++}`,
  );
  const outcomes = ["first", "second", "second", "first", "draw"] as const;
  const decided = new Map(schedule.flatMap((d) => d.games.map((g) => [g.gameId, outcomes[randInt(rng, 0, outcomes.length - 1)]] as const)));
  const deals = countedDeals(schedule, decided);
  leagueTable(ids, deals, "l_warmup");
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  leagueTable(ids, deals, "l_bench");
  const cpu = process.cpuUsage(cpu0);
  return { games: deals.length * 2, cpuMs: Math.round((cpu.user + cpu.system) / 1000), wallMs: Math.round(performance.now() - wall0) };
}

interface Created {
  id: string;
  leagueId: string;
  seed: unknown;
}

/** The games service as the league sees it: creates nothing but remembers what the league asked for. */
class StandInGames {
  readonly created = new Map<string, Created>();
  async createForLeague(id: string, l: { leagueId: string; seed: unknown }) {
    if (this.created.has(id)) return null;
    this.created.set(id, { id, leagueId: l.leagueId, seed: l.seed });
    return "A" as const;
  }
  async unseal() {}
}

const resigned = (c: Created): GameRecord => ({
  id: c.id,
  leagueId: c.leagueId,
  ruleset: "classic",
  opponent: "friend",
  public: true,
  turnSeconds: 60,
  seed: c.seed as number,
  salt: "s",
  commitment: "c",
  status: "finished",
  seats: {},
  firstPlayer: "A",
  moveCount: 2,
  score: { A: 0, B: 0 },
  winner: "A",
  decidedBy: "resignation",
  createdAt: new Date().toISOString(),
  updatedAt: new Date().toISOString(),
  finishedAt: new Date().toISOString(),
});

async function startLeague(service: LeagueService, name: string): Promise<string> {
  const { league, directorToken } = await service.create({ name, ruleset: "classic", deals: D, parallel: 4, turnSeconds: 60 });
  for (let i = 0; i < N; i++) {
    await service.join(league.id, { bot: { id: `BOT-${name}-${i}`, name: `Bot ${i}`, keyHash: "k", createdAt: new Date().toISOString() }, key: "bk" });
  }
  await service.start(league.id, directorToken);
  return league.id;
}

async function main() {
  const table = tableFigure();
  console.log(`table: ${N} entrants, ${D} deals a pair (${table.games} games): ${table.cpuMs} ms CPU (${table.wallMs} ms wall)`);

  const dir = mkdtempSync(join(tmpdir(), "league-bench-"));
  const store = new SqliteStore({ path: join(dir, "bench.db") });
  await store.init();
  try {
    const games = new StandInGames();
    const service = new LeagueService(store, games, "http://bench.test");
    const id = await startLeague(service, "burst");
    const wave = [...games.created.values()].filter((c) => c.leagueId === id);
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const t0 = performance.now();
    const settled = await Promise.allSettled(wave.map((c) => service.onGameFinished(resigned(c))));
    const burstMs = Math.round(performance.now() - t0);
    delay.disable();
    const counted = (await service.read(id)).progress.gamesPlayed;
    const stallMs = Math.round(delay.max / 1e6);
    const refused = settled.filter((s) => s.status === "rejected").length;
    console.log(
      `burst: ${wave.length} games finishing at once: ${counted} counted, ${refused} reports refused, in ${burstMs} ms; longest event-loop stall ${stallMs} ms`,
    );

    for (let i = 1; i < L; i++) await startLeague(service, `list${i}`);
    await service.list(L);
    const l0 = performance.now();
    await service.list(L);
    const listMs = Math.round(performance.now() - l0);
    const listBytes = JSON.stringify(await store.leagues.listLeagues(L)).length;
    console.log(`list: ${L} running leagues: ${listMs} ms, ${listBytes} bytes of stored JSON read`);
    console.log(
      JSON.stringify({
        entrants: N,
        deals: D,
        table,
        burst: { games: wave.length, counted, refused, wallMs: burstMs, stallMs },
        list: { leagues: L, wallMs: listMs, bytes: listBytes },
      }),
    );
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
