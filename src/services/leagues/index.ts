/** Duplicate leagues of bots: pure scheduling and Bradley-Terry standings; the service (its REST routes are in src/edges/api/routes/leagues.ts). */
export * from "../../shared/standings/bradley-terry";
export * from "../../shared/standings/league-table";
export * from "./schedule";
export { LeagueService, type LeagueGames } from "./service";
export { CreateLeagueBody, ListLeaguesQuery, LeagueId, LEAGUE_MAX_ENTRANTS } from "./schemas";
