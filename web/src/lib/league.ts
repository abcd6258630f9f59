// The words and links the league pages show for a league (its answers are typed in ./api-types.ts).
import type { GamesView, LeagueView } from "./api-types";

export type DealView = GamesView["deals"][number];

const STATUS: Record<LeagueView["status"], string> = { open: "Open for entries", running: "Running", finished: "Finished" };
export const leagueStatus = (s: LeagueView["status"]): string => STATUS[s];

export const leagueHref = (id: string): string => `/leagues/${encodeURIComponent(id)}`;
export const playerHref = (id: string): string => `/players/${encodeURIComponent(id)}`;

/** "3 of 6 deals played" */
export const dealsText = (l: LeagueView): string => `${l.progress.dealsPlayed} of ${l.progress.deals} deals played`;
