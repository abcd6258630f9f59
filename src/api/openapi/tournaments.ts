/** The tournaments operations of the OpenAPI document: request schemas from src/tournaments, answers here. */
import type { RouteConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { CreateTournamentBody, JoinTournamentBody, ListTournamentsQuery } from "../../tournaments";

type Problems = (...statuses: number[]) => RouteConfig["responses"];

const url = z.string().describe("absolute URL on this service");
const int = z.number().int();
const outcome = z.enum(["first", "second", "draw"]).nullable().describe("null while the game is played");

export const Tournament = z.object({
  id: z.string(),
  name: z.string(),
  format: z.literal("swiss"),
  ruleset: z.enum(["classic", "mutators"]),
  rounds: int,
  round: int.describe("rounds paired so far"),
  status: z.enum(["open", "running", "finished"]),
  createdAt: z.string(),
  maxEntrants: int.describe("most entrants it accepts"),
  entrants: z.array(z.object({ playerId: z.string(), name: z.string(), rating: int, withdrawn: z.boolean() })),
  urls: z.object({ self: url, standings: url, games: url, trf: url }),
}).meta({ id: "Tournament" });

export const CreatedTournament = z.object({
  tournament: Tournament,
  directorToken: z.string().describe("starts the tournament; shown once, stored hashed"),
});
export const JoinedTournament = z.object({
  tournament: Tournament,
  playerId: z.string(),
  playerToken: z.string().describe("the entrant's token: the seat token of every game the tournament pairs them in; shown once"),
});
export const TournamentList = z.object({ tournaments: z.array(Tournament) });
export const Standings = z.object({
  id: z.string(),
  status: z.enum(["open", "running", "finished"]),
  round: int,
  rounds: int,
  standings: z.array(z.object({
    rank: int, playerId: z.string(), name: z.string(), rating: int, score: z.number(),
    buchholz: z.number(), sonnebornBerger: z.number(), withdrawn: z.boolean(),
  })),
});
export const Games = z.object({
  id: z.string(),
  rounds: z.array(z.object({
    round: int,
    bye: z.string().nullable(),
    games: z.array(z.object({ first: z.string().describe("moves first"), second: z.string(), gameId: z.string(), outcome, url })),
  })),
});

const json = (schema: z.ZodType, description = "OK") => ({ description, content: { "application/json": { schema } } });
const params = z.object({ id: z.string().describe("tournament id") });
const bearer = [{ playerToken: [] }];

/** The operations under /tournaments. */
export function tournamentOps(problems: Problems): RouteConfig[] {
  const op = (method: RouteConfig["method"], path: string, operationId: string, rest: Partial<RouteConfig>): RouteConfig =>
    ({ method, path, tags: ["tournaments"], operationId, responses: {}, ...rest });
  return [
    op("post", "/tournaments", "createTournament", {
      description: "A swiss tournament, open for entries until its director starts it.",
      request: { body: { content: { "application/json": { schema: CreateTournamentBody } } } },
      responses: { 201: json(CreatedTournament, "created"), ...problems(400) },
    }),
    op("get", "/tournaments", "listTournaments", { description: "Newest first.", request: { query: ListTournamentsQuery }, responses: { 200: json(TournamentList), ...problems(400) } }),
    op("get", "/tournaments/{id}", "getTournament", { request: { params }, responses: { 200: json(Tournament), ...problems(404) } }),
    op("post", "/tournaments/{id}/join", "joinTournament", {
      request: { params, body: { content: { "application/json": { schema: JoinTournamentBody } } } },
      description: "Refused with 429 past TOURNAMENT_JOINS_PER_ADDRESS joins a minute from one address, or TOURNAMENT_JOINS_PER_PLAYER for one profile; 409 when the tournament is full.",
      responses: { 201: json(JoinedTournament, "entered"), ...problems(400, 401, 404, 409, 429) },
    }),
    op("post", "/tournaments/{id}/start", "startTournament", {
      description: "Closes entries and pairs round 1 (the director token).",
      security: bearer,
      request: { params },
      responses: { 200: json(Tournament), ...problems(401, 403, 404, 409) },
    }),
    op("post", "/tournaments/{id}/withdraw", "withdrawFromTournament", {
      description: "The entrant's results stay; they are paired no more.",
      security: bearer,
      request: { params },
      responses: { 200: json(Tournament), ...problems(401, 404, 409) },
    }),
    op("get", "/tournaments/{id}/standings", "getTournamentStandings", {
      description: "Score, then Buchholz, then Sonneborn-Berger, then rating.",
      request: { params },
      responses: { 200: json(Standings), ...problems(404) },
    }),
    op("get", "/tournaments/{id}/games", "getTournamentGames", { request: { params }, responses: { 200: json(Games), ...problems(404) } }),
    op("get", "/tournaments/{id}/trf", "getTournamentTrf", {
      description: "FIDE TRF-16 report; player names are player ids.",
      request: { params },
      responses: { 200: { description: "TRF-16 text", content: { "text/plain": { schema: z.string() } } }, ...problems(404) },
    }),
  ];
}
