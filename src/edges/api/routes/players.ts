/** Public player profiles (spec 2.2) and the claim that moves a guest profile to an account. */
import { Router } from "express";
import { z } from "zod";
import { NameSchema } from "../../../services/games/schemas";
import type { PlayerService } from "../../../services/players/service";
import { parse, queryInt } from "../../../shared/validation";
import * as R from "../openapi/responses";
import { reply } from "../reply";
import { pathId, PLAYER_ID } from "./path-id";

export const ClaimBody = z.object({ secret: z.string().min(8).max(200), name: NameSchema.optional() }).strict();
export const RatingHistoryQuery = z
  .object({
    limit: queryInt(1, 500, 100),
    after: queryInt(0, undefined, 0).describe("the last answer's `nextAfter`: points numbered above it (0: from the first)"),
  })
  .strict();

export function playersRouter(players: PlayerService): Router {
  const r = Router();
  r.get("/players/:id", async (req, res) => {
    const id = pathId(req, PLAYER_ID, "player");
    reply(res, 200, R.Profile, await players.profile(id));
  });
  r.get("/players/:id/ratings", async (req, res) => {
    const id = pathId(req, PLAYER_ID, "player");
    const q = parse(RatingHistoryQuery, req.query, "query");
    reply(res, 200, R.RatingHistory, await players.ratingHistory(id, q.after, q.limit));
  });
  // The guest's secret proves ownership; the account's new secret is in this answer and nowhere else.
  r.post("/players/:id/claim", async (req, res) => {
    const id = pathId(req, PLAYER_ID, "player");
    const out = await players.claim(id, parse(ClaimBody, req.body, "body"));
    reply(res.location(`/api/v1/players/${out.account.id}`), 201, R.Claimed, out);
  });
  return r;
}
