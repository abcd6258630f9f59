/**
 * A league's schedule, pure: every pair of entrants plays `deals` deals, each deal two games on one seed with
 * each entrant moving first in one. Deals are released in waves: a deal is released when neither of its
 * entrants has `parallel` deals unfinished, so a bot plays at most 2 * parallel games at once. The schedule never
 * changes once stored; what was released and what was played are kept beside it (the league's head, its results).
 */
import type { LeagueDeal, LeagueGame, LeagueOutcome, LeagueResult } from "../../store/port";
import { isCounted, type TableDeal } from "../../shared/standings/league-table";

/**
 * Round-robin rounds by the circle method: in each round every entrant meets at most one other, so taking the
 * schedule in order spreads each entrant's games evenly and a wave can hold every entrant.
 */
export function roundRobin(entrants: readonly string[]): [string, string][][] {
  const ring: (string | null)[] = entrants.length % 2 === 0 ? [...entrants] : [...entrants, null];
  const rounds: [string, string][][] = [];
  for (let r = 0; r < ring.length - 1; r++) {
    const round: [string, string][] = [];
    for (let i = 0; i < ring.length / 2; i++) {
      const x = ring[i];
      const y = ring[ring.length - 1 - i];
      if (x !== null && y !== null) round.push(r % 2 === 0 ? [x, y] : [y, x]);
    }
    rounds.push(round);
    // Keep the first fixed and turn the rest one place.
    ring.splice(1, 0, ring.pop()!);
  }
  return rounds;
}

/** Every deal of the league in release order: deal 0 of every pair first (round by round), then deal 1, and so on. */
export function buildSchedule(entrants: readonly string[], deals: number, seed: () => LeagueDeal["seed"], gameId: () => string): LeagueDeal[] {
  const rounds = roundRobin(entrants);
  const out: LeagueDeal[] = [];
  for (let deal = 0; deal < deals; deal++) {
    for (const round of rounds) {
      for (const [a, b] of round) {
        out.push({
          a,
          b,
          deal,
          seed: seed(),
          games: [
            { first: a, second: b, gameId: gameId() },
            { first: b, second: a, gameId: gameId() },
          ],
        });
      }
    }
  }
  return out;
}

/**
 * Releases the deals the wave rule allows, in schedule order: `released` holds every deal released so far and
 * `open` those of them not yet played. Answers the deals it released, which it adds to both.
 */
export function releaseWave(schedule: readonly Pick<LeagueDeal, "a" | "b">[], released: Set<number>, open: number[], parallel: number): number[] {
  const busy = new Map<string, number>();
  const bump = (id: string) => busy.set(id, (busy.get(id) ?? 0) + 1);
  for (const i of open) {
    bump(schedule[i].a);
    bump(schedule[i].b);
  }
  const now: number[] = [];
  for (let i = 0; i < schedule.length; i++) {
    const d = schedule[i];
    if (released.has(i)) continue;
    if ((busy.get(d.a) ?? 0) >= parallel || (busy.get(d.b) ?? 0) >= parallel) continue;
    released.add(i);
    bump(d.a);
    bump(d.b);
    now.push(i);
  }
  open.push(...now);
  open.sort((x, y) => x - y);
  return now;
}

/** Each counted game's outcome by game id. */
export type Outcomes = ReadonlyMap<string, LeagueOutcome>;

export const outcomesOf = (results: readonly Pick<LeagueResult, "gameId" | "outcome">[]): Map<string, LeagueOutcome> =>
  new Map(results.map((r) => [r.gameId, r.outcome]));

/** Whether both games of a deal have been counted. */
export const dealDone = (d: Pick<LeagueDeal, "games">, outcomes: Outcomes): boolean => d.games.every((g) => outcomes.has(g.gameId));

/** The schedule as the table reads it: every deal, in order, with its games' outcomes (undecided ones null). */
export function tableDeals(schedule: readonly LeagueDeal[], outcomes: Outcomes): TableDeal[] {
  return schedule.map((d) => ({ games: d.games.map((g: LeagueGame) => ({ first: g.first, second: g.second, outcome: outcomes.get(g.gameId) ?? null })) }));
}

/** The deals the table counts (table.ts `isCounted`): both games decided, neither void. */
export const countedDeals = (schedule: readonly LeagueDeal[], outcomes: Outcomes): TableDeal[] => tableDeals(schedule, outcomes).filter(isCounted);
