/** Public player profiles (spec 2.2), their games and rating history, and the claim that moves a guest profile to an account. */
import { Router } from "express";
import { z } from "zod";
import { NameSchema, PlayerGamesQuery } from "../../../services/games/schemas";
import type { GameReads } from "../../../services/games/reads";
import type { PlayerService } from "../../../services/players/service";
import { queryInt } from "../../../shared/validation";
import * as R from "../openapi/responses";
import { id, json, problems } from "../openapi/parts";
import { reply } from "../reply";
import { mountRoutes, route, type Route } from "../route";
import { pathId, PLAYER_ID } from "./path-id";

export const ClaimBody = z.object({ secret: z.string().min(8).max(200), name: NameSchema.optional() }).strict();
export const RatingHistoryQuery = z
  .object({
    limit: queryInt(1, 500, 100),
    after: queryInt(0, undefined, 0).describe("the last answer's `nextAfter`: points numbered above it (0: from the first)"),
  })
  .strict();

export interface PlayersDeps {
  players: PlayerService;
  /** A player's games are the games service's list, filtered to the player. */
  games: Pick<GameReads, "playerGames">;
}

const player = id("player");

export const playerRoutes: Route<PlayersDeps>[] = [
  route({
    method: "get",
    path: "/players/:id",
    operationId: "getPlayer",
    tags: ["players"],
    summary: "Read a player's profile",
    description: "Rating (Glicko-2), rank, games, win rate, recent form and clubs.",
    request: { params: player },
    responses: { 200: json(R.Profile), ...problems(404) },
    handler: async ({ req, res }, d) => {
      const id = pathId(req, PLAYER_ID, "player");
      reply(res, 200, R.Profile, await d.players.profile(id));
    },
  }),
  // The guest's secret proves ownership; the account's new secret is in this answer and nowhere else.
  route({
    method: "post",
    path: "/players/:id/claim",
    operationId: "claimPlayer",
    tags: ["players"],
    summary: "Claim a guest profile",
    description: "Moves a guest profile to a new account; the account's secret is answered once.",
    request: { params: player, body: ClaimBody },
    responses: { 201: json(R.Claimed, "claimed"), ...problems(400, 401, 404, 409) },
    handler: async ({ req, res, body }, d) => {
      const id = pathId(req, PLAYER_ID, "player");
      const out = await d.players.claim(id, body());
      reply(res.location(`/api/v1/players/${out.account.id}`), 201, R.Claimed, out);
    },
  }),
  route({
    method: "get",
    path: "/players/:id/games",
    operationId: "listPlayerGames",
    tags: ["players"],
    summary: "List a player's games",
    description: "A player's public games, newest first, each with the seat they sat in and their result; paged with `cursor`.",
    request: { params: player, query: PlayerGamesQuery },
    responses: { 200: json(R.PlayerGames), ...problems(400, 404) },
    handler: async ({ req, res, query }, d) => {
      const id = pathId(req, PLAYER_ID, "player");
      reply(res, 200, R.PlayerGames, await d.games.playerGames(id, query()));
    },
  }),
  route({
    method: "get",
    path: "/players/:id/ratings",
    operationId: "getRatingHistory",
    tags: ["players"],
    summary: "Read a player's rating history",
    description:
      "One point per rated game, oldest first: the game, when it ended, the rating it left and whether that rating was provisional; paged with `after` (the last answer's `nextAfter`). Games rated before the history was kept have no point.",
    request: { params: player, query: RatingHistoryQuery },
    responses: { 200: json(R.RatingHistory), ...problems(400, 404) },
    handler: async ({ req, res, query }, d) => {
      const id = pathId(req, PLAYER_ID, "player");
      const q = query();
      reply(res, 200, R.RatingHistory, await d.players.ratingHistory(id, q.after, q.limit));
    },
  }),
];

export const playersRouter = (deps: PlayersDeps): Router => mountRoutes(Router(), playerRoutes, deps);
