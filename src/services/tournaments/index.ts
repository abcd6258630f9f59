/** Tournaments: pure pairing, scoring and export; the service (its REST routes are in src/edges/api/routes/tournaments.ts). */
export * from "./swiss";
export * from "./trf";
export * from "./arena";
export { TournamentService, standingRows, tournamentChannel } from "./service";
export { ArenaService, arenaStandingRows } from "./arena-service";
export { CreateArenaBody, CreateSwissBody, CreateTournamentBody, JoinTournamentBody, ListTournamentsQuery } from "./schemas";
