/**
 * The OpenAPI 3.1 document, generated from the zod schemas that validate requests and describe responses
 * (./paths.ts), so the document and the server cannot drift apart unnoticed.
 */
import { OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { buildRegistry } from "./paths";

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
