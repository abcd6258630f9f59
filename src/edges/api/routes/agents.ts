/**
 * REST face of agent challenges, under `/agent` of the version prefix (so `/api/v1/agent` and its alias
 * `/api/agent`). Every route carries a limiter: creating 30/min, reporting 60/min, reads 120/min per IP.
 */
import { Router } from "express";
import { z } from "zod";
import { botOf } from "./bots";
import type { ChallengeService } from "../../../services/agents/service";
import { AcceptChallengeBody, CreateChallengeBody, HistoryQuery, ResultBody } from "../../../services/agents/schemas";
import * as R from "../openapi/responses";
import { asBot, json, problems } from "../openapi/parts";
import { reply } from "../reply";
import { mountRoutes, route, type Route } from "../route";

const token = z.object({ token: z.string() });

export const agentRoutes: Route<ChallengeService>[] = [
  route({
    method: "post",
    path: "/agent/challenge",
    operationId: "createChallenge",
    tags: ["challenges"],
    summary: "Create an agent challenge",
    description:
      "A link a person opens to play the house on the agent's behalf, or (`opponent: bot`, with the bot's key) the agent's own bot, which is told of the game and its seat token on its event stream. 30 per minute per IP, per key with a bot key.",
    security: asBot,
    request: { body: CreateChallengeBody, bodyExample: { agent: { name: "my-agent" }, level: "normal" } },
    responses: { 201: json(R.ChallengeCreated, "created"), ...problems(400, 401) },
    handler: async ({ res, body }, challenges) => {
      const out = await challenges.create(body(), botOf(res)?.bot.id);
      reply(res.location(`/api/v1/agent/challenge/${out.token}`), 201, R.ChallengeCreated, out);
    },
  }),
  // Accepting creates a game, so it counts against the same per-IP budget as creating games.
  route({
    method: "post",
    path: "/agent/challenge/:token/accept",
    operationId: "acceptChallenge",
    tags: ["challenges"],
    summary: "Accept an agent challenge",
    description: "Takes the person's seat of a challenge and starts its game.",
    request: { params: token, body: AcceptChallengeBody },
    responses: { 200: json(R.ChallengeAccepted), ...problems(400, 401, 404, 409, 410) },
    handler: async ({ req, res, body }, challenges) => {
      reply(res, 200, R.ChallengeAccepted, await challenges.accept(String(req.params.token), body()));
    },
  }),
  route({
    method: "get",
    path: "/agent/challenge/:token",
    operationId: "getChallenge",
    tags: ["challenges"],
    summary: "Read an agent challenge",
    description: "Its status and, once played, the verified result.",
    request: { params: token },
    responses: { 200: json(R.Challenge), ...problems(404) },
    handler: async ({ req, res }, challenges) => {
      reply(res, 200, R.Challenge, await challenges.get(String(req.params.token)));
    },
  }),
  route({
    method: "get",
    path: "/agent/challenges",
    operationId: "listChallenges",
    tags: ["challenges"],
    summary: "List an agent's challenges",
    description: "An agent's public challenge history, newest first.",
    request: { query: HistoryQuery },
    responses: { 200: json(R.ChallengeHistory), ...problems(400) },
    handler: async ({ res, query }, challenges) => {
      const q = query();
      reply(res, 200, R.ChallengeHistory, await challenges.history(q.agent, q.limit));
    },
  }),
  route({
    method: "post",
    path: "/agent/result",
    operationId: "reportResult",
    tags: ["challenges"],
    summary: "Report a challenge's result",
    description: "Sent by game clients; checked against the service's record. 60 per minute per IP.",
    request: { body: ResultBody },
    responses: { 200: json(R.Challenge), ...problems(400, 404, 409, 410, 422) },
    handler: async ({ res, body }, challenges) => {
      reply(res, 200, R.Challenge, await challenges.report(body()));
    },
  }),
];

/** Rate limits (challenge 30, result 60, reads 120 per minute) are applied by policy in src/edges/api. */
export const agentsRouter = (challenges: ChallengeService): Router => mountRoutes(Router(), agentRoutes, challenges);
