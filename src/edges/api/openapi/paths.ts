/**
 * Every REST operation, registered with the zod schemas that validate its request and describe its
 * answers; `document.ts` turns the registry into the OpenAPI 3.1 document. A route added without an entry
 * here is caught by test/server/openapi-conformance.test.ts, which plays every documented operation.
 */
import { OpenAPIRegistry, type RouteConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { ChallengeBotBody, ListBotsQuery, RegisterBotBody } from "../../../services/bots/schemas";
import { AcceptChallengeBody, CreateChallengeBody, HistoryQuery, ResultBody } from "../../../services/agents/schemas";
import { PageQuery } from "../../../services/communities/schemas";
import { ERROR_CODES } from "../../../shared/errors";
import { CURRENT_RULES_VERSION, RULES_VERSIONS } from "../../../engine";
import { SubscribeBody, UnsubscribeBody } from "../../../services/events/subscriptions";
import {
  CreateGameBody,
  JoinGameBody,
  ListGamesQuery,
  MoveBody,
  PlayerGamesQuery,
  QuickMatchBody,
  SyncQuery,
  TicketQuery,
} from "../../../services/games/schemas";
import { ClaimBody, RatingHistoryQuery } from "../routes/players";
import * as R from "./responses";
import { OPERATION_TEXTS } from "./texts";
import { tournamentOps } from "./tournaments";
import { leagueOps } from "./leagues";
import { logOps } from "./log";

type Status = number;
type Responses = RouteConfig["responses"];

const json = (schema: z.ZodType, description = "OK") => ({ description, content: { "application/json": { schema } } });
const ndjson = (schema: z.ZodType, description: string) => ({ description, content: { "application/x-ndjson": { schema } } });

/** The problem statuses an operation may answer, besides 429 (every operation is rate limited). */
function problems(...statuses: Status[]): Responses {
  const out: Responses = {};
  for (const s of [...statuses, 429]) {
    // bad_signature is what a webhook receiver reports, never an answer of this API.
    const codes = Object.entries(ERROR_CODES)
      .filter(([c, m]) => m.status === s && c !== "bad_signature")
      .map(([c]) => `\`${c}\``);
    out[s] = { description: codes.length ? `problem: ${codes.join(", ")}` : "problem", content: { "application/problem+json": { schema: R.Problem } } };
  }
  return out;
}

/** What GET /openapi.json answers: this document. */
export const OpenApiDocument = z.looseObject({ openapi: z.string() });

const id = (what: string) => z.object({ id: z.string().describe(`${what} id`) });
const bearer = [{ playerToken: [] }];
const botKey = [{ botKey: [] }];
/** Operations a bot key may make: as the bot's profile; without it, as a guest or the `player` named. */
const asBot = [{}, ...botKey];

const ops: RouteConfig[] = [
  // games
  {
    method: "post",
    path: "/games",
    tags: ["games"],
    operationId: "createGame",
    security: asBot,
    request: { body: { content: { "application/json": { schema: CreateGameBody, example: { opponent: "house", level: "easy", name: "Ann" } } } } },
    responses: { 201: json(R.CreatedGame, "created"), ...problems(400, 401) },
  },
  {
    method: "get",
    path: "/games",
    tags: ["games"],
    operationId: "listGames",
    request: { query: ListGamesQuery },
    responses: { 200: json(R.GameList), ...problems(400) },
  },
  {
    method: "post",
    path: "/games/join",
    tags: ["games"],
    operationId: "joinGame",
    security: asBot,
    request: { body: { content: { "application/json": { schema: JoinGameBody, example: { code: "K7MQ2XWD", name: "Bob" } } } } },
    responses: { 200: json(R.JoinedGame), ...problems(400, 401, 404, 409, 410) },
  },
  {
    method: "get",
    path: "/games/join/{code}",
    tags: ["games"],
    operationId: "getInvite",
    description: "What an invite code opens, without claiming it: whether its seat is still open, and the game's public facts.",
    request: { params: z.object({ code: z.string() }) },
    responses: { 200: json(R.InviteStatus), ...problems(404) },
  },
  {
    method: "post",
    path: "/games/quick-match",
    tags: ["games"],
    operationId: "quickMatch",
    security: asBot,
    request: { body: { content: { "application/json": { schema: QuickMatchBody } } } },
    responses: { 200: json(R.QuickMatchMatched, "matched"), 202: json(R.QuickMatchQueued, "queued: poll the ticket"), ...problems(400, 401) },
  },
  {
    method: "get",
    path: "/games/quick-match/{ticket}",
    tags: ["games"],
    operationId: "pollQuickMatch",
    request: { params: z.object({ ticket: z.string() }), query: TicketQuery },
    responses: { 200: json(R.QuickMatchMatched, "matched"), 202: json(R.QuickMatchQueued, "still queued"), ...problems(400, 404, 409) },
  },
  {
    method: "delete",
    path: "/games/quick-match/{ticket}",
    tags: ["games"],
    operationId: "leaveQuickMatch",
    request: { params: z.object({ ticket: z.string() }) },
    responses: { 200: json(R.QuickMatchLeft), ...problems(404, 409) },
  },
  {
    method: "get",
    path: "/games/{id}",
    tags: ["games"],
    operationId: "getGame",
    request: { params: id("game") },
    responses: { 200: json(R.GameRecord), ...problems(404) },
  },
  {
    method: "get",
    path: "/games/{id}/sync",
    tags: ["games"],
    operationId: "syncGame",
    security: [{}, ...bearer],
    request: { params: id("game"), query: SyncQuery },
    responses: { 200: json(R.Sync), ...problems(400, 401, 404) },
  },
  {
    method: "post",
    path: "/games/{id}/moves",
    tags: ["games"],
    operationId: "playMove",
    security: bearer,
    request: { params: id("game"), body: { content: { "application/json": { schema: MoveBody, example: { move: "E7@b3" } } } } },
    responses: { 200: json(R.MovePlayed), ...problems(400, 401, 404, 409, 422, 503) },
  },
  {
    method: "post",
    path: "/games/{id}/resign",
    tags: ["games"],
    operationId: "resign",
    security: bearer,
    request: { params: id("game") },
    responses: { 200: json(R.GameRecord, "the finished game"), ...problems(401, 404, 409) },
  },
  {
    method: "post",
    path: "/games/{id}/rematch",
    tags: ["games"],
    operationId: "offerRematch",
    security: bearer,
    request: { params: id("game") },
    responses: { 200: json(R.RematchAnswer), ...problems(401, 403, 404, 409, 503) },
  },
  {
    method: "delete",
    path: "/games/{id}/rematch",
    tags: ["games"],
    operationId: "declineRematch",
    security: bearer,
    request: { params: id("game") },
    responses: { 200: json(R.RematchAnswer), ...problems(401, 403, 404, 409, 503) },
  },
  {
    method: "get",
    path: "/games/{id}/replay",
    tags: ["replays"],
    operationId: "getReplay",
    request: { params: id("game") },
    responses: { 200: json(R.Replay), ...problems(404, 409) },
  },
  {
    method: "get",
    path: "/games/{id}/review",
    tags: ["replays"],
    operationId: "getReview",
    request: { params: id("game") },
    responses: { 200: json(R.Review), ...problems(404, 409) },
  },
  {
    method: "get",
    path: "/game/{id}",
    tags: ["games"],
    operationId: "getGameDeprecated",
    deprecated: true,
    request: { params: id("game") },
    responses: { 308: { description: "moved to /games/{id}", content: { "text/plain": { schema: z.string() } } }, ...problems() },
  },
  // players and leaderboards
  {
    method: "get",
    path: "/players/{id}",
    tags: ["players"],
    operationId: "getPlayer",
    request: { params: id("player") },
    responses: { 200: json(R.Profile), ...problems(404) },
  },
  {
    method: "post",
    path: "/players/{id}/claim",
    tags: ["players"],
    operationId: "claimPlayer",
    request: { params: id("player"), body: { content: { "application/json": { schema: ClaimBody } } } },
    responses: { 201: json(R.Claimed, "claimed"), ...problems(400, 401, 404, 409) },
  },
  {
    method: "get",
    path: "/players/{id}/games",
    tags: ["players"],
    operationId: "listPlayerGames",
    description: "A player's public games, newest first, paged with nextCursor: the list's public fields, the player's seat and result.",
    request: { params: id("player"), query: PlayerGamesQuery },
    responses: { 200: json(R.PlayerGames), ...problems(400, 404) },
  },
  {
    method: "get",
    path: "/players/{id}/ratings",
    tags: ["players"],
    operationId: "getRatingHistory",
    request: { params: id("player"), query: RatingHistoryQuery },
    responses: { 200: json(R.RatingHistory), ...problems(400, 404) },
  },
  {
    method: "get",
    path: "/players",
    tags: ["players"],
    operationId: "playerLeaderboard",
    description: "Players ranked by rating: people (provisional ratings marked) apart from the house opponent's levels (bots).",
    request: { query: PageQuery },
    responses: { 200: json(R.PlayerLeaderboard), ...problems(400) },
  },
  {
    method: "get",
    path: "/clubs",
    tags: ["players"],
    operationId: "listClubs",
    request: { query: PageQuery },
    responses: { 200: json(R.ClubList), ...problems(400) },
  },
  {
    method: "get",
    path: "/clubs/{id}",
    tags: ["players"],
    operationId: "getClub",
    request: { params: id("club"), query: PageQuery },
    responses: { 200: json(R.Leaderboard), ...problems(400, 404) },
  },
  {
    method: "get",
    path: "/communities",
    tags: ["players"],
    operationId: "listCommunities",
    request: { query: PageQuery },
    responses: { 200: json(R.CommunityList), ...problems(400) },
  },
  {
    method: "get",
    path: "/communities/{id}",
    tags: ["players"],
    operationId: "getCommunity",
    request: { params: id("community"), query: PageQuery },
    responses: { 200: json(R.Leaderboard), ...problems(400, 404) },
  },
  // events
  { method: "get", path: "/games/events", tags: ["events"], operationId: "listEvents", responses: { 200: json(R.EventCatalog), ...problems() } },
  {
    method: "post",
    path: "/games/events/subscribe",
    tags: ["events"],
    operationId: "subscribe",
    request: { body: { content: { "application/json": { schema: SubscribeBody } } } },
    responses: { 201: json(R.Subscribed, "subscribed"), ...problems(400, 401, 404, 422) },
  },
  {
    method: "post",
    path: "/games/events/unsubscribe",
    tags: ["events"],
    operationId: "unsubscribe",
    request: { body: { content: { "application/json": { schema: UnsubscribeBody } } } },
    responses: { 200: json(R.Unsubscribed), ...problems(400, 401) },
  },
  // agent challenges
  {
    method: "post",
    path: "/agent/challenge",
    tags: ["challenges"],
    operationId: "createChallenge",
    security: asBot,
    request: { body: { content: { "application/json": { schema: CreateChallengeBody, example: { agent: { name: "my-agent" }, level: "normal" } } } } },
    responses: { 201: json(R.ChallengeCreated, "created"), ...problems(400, 401) },
  },
  {
    method: "post",
    path: "/agent/challenge/{token}/accept",
    tags: ["challenges"],
    operationId: "acceptChallenge",
    request: { params: z.object({ token: z.string() }), body: { content: { "application/json": { schema: AcceptChallengeBody } } } },
    responses: { 200: json(R.ChallengeAccepted), ...problems(400, 401, 404, 409, 410) },
  },
  {
    method: "get",
    path: "/agent/challenge/{token}",
    tags: ["challenges"],
    operationId: "getChallenge",
    request: { params: z.object({ token: z.string() }) },
    responses: { 200: json(R.Challenge), ...problems(404) },
  },
  {
    method: "get",
    path: "/agent/challenges",
    tags: ["challenges"],
    operationId: "listChallenges",
    request: { query: HistoryQuery },
    responses: { 200: json(R.ChallengeHistory), ...problems(400) },
  },
  {
    method: "post",
    path: "/agent/result",
    tags: ["challenges"],
    operationId: "reportResult",
    request: { body: { content: { "application/json": { schema: ResultBody } } } },
    responses: { 200: json(R.Challenge), ...problems(400, 404, 409, 410, 422) },
  },
  // client assets
  {
    method: "get",
    path: "/clients/manifest",
    tags: ["clients"],
    operationId: "getClientManifest",
    responses: { 200: json(R.Manifest), 304: { description: "not modified (If-None-Match)" }, ...problems() },
  },
  {
    method: "get",
    path: "/clients/assets/{path}",
    tags: ["clients"],
    operationId: "getClientAsset",
    request: { params: z.object({ path: z.string() }) },
    responses: {
      200: { description: "the asset, with its own content type", content: { "*/*": { schema: z.string().describe("bytes") } } },
      304: { description: "not modified" },
      ...problems(404),
    },
  },
  // bot accounts
  {
    method: "post",
    path: "/bots",
    tags: ["bots"],
    operationId: "registerBot",
    request: { body: { content: { "application/json": { schema: RegisterBotBody, example: { name: "Greedy bot", owner: "you@example.org" } } } } },
    responses: { 201: json(R.BotRegistered, "registered: the key is in this answer only"), ...problems(400) },
  },
  {
    method: "get",
    path: "/bots",
    tags: ["bots"],
    operationId: "listBots",
    request: { query: ListBotsQuery },
    responses: { 200: json(R.BotDirectory), ...problems(400) },
  },
  { method: "get", path: "/bots/me", tags: ["bots"], operationId: "getMyBot", security: botKey, responses: { 200: json(R.Bot), ...problems(401) } },
  {
    method: "delete",
    path: "/bots/me",
    tags: ["bots"],
    operationId: "revokeBotKey",
    security: botKey,
    responses: { 200: json(R.BotRevoked), ...problems(401) },
  },
  {
    method: "get",
    path: "/bots/{id}",
    tags: ["bots"],
    operationId: "getBot",
    request: { params: id("bot") },
    responses: { 200: json(R.Bot), ...problems(404) },
  },
  {
    method: "post",
    path: "/bots/{id}/challenge",
    tags: ["bots"],
    operationId: "challengeBot",
    security: botKey,
    request: { params: id("bot"), body: { content: { "application/json": { schema: ChallengeBotBody } } } },
    responses: { 201: json(R.BotChallenged, "challenged: your seat of the new friend game"), ...problems(401, 404, 409) },
  },
  {
    method: "post",
    path: "/bots/challenges/{code}/decline",
    tags: ["bots"],
    operationId: "declineBotChallenge",
    security: botKey,
    request: { params: z.object({ code: z.string().describe("the challenge's invite code, from the `challenge` event") }) },
    responses: { 200: json(R.BotChallengeDeclined, "declined: the challenge's game is aborted"), ...problems(401, 403, 404, 409, 410) },
  },
  // push without a public callback
  {
    method: "get",
    path: "/stream/events",
    tags: ["bots"],
    operationId: "streamBotEvents",
    security: botKey,
    request: { headers: z.object({ "last-event-id": z.string().optional().describe("the id of the last event received: resume after it") }) },
    responses: { 200: ndjson(R.BotEvent, "the bot's events, one JSON object per line; an empty line is a heartbeat"), ...problems(401) },
  },
  {
    method: "get",
    path: "/stream/games/{id}",
    tags: ["games"],
    operationId: "streamGame",
    security: [{}, ...bearer],
    request: { params: id("game") },
    responses: { 200: ndjson(R.GameStreamState, "the game's state after every change, one JSON object per line; ends with the game"), ...problems(401, 404) },
  },
  // the rules as data
  { method: "get", path: "/rules", tags: ["rules"], operationId: "getRules", responses: { 200: json(R.Rules), ...problems() } },
  {
    method: "get",
    path: "/rules/{version}",
    tags: ["rules"],
    operationId: "getRulesVersion",
    // Path values arrive as strings; the document types the version as the integer it is, with its range.
    request: {
      params: z.object({
        version: z
          .string()
          .regex(/^\d{1,2}$/)
          .meta({
            type: "integer",
            minimum: RULES_VERSIONS[0],
            maximum: RULES_VERSIONS.at(-1),
            description: `a rules version, ${RULES_VERSIONS.join(", ")} (${CURRENT_RULES_VERSION} is current)`,
          }),
      }),
    },
    responses: { 200: json(R.RulesVersion), ...problems(404) },
  },
  // the document itself
  {
    method: "get",
    path: "/openapi.json",
    tags: ["meta"],
    operationId: "getOpenApi",
    responses: { 200: json(OpenApiDocument, "this document"), ...problems() },
  },
];

export function buildRegistry(): OpenAPIRegistry {
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", "playerToken", { type: "http", scheme: "bearer", description: "A seat's player token, `pt_...`" });
  registry.registerComponent("securitySchemes", "botKey", {
    type: "http",
    scheme: "bearer",
    description: "A bot's key, `bk_...` (POST /bots): plays as the bot's profile and is rate limited per key",
  });
  // Any body can be too large or not JSON: 413 and 400 are answers of every operation that takes one.
  for (const op of [...ops, ...tournamentOps(problems), ...leagueOps(problems), ...logOps(problems)]) {
    const texts = op.operationId ? OPERATION_TEXTS[op.operationId] : undefined;
    const withTexts = { ...op, ...texts };
    registry.registerPath(op.request?.body ? { ...withTexts, responses: { ...problems(400, 413), ...op.responses } } : withTexts);
  }
  return registry;
}
