/**
 * Re-derives a league's standings from public data only, the way anyone outside the server can: the league,
 * its games list, and every game's public record and replay over the REST API. Checks, for every game of a
 * deal whose two games are decided (a deal still being played is sealed, and not counted):
 * the replay re-simulates from its revealed seed (which includes sha256(seed:salt) against the commitment), the
 * commitment is the one the game published while it was played, the seats hold the entrants the league
 * scheduled (each moving first in one game of the deal), the outcome the league counted is the replay's, and
 * the two games of a deal were dealt from the same seed. Then it refits the table from the replays' outcomes
 * and compares it with the published standings.
 */
import { verifyReplay, otherSeat } from "../../engine";
import type { Replay } from "../../engine/types";
import { leagueTable, outcomeOf, type LeagueOutcome, type TableDeal, type TableRow } from "../../shared/standings/league-table";

export type GetJson = (path: string) => Promise<unknown>;

export interface VerifyReport {
  /** Every disagreement found, one line each; empty when the league checks out. */
  problems: string[];
  /** Games whose replay was checked. */
  gamesChecked: number;
  /** The table re-derived from the replays. */
  table: TableRow[];
  status: string;
}

interface LeagueBody {
  id: string;
  status: string;
  entrants: { playerId: string }[];
}
interface GamesBody {
  deals: { index: number; a: string; b: string; games: { gameId: string; first: string; second: string; outcome: LeagueOutcome | null }[] }[];
}
interface StandingsBody {
  standings: TableRow[];
}
interface GameBody {
  commitment: string;
  firstPlayer: "A" | "B" | null;
  players: Record<"A" | "B", { id: string } | null>;
}

/** Ratings and interval ends are published to one decimal: a re-derived value may sit across a rounding edge. */
const TOLERANCE = 0.11;

/** GETs JSON under `baseUrl`, waiting out 429 and 503 answers (their Retry-After, at most 30 s) a few times. */
export function httpGetJson(baseUrl: string): GetJson {
  const root = baseUrl.replace(/\/+$/, "");
  return async (path) => {
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(`${root}${path}`);
      if ((res.status === 429 || res.status === 503) && attempt < 5) {
        const wait = Math.min(30, Number(res.headers.get("retry-after")) || 1);
        await new Promise((r) => setTimeout(r, wait * 1000));
        continue;
      }
      if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${(await res.text()).slice(0, 200)}`);
      return res.json() as Promise<unknown>;
    }
  };
}

export async function verifyLeague(get: GetJson, leagueId: string): Promise<VerifyReport> {
  const problems: string[] = [];
  const base = `/api/v1/leagues/${encodeURIComponent(leagueId)}`;
  const league = (await get(base)) as LeagueBody;
  const { deals } = (await get(`${base}/games`)) as GamesBody;
  const published = ((await get(`${base}/standings`)) as StandingsBody).standings;
  const entrants = league.entrants.map((e) => e.playerId);
  let gamesChecked = 0;
  const derived: TableDeal[] = [];
  for (const deal of deals) {
    const where = `deal ${deal.index} (${deal.a} v ${deal.b})`;
    if (deal.games.length !== 2) {
      problems.push(`${where}: ${deal.games.length} games, not 2`);
      continue;
    }
    const [one, two] = deal.games;
    if (one.first !== deal.a || one.second !== deal.b || two.first !== deal.b || two.second !== deal.a) {
      problems.push(`${where}: its games do not give each entrant the first move once`);
    }
    const seeds: Replay["seed"][] = [];
    const outcomes: (LeagueOutcome | null)[] = [];
    // A deal still being played is not counted, and its finished game is sealed (no replay) until the other ends.
    if (deal.games.some((g) => g.outcome === null)) {
      derived.push({ games: deal.games.map((g) => ({ first: g.first, second: g.second, outcome: null })) });
      continue;
    }
    for (const g of deal.games) {
      if (g.outcome === null) {
        outcomes.push(null);
        continue;
      }
      const at = `${where}, game ${g.gameId}`;
      const [record, replay] = (await Promise.all([get(`/api/v1/games/${g.gameId}`), get(`/api/v1/games/${g.gameId}/replay`)])) as [GameBody, Replay];
      gamesChecked++;
      const checked = verifyReplay(replay);
      if (!checked.ok) problems.push(`${at}: the replay does not re-simulate: move ${checked.move}: ${checked.field}: ${checked.detail}`);
      if (record.commitment !== replay.commitment) problems.push(`${at}: the replay's commitment is not the one the game published`);
      const firstSeat = replay.firstPlayer;
      const secondSeat = otherSeat(firstSeat);
      if (record.players[firstSeat]?.id !== g.first || record.players[secondSeat]?.id !== g.second) {
        problems.push(`${at}: the first mover is ${record.players[firstSeat]?.id ?? "nobody"}, the league says ${g.first}`);
      }
      const outcome = outcomeOf(replay);
      if (outcome !== g.outcome) problems.push(`${at}: the league counted ${g.outcome}, the replay says ${outcome}`);
      seeds.push(replay.seed);
      outcomes.push(outcome);
    }
    if (seeds.length === 2 && seeds[0] !== seeds[1]) problems.push(`${where}: its two games were dealt from different seeds (${seeds[0]}, ${seeds[1]})`);
    derived.push({ games: deal.games.map((g, i) => ({ first: g.first, second: g.second, outcome: outcomes[i] })) });
  }
  const table = leagueTable(entrants, derived, league.id);
  problems.push(...compareTables(table, published));
  return { problems, gamesChecked, table, status: league.status };
}

/** Lines naming every row that differs between the re-derived table and the published one. */
export function compareTables(derived: readonly TableRow[], published: readonly TableRow[]): string[] {
  const out: string[] = [];
  const byId = new Map(published.map((r) => [r.playerId, r]));
  if (published.length !== derived.length) out.push(`the published table has ${published.length} rows, the replays give ${derived.length}`);
  for (const row of derived) {
    const p = byId.get(row.playerId);
    if (!p) {
      out.push(`${row.playerId}: missing from the published table`);
      continue;
    }
    for (const k of ["rank", "games", "wins", "draws", "losses", "voided"] as const) {
      if (p[k] !== row[k]) out.push(`${row.playerId}: published ${k} ${p[k]}, re-derived ${row[k]}`);
    }
    for (const k of ["rating", "low", "high"] as const) {
      if (!(Math.abs(p[k] - row[k]) <= TOLERANCE)) out.push(`${row.playerId}: published ${k} ${p[k]}, re-derived ${row[k]}`);
    }
  }
  return out;
}
