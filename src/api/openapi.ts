/**
 * The OpenAPI 3.1 document, generated from the same zod schemas that validate requests, so the document
 * and the validation cannot drift apart.
 */
import { z } from "zod";
import { CreateGameBody, JoinGameBody, MoveBody, QuickMatchBody } from "../games/schemas";
import { ERROR_CODES } from "../errors";
import { extraOpenApiPaths } from "../agents";

const json = (schema: z.ZodType) => z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });

const Problem = {
  type: "object",
  required: ["type", "title", "status", "detail", "error", "code", "hint", "docs"],
  properties: {
    type: { type: "string" },
    title: { type: "string" },
    status: { type: "integer" },
    detail: { type: "string" },
    error: { type: "string" },
    code: { type: "string", enum: Object.keys(ERROR_CODES) },
    hint: { type: "string" },
    docs: { type: "string" },
  },
};

const Replay = {
  type: "object",
  required: ["id", "ruleset", "players", "seed", "firstPlayer", "score", "moveCount", "moves", "winner", "chessTiles", "replayUrl", "decidedBy"],
  properties: {
    id: { type: "string" },
    ruleset: { type: "string", enum: ["mutators", "classic"] },
    players: { type: "object", required: ["A", "B"], properties: { A: { type: "string" }, B: { type: "string" } } },
    seed: { type: "integer" },
    firstPlayer: { type: "string", enum: ["A", "B"] },
    score: { $ref: "#/components/schemas/Score" },
    moveCount: { type: "integer" },
    moves: {
      type: "array",
      items: {
        type: "object",
        required: ["n", "seat", "name", "notation", "captures", "score", "board"],
        properties: {
          n: { type: "integer" },
          seat: { type: "string", enum: ["A", "B"] },
          name: { type: "string" },
          notation: { type: "string" },
          captures: { type: "integer" },
          score: { $ref: "#/components/schemas/Score" },
          board: { type: "array", items: { type: "object" } },
        },
      },
    },
    winner: { type: ["string", "null"], enum: ["A", "B", "draw", null] },
    chessTiles: { type: "array", items: { type: "object" } },
    replayUrl: { type: "string" },
    decidedBy: { type: "string", enum: ["board_full", "resignation", "timeout", "aborted"] },
  },
};

const Profile = {
  type: "object",
  required: ["player", "clubs"],
  properties: {
    player: {
      type: "object",
      required: ["id", "name", "rating", "rank", "provisional", "games", "winRate", "favoriteChampion", "recentForm", "updatedAt", "url"],
      properties: {
        id: { type: "string" }, name: { type: "string" }, rating: { type: "integer" }, rank: { type: "string" },
        provisional: { type: "boolean" }, games: { type: "integer" }, winRate: { type: "number", minimum: 0, maximum: 1 },
        favoriteChampion: { type: ["object", "null"] }, recentForm: { type: "string", pattern: "^[WLD]*$" },
        updatedAt: { type: "string", format: "date-time" }, url: { type: "string" },
      },
    },
    movedFrom: { type: "string" },
    clubs: { type: "array", items: { type: "object" } },
  },
};

const Sync = {
  type: "object",
  required: ["gameId", "status", "view", "since", "moveCount", "moves", "lastMoveAt", "state"],
  properties: {
    gameId: { type: "string" },
    status: { type: "string", enum: ["waiting", "active", "finished"] },
    view: { type: "string", enum: ["seat", "spectator"] },
    seat: { type: ["string", "null"] },
    since: { type: "integer", minimum: 0 },
    moveCount: { type: "integer" },
    state: { type: ["object", "null"], properties: { hands: { type: "object" }, pile: { type: "integer" }, board: { type: "array" } } },
    moves: { type: "array", items: { type: "object", required: ["index", "n", "seat", "notation", "events", "state"] } },
    lastMoveAt: { type: ["string", "null"] },
    reveal: { type: "object", required: ["seed", "salt", "commitment"] },
    replayUrl: { type: "string" },
  },
};

const problemResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [String(s), { description: "problem", content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } } }]));

const ok = (schema: object, status = "200") => ({ [status]: { description: "OK", content: { "application/json": { schema } } } });
const body = (schema: z.ZodType) => ({ required: true, content: { "application/json": { schema: json(schema) } } });
const idParam = { name: "id", in: "path", required: true, schema: { type: "string" } };
const bearer = [{ playerToken: [] }];

