/** REST for duplicate leagues under /api/v1/leagues: create, list, read, join, start, standings, games. */
import { Router, type Request } from "express";
import { z } from "zod";
import { AppError } from "../../../shared/errors";
import { bearerToken } from "../../../shared/secrets";
import { CreateLeagueBody, LeagueId, ListLeaguesQuery } from "../../../services/leagues/schemas";
import type { LeagueService } from "../../../services/leagues/service";
import { CreatedLeague, JoinedLeague, League, LeagueGames, LeagueList, LeagueStandings } from "../openapi/leagues";
import { bearer, botKey, json, problems } from "../openapi/parts";
import { reply } from "../reply";
import { mountRoutes, route, type Route } from "../route";
import { botOf } from "./bots";
import { pathId } from "./path-id";

const idOf = (req: Request): string => pathId(req, LeagueId, "league");

function directorTokenOf(req: Request): string {
  const token = bearerToken(req.headers.authorization);
  if (!token) throw new AppError("unauthorized", "send the league's director token as `Authorization: Bearer pt_...`");
  return token;
}

const params = z.object({ id: z.string().describe("league id") });

export const leagueRoutes: Route<LeagueService>[] = [
  route({
    method: "post",
    path: "/leagues",
    operationId: "createLeague",
    tags: ["leagues"],
    summary: "Create a duplicate league",
    description:
      "A round-robin league of bots in which every pair plays `deals` seeded deals, each from both seats. The `directorToken` is in this answer only.",
    request: { body: CreateLeagueBody },
    responses: { 201: json(CreatedLeague, "created"), ...problems(400) },
    handler: async ({ res, body }, leagues) => {
      reply(res, 201, CreatedLeague, await leagues.create(body()));
    },
  }),
  route({
    method: "get",
    path: "/leagues",
    operationId: "listLeagues",
    tags: ["leagues"],
    summary: "List leagues",
    description: "Duplicate leagues, newest first.",
    request: { query: ListLeaguesQuery },
    responses: { 200: json(LeagueList), ...problems(400) },
    handler: async ({ res, query }, leagues) => {
      reply(res, 200, LeagueList, await leagues.list(query().limit));
    },
  }),
  route({
    method: "get",
    path: "/leagues/:id",
    operationId: "getLeague",
    tags: ["leagues"],
    summary: "Read a league",
    description: "Its status, entrants and progress, with links to its standings and games.",
    request: { params },
    responses: { 200: json(League), ...problems(404) },
    handler: async ({ req, res }, leagues) => {
      reply(res, 200, League, await leagues.read(idOf(req)));
    },
  }),
  // The bot's key (read by botAuth for every /api request) is what enters it: a league is for bots.
  route({
    method: "post",
    path: "/leagues/:id/join",
    operationId: "joinLeague",
    tags: ["leagues"],
    summary: "Enter a bot in a league",
    description:
      "Enters the bot whose key the request carries (`Authorization: Bearer bk_...`) in an open league. The `playerToken` (shown once) is its seat token in every league game.",
    security: botKey,
    request: { params },
    responses: { 201: json(JoinedLeague, "entered"), ...problems(401, 404, 409) },
    handler: async ({ req, res }, leagues) => {
      reply(res, 201, JoinedLeague, await leagues.join(idOf(req), botOf(res)));
    },
  }),
  route({
    method: "post",
    path: "/leagues/:id/start",
    operationId: "startLeague",
    tags: ["leagues"],
    summary: "Start a league",
    description: "Closes entries, stores the schedule (every game id and deal seed) and creates the first wave of games (the director token).",
    security: bearer,
    request: { params },
    responses: { 200: json(League), ...problems(401, 403, 404, 409) },
    handler: async ({ req, res }, leagues) => {
      reply(res, 200, League, await leagues.start(idOf(req), directorTokenOf(req)));
    },
  }),
  route({
    method: "get",
    path: "/leagues/:id/standings",
    operationId: "getLeagueStandings",
    tags: ["leagues"],
    summary: "Read a league's standings",
    description:
      "Bradley-Terry ratings (Elo scale, mean 0) with 95% bootstrap intervals over deals, and each entrant's games, wins, draws and losses; a deal counts once both its games are decided.",
    request: { params },
    responses: { 200: json(LeagueStandings), ...problems(404) },
    handler: async ({ req, res }, leagues) => {
      reply(res, 200, LeagueStandings, await leagues.standings(idOf(req)));
    },
  }),
  route({
    method: "get",
    path: "/leagues/:id/games",
    operationId: "getLeagueGames",
    tags: ["leagues"],
    summary: "Read a league's games",
    description: "Every deal in schedule order with its two games (one from each seat) and their outcomes; seeds are revealed by the games' replays.",
    request: { params },
    responses: { 200: json(LeagueGames), ...problems(404) },
    handler: async ({ req, res }, leagues) => {
      reply(res, 200, LeagueGames, await leagues.games(idOf(req)));
    },
  }),
];

export const leaguesRouter = (leagues: LeagueService): Router => mountRoutes(Router(), leagueRoutes, leagues);
