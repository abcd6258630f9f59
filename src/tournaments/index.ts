/** Tournaments: pure pairing, scoring and export; the service and its REST routes. */
export * from "./swiss";
export * from "./trf";
export * from "./arena";
export { TournamentService, standingRows, tournamentChannel } from "./service";
export { ArenaService, arenaStandingRows } from "./arena-service";
export { tournamentsRouter } from "./routes";
export { CreateArenaBody, CreateSwissBody, CreateTournamentBody, JoinTournamentBody, ListTournamentsQuery } from "./schemas";
