/**
 * A league's standings from its counted games: pure, so the server's table, the one `league:verify`
 * re-derives from the replays and the one an AI pool thread computes come from the same function and the
 * same inputs in the same order. It sits below the services so that each of them (leagues, the public log,
 * the AI pool's threads) uses it without importing another.
 */
import { bootstrapIntervals, fitBradleyTerry, type PairResult, type Unit } from "./bradley-terry";

/**
 * A game's outcome as the league counts it; `void` (aborted with no winner) counts for nobody. The store's
 * leagues port stores this type as it is (store/ports/leagues.ts re-exports it).
 */
export type LeagueOutcome = "first" | "second" | "draw" | "void";

/** One deal of one pair: two games on the same seed, each entrant moving first in one. */
export interface TableDeal {
  games: { first: string; second: string; outcome?: LeagueOutcome | null }[];
}

/** How the league counts a finished game (a stored record or its replay): an abort, before both seats moved, is void. */
export function outcomeOf(game: { winner: "A" | "B" | "draw" | null; firstPlayer?: "A" | "B"; decidedBy?: string }): LeagueOutcome {
  if (game.decidedBy === "aborted" || game.winner === null) return "void";
  if (game.winner === "draw") return "draw";
  return game.winner === game.firstPlayer ? "first" : "second";
}

/** A league's table to compute, as plain data an AI pool thread can be handed (src/services/ai/worker.ts). */
export interface LeagueTableTask {
  entrants: string[];
  deals: TableDeal[];
  leagueId: string;
}

export interface TableRow {
  rank: number;
  playerId: string;
  /** Bradley-Terry rating on the Elo scale, entrants' mean 0, one decimal. */
  rating: number;
  /** The 95% bootstrap interval of the rating, one decimal. */
  low: number;
  high: number;
  games: number;
  wins: number;
  draws: number;
  losses: number;
  /** Void games the entrant sat in (aborted before both seats moved): their deals are not counted. */
  voided: number;
}

/**
 * Whether the table counts a deal: both games decided and neither void. A void game voids its deal, so that
 * ending a game early can never keep one side of a deal and drop the other.
 */
export const isCounted = (d: TableDeal): boolean => d.games.every((g) => g.outcome && g.outcome !== "void");

/** Bootstrap resamples behind every published interval. */
export const RESAMPLES = 1000;

/** The bootstrap's seed, from the league id (FNV-1a, 32 bits): anyone holding the id draws the same resamples. */
export function bootstrapSeed(leagueId: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < leagueId.length; i++) {
    h ^= leagueId.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const round1 = (x: number): number => Math.round(x * 10) / 10 + 0; // + 0 turns -0 into 0

/**
 * The table: entrants ranked by rating (then by id), each with the games counted and its interval. `deals` are
 * every deal of the league, decided or not; only those `isCounted` enter the fit, in the order given (the
 * league's schedule order), so the bootstrap draws the same units everywhere.
 */
export function leagueTable(entrants: readonly string[], deals: readonly TableDeal[], leagueId: string, resamples = RESAMPLES): TableRow[] {
  if (entrants.length === 0) return [];
  const index = new Map(entrants.map((id, i) => [id, i]));
  const counts = entrants.map(() => ({ games: 0, wins: 0, draws: 0, losses: 0, voided: 0 }));
  const units: Unit[] = [];
  for (const deal of deals) {
    const unit: PairResult[] = [];
    const counted = isCounted(deal);
    for (const g of deal.games) {
      const a = index.get(g.first);
      const b = index.get(g.second);
      if (a === undefined || b === undefined) throw new Error(`a game of ${g.first} and ${g.second}, who are not both entrants`);
      if (g.outcome === "void") {
        counts[a].voided++;
        counts[b].voided++;
      }
      if (!counted) continue;
      const score = g.outcome === "first" ? 1 : g.outcome === "draw" ? 0.5 : 0;
      unit.push({ a, b, score });
      counts[a].games++;
      counts[b].games++;
      if (score === 0.5) {
        counts[a].draws++;
        counts[b].draws++;
      } else {
        counts[score === 1 ? a : b].wins++;
        counts[score === 1 ? b : a].losses++;
      }
    }
    if (unit.length > 0) units.push(unit);
  }
  const { ratings } = fitBradleyTerry(entrants.length, units.flat());
  const intervals = bootstrapIntervals(entrants.length, units, { seed: bootstrapSeed(leagueId), resamples });
  const rows = entrants.map((playerId, i) => ({
    playerId,
    rating: round1(ratings[i]),
    low: round1(intervals[i].low),
    high: round1(intervals[i].high),
    ...counts[i],
    exact: ratings[i],
  }));
  rows.sort((x, y) => y.exact - x.exact || (x.playerId < y.playerId ? -1 : x.playerId > y.playerId ? 1 : 0));
  return rows.map(({ exact: _exact, ...row }, i) => ({ rank: i + 1, ...row }));
}
