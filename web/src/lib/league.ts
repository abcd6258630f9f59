// What the league pages read from the API (GET /leagues, /leagues/{id}, its /standings and /games), typed by
// the OpenAPI document's schemas, and the words they show for a league's state.
import type { z } from "zod";
import type { League, LeagueGames, LeagueList, LeagueStandings } from "../../../src/edges/api/openapi/leagues";

export type LeagueView = z.infer<typeof League>;
export type LeagueListView = z.infer<typeof LeagueList>;
export type StandingsView = z.infer<typeof LeagueStandings>;
export type GamesView = z.infer<typeof LeagueGames>;
export type DealView = GamesView["deals"][number];

const STATUS: Record<LeagueView["status"], string> = { open: "Open for entries", running: "Running", finished: "Finished" };
export const leagueStatus = (s: LeagueView["status"]): string => STATUS[s];

export const leagueHref = (id: string): string => `/leagues/${encodeURIComponent(id)}`;
export const playerHref = (id: string): string => `/players/${encodeURIComponent(id)}`;

/** "3 of 6 deals played" */
export const dealsText = (l: LeagueView): string => `${l.progress.dealsPlayed} of ${l.progress.deals} deals played`;
