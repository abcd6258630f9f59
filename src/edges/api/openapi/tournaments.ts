/** The tournaments operations of the OpenAPI document: request schemas from src/services/tournaments, answers here. */
import type { RouteConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { CreateTournamentBody, JoinTournamentBody, ListTournamentsQuery } from "../../../services/tournaments";

type Problems = (...statuses: number[]) => RouteConfig["responses"];

const url = z.string().describe("absolute URL on this service");
const int = z.number().int();
const outcome = z.enum(["first", "second", "draw"]).nullable().describe("null while the game is played");

export const Tournament = z
  .object({
    id: z.string(),
    name: z.string(),
    format: z.enum(["swiss", "arena"]),
    ruleset: z.enum(["classic", "mutators"]),
    rounds: int.describe("swiss: the number of rounds; 0 for an arena"),
    round: int.describe("swiss: rounds paired so far; 0 for an arena"),
    minutes: int.nullable().describe("arena: its length in minutes; null for a swiss"),
    endsAt: z.string().nullable().describe("arena: when pairing stops (set at the start); games under way then still count"),
    status: z.enum(["open", "running", "finished"]),
    createdAt: z.string(),
    maxEntrants: int.describe("most entrants it accepts"),
    entrants: z.array(z.object({ playerId: z.string(), name: z.string(), rating: int, withdrawn: z.boolean() })),
    urls: z.object({ self: url, standings: url, games: url, trf: url }),
  })
  .meta({ id: "Tournament" });

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
  standings: z
    .array(
      z.union([
        z
          .object({
            rank: int,
            playerId: z.string(),
            name: z.string(),
            rating: int,
            score: z.number(),
            buchholz: z.number(),
            sonnebornBerger: z.number(),
            withdrawn: z.boolean(),
          })
          .meta({ id: "SwissStanding" }),
        z
          .object({
            rank: int,
            playerId: z.string(),
            name: z.string(),
            rating: int,
            score: z.number(),
            streak: int.describe("wins in a row up to now"),
            fire: z.boolean().describe("two or more wins in a row: the next win counts 4"),
            games: int.describe("games counted"),
            withdrawn: z.boolean(),
          })
          .meta({ id: "ArenaStanding" }),
      ]),
    )
    .describe("a swiss's rows (score, Buchholz, Sonneborn-Berger) or an arena's (score, streak)"),
});
export const Games = z.object({
  id: z.string(),
  rounds: z
    .array(
      z.object({
        round: int,
        bye: z.string().nullable(),
        games: z.array(z.object({ first: z.string().describe("moves first"), second: z.string(), gameId: z.string(), outcome, url })),
      }),
    )
    .describe("swiss rounds; empty for an arena"),
  games: z
    .array(
      z.object({
        first: z.string().describe("moves first"),
        second: z.string(),
        gameId: z.string(),
        outcome,
        pairedAt: z.string(),
        url,
      }),
    )
    .optional()
    .describe("arena: every game in the order paired; those with a null outcome are under way"),
  waiting: z.array(z.string()).optional().describe("arena: player ids waiting for an opponent, longest-waiting first"),
});

const json = (schema: z.ZodType, description = "OK") => ({ description, content: { "application/json": { schema } } });
const params = z.object({ id: z.string().describe("tournament id") });
const bearer = [{ playerToken: [] }];

/** The operations under /tournaments. */
export function tournamentOps(problems: Problems): RouteConfig[] {
  const op = (method: RouteConfig["method"], path: string, operationId: string, rest: Partial<RouteConfig>): RouteConfig => ({
    method,
    path,
    tags: ["tournaments"],
    operationId,
    responses: {},
    ...rest,
  });
  return [
    op("post", "/tournaments", "createTournament", {
      description:
        'A swiss tournament (`rounds`), open for entries until its director starts it, or an arena (`format: "arena"`, `minutes`), open for entries until its time is up.',
      request: { body: { content: { "application/json": { schema: CreateTournamentBody } } } },
      responses: { 201: json(CreatedTournament, "created"), ...problems(400) },
    }),
    op("get", "/tournaments", "listTournaments", {
      description: "Newest first.",
      request: { query: ListTournamentsQuery },
      responses: { 200: json(TournamentList), ...problems(400) },
    }),
    op("get", "/tournaments/{id}", "getTournament", { request: { params }, responses: { 200: json(Tournament), ...problems(404) } }),
    op("post", "/tournaments/{id}/join", "joinTournament", {
      request: { params, body: { content: { "application/json": { schema: JoinTournamentBody } } } },
      description:
        "Refused with 429 past TOURNAMENT_JOINS_PER_ADDRESS joins a minute from one address, or TOURNAMENT_JOINS_PER_PLAYER for one profile; 409 when the tournament is full.",
      responses: { 201: json(JoinedTournament, "entered"), ...problems(400, 401, 404, 409, 429) },
    }),
    op("post", "/tournaments/{id}/start", "startTournament", {
      description: "Swiss: closes entries and pairs round 1. Arena: starts the clock and pairs the entrants (the director token).",
      security: bearer,
      request: { params },
      responses: { 200: json(Tournament), ...problems(401, 403, 404, 409) },
    }),
    op("post", "/tournaments/{id}/withdraw", "withdrawFromTournament", {
      description: "The entrant's results stay; they are paired no more (an arena game under way still finishes and counts).",
      security: bearer,
      request: { params },
      responses: { 200: json(Tournament), ...problems(401, 404, 409) },
    }),
    op("get", "/tournaments/{id}/standings", "getTournamentStandings", {
      description: "Swiss: score, then Buchholz, then Sonneborn-Berger, then rating. Arena: score, then rating.",
      request: { params },
      responses: { 200: json(Standings), ...problems(404) },
    }),
    op("get", "/tournaments/{id}/games", "getTournamentGames", { request: { params }, responses: { 200: json(Games), ...problems(404) } }),
    op("get", "/tournaments/{id}/trf", "getTournamentTrf", {
      description: "FIDE TRF-16 report of a swiss; player names are player ids. An arena has none (409).",
      request: { params },
      responses: { 200: { description: "TRF-16 text", content: { "text/plain": { schema: z.string() } } }, ...problems(404, 409) },
    }),
  ];
}