export function openApiDocument(baseUrl: string) {
  return {
    openapi: "3.1.0",
    info: { title: "Tile Arena API", version: "1.0.0", description: "Two-seat tile-and-card game arena: games, sync, replays, players, events." },
    servers: [{ url: `${baseUrl}/api/v1` }, { url: `${baseUrl}/api` }],
    components: {
      securitySchemes: { playerToken: { type: "http", scheme: "bearer", description: "A seat's player token, `pt_...`" } },
      schemas: { Problem, Replay, Profile, Sync, Score: { type: "object", required: ["A", "B"], properties: { A: { type: "integer" }, B: { type: "integer" } } } },
    },
    paths: {
      "/games": {
        post: { tags: ["games"], operationId: "createGame", requestBody: body(CreateGameBody), responses: { ...ok({ type: "object" }, "201"), ...problemResponses(400, 401, 429) } },
        get: { tags: ["games"], operationId: "listGames", responses: { ...ok({ type: "object", required: ["games", "nextCursor"] }), ...problemResponses(400, 429) } },
      },
      "/games/join": { post: { tags: ["games"], operationId: "joinGame", requestBody: body(JoinGameBody), responses: { ...ok({ type: "object" }), ...problemResponses(400, 401, 404, 409, 410, 429) } } },
      "/games/quick-match": {
        post: { tags: ["games"], operationId: "quickMatch", requestBody: body(QuickMatchBody), responses: { ...ok({ type: "object" }), ...ok({ type: "object", required: ["status", "ticket"] }, "202"), ...problemResponses(400, 401, 429) } },
      },
      "/games/quick-match/{ticket}": {
        get: { tags: ["games"], operationId: "pollQuickMatch", parameters: [{ name: "ticket", in: "path", required: true, schema: { type: "string" } }, { name: "timeout", in: "query", schema: { type: "integer", minimum: 0, maximum: 20 } }], responses: { ...ok({ type: "object" }), ...problemResponses(400, 404, 429) } },
        delete: { tags: ["games"], operationId: "leaveQuickMatch", parameters: [{ name: "ticket", in: "path", required: true, schema: { type: "string" } }], responses: { ...ok({ type: "object" }), ...problemResponses(404, 409, 429) } },
      },
      "/games/{id}": { get: { tags: ["games"], operationId: "getGame", parameters: [idParam], responses: { ...ok({ type: "object", required: ["id", "status", "players", "board", "score"] }), ...problemResponses(404, 429) } } },
      "/games/{id}/sync": {
        get: {
          tags: ["games"], operationId: "syncGame", security: [{}, ...bearer],
          parameters: [idParam, { name: "since", in: "query", schema: { type: "integer", minimum: 0 }, description: "move index" }, { name: "timeout", in: "query", schema: { type: "integer", minimum: 0, maximum: 20 }, description: "seconds to wait for a change" }],
          responses: { ...ok({ $ref: "#/components/schemas/Sync" }), ...problemResponses(400, 401, 404, 429) },
        },
      },
      "/games/{id}/moves": { post: { tags: ["games"], operationId: "playMove", security: bearer, parameters: [idParam], requestBody: body(MoveBody), responses: { ...ok({ type: "object", required: ["move", "view"] }), ...problemResponses(400, 401, 404, 409, 422, 429) } } },
      "/games/{id}/resign": { post: { tags: ["games"], operationId: "resign", security: bearer, parameters: [idParam], responses: { ...ok({ type: "object" }), ...problemResponses(401, 404, 409, 429) } } },
      "/games/{id}/replay": { get: { tags: ["replays"], operationId: "getReplay", parameters: [idParam], responses: { ...ok({ $ref: "#/components/schemas/Replay" }), ...problemResponses(404, 409, 429) } } },
      "/games/{id}/review": { get: { tags: ["replays"], operationId: "getReview", parameters: [idParam], responses: { ...ok({ type: "object", required: ["moves", "summary"] }), ...problemResponses(404, 409, 429) } } },
      "/players/{id}": { get: { tags: ["players"], operationId: "getPlayer", parameters: [idParam], responses: { ...ok({ $ref: "#/components/schemas/Profile" }), ...problemResponses(404, 429) } } },
      "/games/events": { get: { tags: ["events"], operationId: "listEvents", responses: { ...ok({ type: "object", required: ["events"] }), ...problemResponses(429) } } },
      "/games/events/subscribe": { post: { tags: ["events"], operationId: "subscribe", responses: { ...ok({ type: "object", required: ["id", "refreshBefore", "cursor", "truncated"] }, "201"), ...problemResponses(400, 401, 404, 422, 429) } } },
      ...extraOpenApiPaths(),
      "/games/events/unsubscribe": { post: { tags: ["events"], operationId: "unsubscribe", responses: { ...ok({ type: "object" }), ...problemResponses(400, 429) } } },
    },
  };
}
