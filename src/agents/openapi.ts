/**
 * OpenAPI paths of the operations this change adds (agent challenges, result reports, profile claim,
 * leaderboards, client assets), kept beside their routes so the document cannot drift from the schemas;
 * src/api/openapi.ts spreads them into `paths`.
 */
import { z } from "zod";
import { ClaimBody } from "../api/routes/players";
import { AcceptChallengeBody, CreateChallengeBody, ResultBody } from "./schemas";

const problems = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [String(s), { description: "problem", content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } } }]));
const ok = (schema: object, status = "200") => ({ [status]: { description: "OK", content: { "application/json": { schema } } } });
const body = (schema: z.ZodType) => ({ required: true, content: { "application/json": { schema: z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) } } });
const path = (name: string) => ({ name, in: "path", required: true, schema: { type: "string" } });
const query = (name: string, schema: object, required = false) => ({ name, in: "query", required, schema });
const page = [query("limit", { type: "integer", minimum: 1, maximum: 100, default: 20 }), query("offset", { type: "integer", minimum: 0, default: 0 })];

const Challenge = {
  type: "object",
  required: ["token", "status", "agent", "level", "ruleset", "url", "expiresAt", "gameId", "result", "human", "replayUrl"],
  properties: {
    token: { type: "string" },
    status: { type: "string", enum: ["open", "playing", "played", "expired"] },
    result: { type: ["object", "null"], required: ["winner", "score", "humanSeat", "verified", "reported"] },
    human: { type: ["object", "null"], description: "the human's public profile, rating included" },
    replayUrl: { type: ["string", "null"] },
  },
};

/** A challenge in an agent's public history: no token, no link, no game until it is played. */
const ChallengeSummary = {
  type: "object",
  required: ["status", "agent", "level", "ruleset", "createdAt", "expiresAt", "result", "human", "replayUrl"],
  properties: {
    status: Challenge.properties.status,
    agent: { type: "object" },
    level: { type: "string" },
    ruleset: { type: "string" },
    createdAt: { type: "string" },
    expiresAt: { type: "string" },
    result: Challenge.properties.result,
    human: Challenge.properties.human,
    replayUrl: Challenge.properties.replayUrl,
  },
  additionalProperties: false,
};

const leaderboard = (kind: "club" | "community", tag: string) => ({
  get: { tags: [tag], operationId: `get${kind === "club" ? "Club" : "Community"}`, parameters: [path("id"), ...page], responses: { ...ok({ type: "object", required: ["id", "name", "total", "standings"] }), ...problems(400, 404, 429) } },
});

export function extraOpenApiPaths() {
  return {
    "/agent/challenge": {
      post: { tags: ["challenges"], operationId: "createChallenge", description: "30 per minute per IP.", requestBody: body(CreateChallengeBody), responses: { ...ok({ type: "object", required: ["token", "url", "expiresAt", "status"] }, "201"), ...problems(400, 429) } },
    },
    "/agent/challenge/{token}/accept": {
      post: { tags: ["challenges"], operationId: "acceptChallenge", parameters: [path("token")], requestBody: body(AcceptChallengeBody), responses: { ...ok({ type: "object", required: ["game", "seat", "playerToken", "player"] }), ...problems(400, 401, 404, 409, 410, 429) } },
    },
    "/agent/challenge/{token}": { get: { tags: ["agents"], operationId: "getChallenge", parameters: [path("token")], responses: { ...ok(Challenge), ...problems(404, 429) } } },
    "/agent/challenges": {
      get: { tags: ["agents"], operationId: "listChallenges", parameters: [query("agent", { type: "string" }, true), query("limit", { type: "integer", minimum: 1, maximum: 100 })], responses: { ...ok({ type: "object", required: ["agent", "challenges"], properties: { challenges: { type: "array", items: ChallengeSummary } } }), ...problems(400, 429) } },
    },
    "/agent/result": {
      post: { tags: ["results"], operationId: "reportResult", description: "Sent by game clients; checked against the service's record. 60 per minute per IP.", requestBody: body(ResultBody), responses: { ...ok(Challenge), ...problems(400, 404, 409, 410, 422, 429) } },
    },
    "/players/{id}/claim": {
      post: { tags: ["players"], operationId: "claimPlayer", description: "Moves a guest profile to a new account; the account's secret is answered once.", parameters: [path("id")], requestBody: body(ClaimBody), responses: { ...ok({ type: "object", required: ["account", "movedFrom", "player"] }, "201"), ...problems(400, 401, 404, 409, 429) } },
    },
    "/clubs": { get: { tags: ["players"], operationId: "listClubs", parameters: page, responses: { ...ok({ type: "object", required: ["clubs", "total"] }), ...problems(400, 429) } } },
    "/clubs/{id}": leaderboard("club", "players"),
    "/communities": { get: { tags: ["players"], operationId: "listCommunities", parameters: page, responses: { ...ok({ type: "object", required: ["communities", "total"] }), ...problems(400, 429) } } },
    "/communities/{id}": leaderboard("community", "players"),
    "/clients/manifest": {
      get: { tags: ["clients"], operationId: "getClientManifest", responses: { ...ok({ type: "object", required: ["assets"], properties: { assets: { type: "array", items: { type: "object", required: ["path", "type", "bytes", "sha256", "url"] } } } }), "304": { description: "Not modified" }, ...problems(429) } },
    },
    "/clients/assets/{path}": {
      get: { tags: ["clients"], operationId: "getClientAsset", description: "Strong ETag (quoted sha256), immutable for a year; If-None-Match gives 304.", parameters: [path("path")], responses: { "200": { description: "the asset" }, "304": { description: "Not modified" }, ...problems(404, 429) } },
    },
  };
}
