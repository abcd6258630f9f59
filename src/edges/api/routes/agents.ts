/**
 * REST face of agent challenges, under `/agent` of the version prefix (so `/api/v1/agent` and its alias
 * `/api/agent`). Every route carries a limiter: creating 30/min, reporting 60/min, reads 120/min per IP.
 */
import { Router } from "express";
import { botOf } from "./bots";
import { parse } from "../../../shared/validation";
import type { ChallengeService } from "../../../services/agents/service";
import { AcceptChallengeBody, CreateChallengeBody, HistoryQuery, ResultBody } from "../../../services/agents/schemas";
import * as R from "../openapi/responses";
import { reply } from "../reply";

/** Rate limits (challenge 30, result 60, reads 120 per minute) are applied by policy in src/edges/api. */
export function agentsRouter(challenges: ChallengeService): Router {
  const r = Router();

  r.post("/agent/challenge", async (req, res) => {
    const out = await challenges.create(parse(CreateChallengeBody, req.body, "body"), botOf(res)?.bot.id);
    reply(res.location(`/api/v1/agent/challenge/${out.token}`), 201, R.ChallengeCreated, out);
  });

  // Accepting creates a game, so it counts against the same per-IP budget as creating games.
  r.post("/agent/challenge/:token/accept", async (req, res) => {
    reply(res, 200, R.ChallengeAccepted, await challenges.accept(String(req.params.token), parse(AcceptChallengeBody, req.body, "body")));
  });

  r.get("/agent/challenge/:token", async (req, res) => {
    reply(res, 200, R.Challenge, await challenges.get(String(req.params.token)));
  });

  r.get("/agent/challenges", async (req, res) => {
    const q = parse(HistoryQuery, req.query, "query");
    reply(res, 200, R.ChallengeHistory, await challenges.history(q.agent, q.limit));
  });

  r.post("/agent/result", async (req, res) => {
    reply(res, 200, R.Challenge, await challenges.report(parse(ResultBody, req.body, "body")));
  });

  return r;
}
