/**
 * The OpenAPI 3.1 document, generated from the declarations the routes are served from (../route.ts,
 * ../routes/*.ts): the zod schemas that validate requests and describe answers, so the document and the
 * server cannot drift apart unnoticed.
 */
import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { reply } from "../reply";
import { route, routeConfig, type Route } from "../route";
import { agentRoutes } from "../routes/agents";
import { assetRoutes } from "../routes/assets";
import { botRoutes } from "../routes/bots";
import { communityRoutes } from "../routes/communities";
import { eventRoutes } from "../routes/events";
import { gameRoutes } from "../routes/games";
import { leagueRoutes } from "../routes/leagues";
import { logRoutes } from "../routes/log";
import { playerRoutes } from "../routes/players";
import { rulesRoutes } from "../routes/rules";
import { streamRoutes } from "../routes/streams";
import { tournamentRoutes } from "../routes/tournaments";
import { json, problems } from "./parts";

/** What GET /openapi.json answers: this document. */
export const OpenApiDocument = z.looseObject({ openapi: z.string() });

export const metaRoutes: Route<{ baseUrl: string }>[] = [
  route({
    method: "get",
    path: "/openapi.json",
    operationId: "getOpenApi",
    tags: ["meta"],
    summary: "Read this OpenAPI document",
    description: "The OpenAPI 3.1 document of this API, generated from the schemas that validate its requests.",
    responses: { 200: json(OpenApiDocument, "this document"), ...problems() },
    handler: ({ res }, d) => {
      reply(res, 200, OpenApiDocument, openApiDocument(d.baseUrl));
    },
  }),
];

/** Every operation, in the document's order (which the generated client types follow too). */
export const API_ROUTES: readonly Route<never>[] = [
  ...gameRoutes,
  ...playerRoutes,
  ...communityRoutes,
  ...eventRoutes,
  ...agentRoutes,
  ...assetRoutes,
  ...botRoutes,
  ...streamRoutes,
  ...rulesRoutes,
  ...metaRoutes,
  ...tournamentRoutes,
  ...leagueRoutes,
  ...logRoutes,
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
  for (const r of API_ROUTES) {
    const op = routeConfig(r);
    registry.registerPath(op.request?.body ? { ...op, responses: { ...problems(400, 413), ...op.responses } } : op);
  }
  return registry;
}

let cached: ReturnType<OpenApiGeneratorV31["generateDocument"]> | undefined;

export function openApiDocument(baseUrl: string) {
  // Generating walks every schema; the result only differs by the servers.
  cached ??= new OpenApiGeneratorV31(buildRegistry().definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Tile Arena API",
      version: "1.0.0",
      description: "Two-seat tile-and-card game arena: games, sync, replays, players, events, agent challenges, bots. Problem codes: /docs/errors.",
    },
    // Anonymous by default; operations that take a player token or a bot key say so themselves.
    security: [{}],
  });
  return { ...cached, servers: [{ url: `${baseUrl}/api/v1` }, { url: `${baseUrl}/api` }] };
}
