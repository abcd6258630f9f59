/**
 * The tasks a worker thread of the AI pool runs (see ./pool): the house's decisions, reviews and a league's
 * standings table, each a search or a fit of a few hundred milliseconds. Each is a plain function of plain data, so the
 * pool can hand it over by structured clone; the same functions run inline when the pool has no threads.
 */
import type { Level, Replay, SeatView } from "../../engine/types";
import { decide } from "./decide";
import { reviewGame, type Review } from "./review";
import type { Placement } from "./search";
import { leagueTable, type LeagueTableTask, type TableRow } from "../../shared/standings/league-table";

export interface DecideTask {
  view: SeatView;
  level: Level;
}

export function decideTask({ view, level }: DecideTask): Placement {
  return decide(view, level);
}

export function reviewTask(replay: Replay): Review {
  return reviewGame(replay);
}

/** A duplicate league's standings: the Bradley-Terry fit and its bootstrap refits (src/shared/standings/league-table.ts). */
export function leagueTableTask({ entrants, deals, leagueId }: LeagueTableTask): TableRow[] {
  return leagueTable(entrants, deals, leagueId);
}
