/** Tournaments: pure pairing, scoring and export; the service and its REST routes. */
export * from "./swiss";
export * from "./trf";
export * from "./arena";
export { TournamentService, standingRows, tournamentChannel } from "./service";
export { tournamentsRouter } from "./routes";
export { CreateTournamentBody, JoinTournamentBody, ListTournamentsQuery } from "./schemas";
