/** REST for tournaments under /api/v1/tournaments: create, list, read, join, start, withdraw, standings, games, TRF. */
import { Router, type Request, type RequestHandler } from "express";
import { z } from "zod";
import { AppError } from "../../../shared/errors";
import { bearerToken } from "../../../shared/secrets";
import { CreateTournamentBody, JoinTournamentBody, ListTournamentsQuery, TournamentId } from "../../../services/tournaments/schemas";
import type { TournamentService } from "../../../services/tournaments/service";
import { CreatedTournament, Games, JoinedTournament, Standings, Tournament, TournamentList } from "../openapi/tournaments";
import { bearer, json, problems, text } from "../openapi/parts";
import { reply } from "../reply";
import { mountRoutes, route, type Route } from "../route";
import { pathId } from "./path-id";

export interface TournamentsDeps {
  tournaments: TournamentService;
  /** The caps on joins per minute (src/edges/api/join-caps.ts), when the server applies them. */
  joins?: { middleware(): RequestHandler[] };
}

const idOf = (req: Request): string => pathId(req, TournamentId, "tournament");

function tokenOf(req: Request): string {
  const token = bearerToken(req.headers.authorization);
  if (!token) throw new AppError("unauthorized", "send the tournament token as `Authorization: Bearer pt_...`");
  return token;
}

const params = z.object({ id: z.string().describe("tournament id") });

export const tournamentRoutes: Route<TournamentsDeps>[] = [
  route({
    method: "post",
    path: "/tournaments",
    operationId: "createTournament",
    tags: ["tournaments"],
    summary: "Create a tournament",
    description:
      'A swiss tournament (`rounds`), open for entries until its director starts it, or an arena (`format: "arena"`, `minutes`), open for entries until its time is up. The `directorToken` is in this answer only.',
    request: { body: CreateTournamentBody },
    responses: { 201: json(CreatedTournament, "created"), ...problems(400) },
    handler: async ({ res, body }, d) => {
      reply(res, 201, CreatedTournament, await d.tournaments.create(body()));
    },
  }),
  route({
    method: "get",
    path: "/tournaments",
    operationId: "listTournaments",
    tags: ["tournaments"],
    summary: "List tournaments",
    description: "Tournaments, newest first.",
    request: { query: ListTournamentsQuery },
    responses: { 200: json(TournamentList), ...problems(400) },
    handler: async ({ res, query }, d) => {
      reply(res, 200, TournamentList, await d.tournaments.list(query().limit));
    },
  }),
  route({
    method: "get",
    path: "/tournaments/:id",
    operationId: "getTournament",
    tags: ["tournaments"],
    summary: "Read a tournament",
    description: "Its status, rounds and entrants, with links to its standings, games and TRF report.",
    request: { params },
    responses: { 200: json(Tournament), ...problems(404) },
    handler: async ({ req, res }, d) => {
      reply(res, 200, Tournament, await d.tournaments.read(idOf(req)));
    },
  }),
  route({
    method: "post",
    path: "/tournaments/:id/join",
    operationId: "joinTournament",
    tags: ["tournaments"],
    summary: "Enter a tournament",
    description:
      "Enters an open tournament, or an arena until its time is up. The `playerToken` (shown once) is the entrant's seat token in every game the tournament pairs them in.",
    request: { params, body: JoinTournamentBody },
    responses: { 201: json(JoinedTournament, "entered"), ...problems(400, 401, 404, 409, 429) },
    before: (d) => d.joins?.middleware() ?? [],
    handler: async ({ req, res, body }, d) => {
      const id = idOf(req);
      reply(res, 201, JoinedTournament, await d.tournaments.join(id, body()));
    },
  }),
  route({
    method: "post",
    path: "/tournaments/:id/start",
    operationId: "startTournament",
    tags: ["tournaments"],
    summary: "Start a tournament",
    description: "Swiss: closes entries and pairs round 1. Arena: starts its clock and pairs the entrants (the director token).",
    security: bearer,
    request: { params },
    responses: { 200: json(Tournament), ...problems(401, 403, 404, 409) },
    handler: async ({ req, res }, d) => {
      reply(res, 200, Tournament, await d.tournaments.start(idOf(req), tokenOf(req)));
    },
  }),
  route({
    method: "post",
    path: "/tournaments/:id/withdraw",
    operationId: "withdrawFromTournament",
    tags: ["tournaments"],
    summary: "Withdraw from a tournament",
    description: "The entrant's results stay; they are paired no more (their entrant token). An arena game under way still finishes and counts.",
    security: bearer,
    request: { params },
    responses: { 200: json(Tournament), ...problems(401, 404, 409) },
    handler: async ({ req, res }, d) => {
      reply(res, 200, Tournament, await d.tournaments.withdraw(idOf(req), tokenOf(req)));
    },
  }),
  route({
    method: "get",
    path: "/tournaments/:id/standings",
    operationId: "getTournamentStandings",
    tags: ["tournaments"],
    summary: "Read a tournament's standings",
    description: "Swiss: score, then Buchholz and Sonneborn-Berger. Arena: score (with streak and fire), then rating.",
    request: { params },
    responses: { 200: json(Standings), ...problems(404) },
    handler: async ({ req, res }, d) => {
      reply(res, 200, Standings, await d.tournaments.standings(idOf(req)));
    },
  }),
  route({
    method: "get",
    path: "/tournaments/:id/games",
    operationId: "getTournamentGames",
    tags: ["tournaments"],
    summary: "Read a tournament's games",
    description:
      "Swiss: every round's games (first mover first) with their outcomes, and each round's bye. Arena: every game in the order paired (a null outcome is under way) and the waiting pool.",
    request: { params },
    responses: { 200: json(Games), ...problems(404) },
    handler: async ({ req, res }, d) => {
      reply(res, 200, Games, await d.tournaments.games(idOf(req)));
    },
  }),
  route({
    method: "get",
    path: "/tournaments/:id/trf",
    operationId: "getTournamentTrf",
    tags: ["tournaments"],
    summary: "Export a tournament as TRF",
    description: "The FIDE TRF-16 report of a swiss, which standard pairing checkers read; an arena has none (409).",
    request: { params },
    responses: { 200: text("TRF-16 text"), ...problems(404, 409) },
    handler: async ({ req, res }, d) => {
      // TRF-16 is text, not JSON, so it does not go through reply.
      const body = await d.tournaments.trf(idOf(req));
      res.type("text/plain").send(body);
    },
  }),
];

/** `joins`: the caps on joins per minute (src/edges/api/join-caps.ts), when the server applies them. */
export const tournamentsRouter = (tournaments: TournamentService, joins?: TournamentsDeps["joins"]): Router =>
  mountRoutes(Router(), tournamentRoutes, { tournaments, joins });
