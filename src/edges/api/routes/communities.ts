/** Public, read-only leaderboards: GET /players, /clubs, /clubs/{id}, /communities, /communities/{id} (120/min per IP). */
import { Router } from "express";
import { parse } from "../../../shared/validation";
import type { CommunityKind, CommunityService } from "../../../services/communities/service";
import { PageQuery } from "../../../services/communities/schemas";
import * as R from "../openapi/responses";
import { reply } from "../reply";
import { pathId } from "./path-id";

const CommunityId = /^[A-Za-z0-9_-]{1,64}$/;

export function communitiesRouter(communities: CommunityService): Router {
  const r = Router();
  const mount = (path: string, kind: CommunityKind, list: typeof R.ClubList | typeof R.CommunityList) => {
    r.get(`/${path}`, async (req, res) => {
      reply(res, 200, list, await communities.list(kind, parse(PageQuery, req.query, "query")));
    });
    r.get(`/${path}/:id`, async (req, res) => {
      const id = pathId(req, CommunityId, kind);
      reply(res, 200, R.Leaderboard, await communities.leaderboard(kind, id, parse(PageQuery, req.query, "query")));
    });
  };
  // The players' own leaderboard: everyone, not one community's members.
  r.get("/players", async (req, res) => {
    reply(res, 200, R.PlayerLeaderboard, await communities.playerLeaderboard(parse(PageQuery, req.query, "query")));
  });
  mount("clubs", "club", R.ClubList);
  mount("communities", "community", R.CommunityList);
  return r;
}
