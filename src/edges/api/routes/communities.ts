/** Public, read-only leaderboards: GET /players, /clubs, /clubs/{id}, /communities, /communities/{id} (120/min per IP). */
import { Router } from "express";
import type { CommunityKind, CommunityService } from "../../../services/communities/service";
import { PageQuery } from "../../../services/communities/schemas";
import * as R from "../openapi/responses";
import { id, json, problems } from "../openapi/parts";
import { reply } from "../reply";
import { mountRoutes, route, type Route, type RouteContext } from "../route";
import { pathId } from "./path-id";

const CommunityId = /^[A-Za-z0-9_-]{1,64}$/;

type Ctx = RouteContext<undefined, typeof PageQuery>;

/** A kind's list (clubs or communities) and one of them's leaderboard: the same handlers for both kinds. */
const list =
  (kind: CommunityKind, schema: typeof R.ClubList | typeof R.CommunityList) =>
  async ({ res, query }: Ctx, d: CommunityService) => {
    reply(res, 200, schema, await d.list(kind, query()));
  };
const leaderboard =
  (kind: CommunityKind) =>
  async ({ req, res, query }: Ctx, d: CommunityService) => {
    const id = pathId(req, CommunityId, kind);
    reply(res, 200, R.Leaderboard, await d.leaderboard(kind, id, query()));
  };

export const communityRoutes: Route<CommunityService>[] = [
  // The players' own leaderboard: everyone, not one community's members.
  route({
    method: "get",
    path: "/players",
    operationId: "playerLeaderboard",
    tags: ["players"],
    summary: "The player leaderboard",
    description:
      "Every player with a rated game by rating (Glicko-2), provisional ratings marked; people and bots told apart by `kind`. Paged with `limit` and `offset`, which count listed players: a page is full while more follow, and `place` runs on from one page to the next.",
    request: { query: PageQuery },
    responses: { 200: json(R.PlayerLeaderboard), ...problems(400) },
    handler: async ({ res, query }, d) => {
      reply(res, 200, R.PlayerLeaderboard, await d.playerLeaderboard(query()));
    },
  }),
  route({
    method: "get",
    path: "/clubs",
    operationId: "listClubs",
    tags: ["players"],
    summary: "List clubs",
    description: "Clubs and their sizes, paged with `limit` and `offset`.",
    request: { query: PageQuery },
    responses: { 200: json(R.ClubList), ...problems(400) },
    handler: list("club", R.ClubList),
  }),
  route({
    method: "get",
    path: "/clubs/:id",
    operationId: "getClub",
    tags: ["players"],
    summary: "Read a club's leaderboard",
    description: "A club's standings by rating, paged with `limit` and `offset`.",
    request: { params: id("club"), query: PageQuery },
    responses: { 200: json(R.Leaderboard), ...problems(400, 404) },
    handler: leaderboard("club"),
  }),
  route({
    method: "get",
    path: "/communities",
    operationId: "listCommunities",
    tags: ["players"],
    summary: "List communities",
    description: "Communities and their sizes, paged with `limit` and `offset`.",
    request: { query: PageQuery },
    responses: { 200: json(R.CommunityList), ...problems(400) },
    handler: list("community", R.CommunityList),
  }),
  route({
    method: "get",
    path: "/communities/:id",
    operationId: "getCommunity",
    tags: ["players"],
    summary: "Read a community's leaderboard",
    description: "A community's standings by rating, paged with `limit` and `offset`.",
    request: { params: id("community"), query: PageQuery },
    responses: { 200: json(R.Leaderboard), ...problems(400, 404) },
    handler: leaderboard("community"),
  }),
];

export const communitiesRouter = (communities: CommunityService): Router => mountRoutes(Router(), communityRoutes, communities);
