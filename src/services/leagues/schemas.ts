/** Request schemas of the leagues API (zod; also the OpenAPI document's and the MCP tools' source). */
import { z } from "zod";
import { nameSchema, queryInt } from "../../shared/validation";
import { RulesetSchema } from "../games/schemas";

/**
 * Most entrants of one league. The schedule is one stored document holding every deal (a pair's deals times
 * the pairs: 16 entrants and 50 deals make 6,000 deals, 12,000 games, 1.2 MB), written once at the start.
 */
export const LEAGUE_MAX_ENTRANTS = 16;

export const CreateLeagueBody = z
  .object({
    name: nameSchema(60),
    ruleset: RulesetSchema.default("classic"),
    deals: z.number().int().min(1).max(50).describe("seeded deals each pair plays, two games each (one from each seat)"),
    parallel: z.number().int().min(1).max(4).default(1).describe("deals an entrant plays at once, two games each"),
    turnSeconds: z.number().int().min(10).max(600).default(60).describe("each game's turn clock"),
  })
  .strict();
export type CreateLeagueBody = z.output<typeof CreateLeagueBody>;

export const ListLeaguesQuery = z.object({ limit: queryInt(1, 100, 20) }).strict();

export const LeagueId = /^l_[A-Za-z0-9_-]{8,20}$/;
