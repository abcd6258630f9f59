/** GET /rules and /rules/{version}: the rules as data, read from the engine (src/engine/rules-data.ts). */
import { Router } from "express";
import { z } from "zod";
import { AppError } from "../../../shared/errors";
import { allRulesData, CURRENT_RULES_VERSION, isRulesVersion, rulesData, RULES_VERSIONS } from "../../../engine";
import * as R from "../openapi/responses";
import { json, problems } from "../openapi/parts";
import { reply } from "../reply";
import { mountRoutes, route, type Route } from "../route";

// The rules of a version never change, so the bodies are built once.
type Rules = ReturnType<typeof allRulesData>;

export const rulesRoutes: Route<Rules>[] = [
  route({
    method: "get",
    path: "/rules",
    operationId: "getRules",
    tags: ["rules"],
    summary: "Read the rules as data",
    description:
      "Every rules version: board orientation (which way `n/e/s/w` face), hand sizes, capture kinds, chess tiles, mutators, champions and cards. Derived from the engine, so it is the rules games are played by.",
    responses: { 200: json(R.Rules), ...problems() },
    handler: ({ res }, all) => {
      reply(res.set("Cache-Control", "public, max-age=3600"), 200, R.Rules, all);
    },
  }),
  route({
    method: "get",
    path: "/rules/:version",
    operationId: "getRulesVersion",
    tags: ["rules"],
    summary: "Read one rules version as data",
    description: "The rules of one version (games report theirs as `rulesVersion`).",
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
    handler: ({ req, res }, all) => {
      const v = Number(req.params.version);
      if (!/^\d{1,2}$/.test(String(req.params.version)) || !isRulesVersion(v)) {
        throw new AppError(
          "not_found",
          `no rules version ${String(req.params.version).slice(0, 12)}: versions are ${all.versions.map((x) => x.version).join(", ")}`,
        );
      }
      reply(res.set("Cache-Control", "public, max-age=3600"), 200, R.RulesVersion, rulesData(v));
    },
  }),
];

export const rulesRouter = (): Router => mountRoutes(Router(), rulesRoutes, allRulesData());
