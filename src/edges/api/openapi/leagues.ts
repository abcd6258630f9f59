/** The leagues operations of the OpenAPI document: request schemas from src/services/leagues, answers here. */
import type { RouteConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { CreateLeagueBody, ListLeaguesQuery } from "../../../services/leagues/schemas";

type Problems = (...statuses: number[]) => RouteConfig["responses"];

const url = z.string().describe("absolute URL on this service");
const int = z.number().int();
const status = z.enum(["open", "running", "finished"]);
const outcome = z
  .enum(["first", "second", "draw", "void"])
  .nullable()
  .describe("null while the game is played; void: aborted before both seats moved, which voids the deal");

export const League = z
  .object({
    id: z.string(),
    name: z.string(),
    ruleset: z.enum(["classic", "mutators"]),
    deals: int.describe("deals per pair of entrants, two games each"),
    parallel: int.describe("deals an entrant plays at once"),
    turnSeconds: int,
    status,
    createdAt: z.string(),
    finishedAt: z.string().nullable(),
    entrants: z.array(
      z.object({
        playerId: z.string().describe("the bot's id"),
        name: z.string(),
        withdrawn: z.boolean().describe("its key was revoked while the league ran: its deals not yet played are void"),
      }),
    ),
    progress: z.object({ deals: int, dealsPlayed: int, games: int, gamesPlayed: int }),
    urls: z.object({ self: url, standings: url, games: url }),
  })
  .meta({ id: "League" });

export const CreatedLeague = z.object({
  league: League,
  directorToken: z.string().describe("starts the league; shown once, stored hashed"),
});
export const JoinedLeague = z.object({
  league: League,
  playerId: z.string(),
  playerToken: z.string().describe("the bot's seat token in every game the league schedules it in; shown once"),
});
export const LeagueList = z.object({ leagues: z.array(League) });
export const LeagueStandings = z.object({
  id: z.string(),
  status,
  deals: int.describe("deals scheduled"),
  dealsCounted: int.describe("deals whose two games are decided (a void game voids its deal)"),
  resamples: int.describe("bootstrap resamples behind each interval"),
  standings: z.array(
    z.object({
      rank: int,
      playerId: z.string(),
      name: z.string(),
      rating: z.number().describe("Bradley-Terry rating on the Elo scale, entrants' mean 0"),
      low: z.number().describe("95% bootstrap interval, lower end"),
      high: z.number().describe("95% bootstrap interval, upper end"),
      games: int,
      wins: int,
      draws: int,
      losses: int,
      voided: int.describe("void games the entrant sat in (aborted before both seats moved); their deals are not counted"),
    }),
  ),
});
export const LeagueGames = z.object({
  id: z.string(),
  deals: z.array(
    z.object({
      index: int.describe("position in the schedule"),
      a: z.string().describe("moves first in the deal's first game"),
      b: z.string().describe("moves first in the deal's second game"),
      deal: int.describe("the pair's deal number, from 0"),
      released: z.boolean().describe("whether its games have been created"),
      games: z.array(z.object({ gameId: z.string(), first: z.string().describe("moves first"), second: z.string(), outcome, url })),
    }),
  ),
});

const json = (schema: z.ZodType, description = "OK") => ({ description, content: { "application/json": { schema } } });
const params = z.object({ id: z.string().describe("league id") });

/** The operations under /leagues. */
export function leagueOps(problems: Problems): RouteConfig[] {
  const op = (method: RouteConfig["method"], path: string, operationId: string, rest: Partial<RouteConfig>): RouteConfig => ({
    method,
    path,
    tags: ["leagues"],
    operationId,
    responses: {},
    ...rest,
  });
  return [
    op("post", "/leagues", "createLeague", {
      request: { body: { content: { "application/json": { schema: CreateLeagueBody } } } },
      responses: { 201: json(CreatedLeague, "created"), ...problems(400) },
    }),
    op("get", "/leagues", "listLeagues", { request: { query: ListLeaguesQuery }, responses: { 200: json(LeagueList), ...problems(400) } }),
    op("get", "/leagues/{id}", "getLeague", { request: { params }, responses: { 200: json(League), ...problems(404) } }),
    op("post", "/leagues/{id}/join", "joinLeague", {
      security: [{ botKey: [] }],
      request: { params },
      responses: { 201: json(JoinedLeague, "entered"), ...problems(401, 404, 409) },
    }),
    op("post", "/leagues/{id}/start", "startLeague", {
      security: [{ playerToken: [] }],
      request: { params },
      responses: { 200: json(League), ...problems(401, 403, 404, 409) },
    }),
    op("get", "/leagues/{id}/standings", "getLeagueStandings", { request: { params }, responses: { 200: json(LeagueStandings), ...problems(404) } }),
    op("get", "/leagues/{id}/games", "getLeagueGames", { request: { params }, responses: { 200: json(LeagueGames), ...problems(404) } }),
  ];
}
