/** Public, read-only leaderboards: GET /players, /clubs, /clubs/{id}, /communities, /communities/{id} (120/min per IP). */
import { Router } from "express";
import { z } from "zod";
import { AppError } from "../errors";
import { parse, queryInt } from "../validation";
import type { CommunityKind, CommunityService } from "./service";

export const PageQuery = z.object({ limit: queryInt(1, 100, 20), offset: queryInt(0, 100000, 0) }).strict();

const CommunityId = /^[A-Za-z0-9_-]{1,64}$/;

export function communitiesRouter(communities: CommunityService): Router {
  const r = Router();
  const mount = (path: string, kind: CommunityKind) => {
    r.get(`/${path}`, async (req, res) => {
      res.json(await communities.list(kind, parse(PageQuery, req.query, "query")));
    });
    r.get(`/${path}/:id`, async (req, res) => {
      const id = String(req.params.id);
      if (!CommunityId.test(id)) throw new AppError("not_found", `no ${kind} with id ${id}`);
      res.json(await communities.leaderboard(kind, id, parse(PageQuery, req.query, "query")));
    });
  };
  // The players' own leaderboard: everyone, not one community's members.
  r.get("/players", async (req, res) => {
    res.json(await communities.playerLeaderboard(parse(PageQuery, req.query, "query")));
  });
  mount("clubs", "club");
  mount("communities", "community");
  return r;
}
