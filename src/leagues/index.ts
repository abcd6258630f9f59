/** Duplicate leagues of bots: pure scheduling and Bradley-Terry standings; the service and its REST routes. */
export * from "./bradley-terry";
export * from "./table";
export * from "./schedule";
export { LeagueService } from "./service";
export { leaguesRouter } from "./routes";
export { CreateLeagueBody, ListLeaguesQuery, LeagueId, LEAGUE_MAX_ENTRANTS } from "./schemas";
