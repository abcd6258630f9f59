/** Request schemas of the tournaments API (zod; also the OpenAPI document's source). */
import { z } from "zod";
import { nameSchema, queryInt } from "../../shared/validation";
import { NameSchema, PlayerRefSchema, RulesetSchema } from "../games/schemas";

const TournamentName = nameSchema(60);
const MaxEntrants = z
  .number()
  .int()
  .min(2)
  .max(10000)
  .optional()
  .describe("most entrants this tournament accepts; at most the server's TOURNAMENT_MAX_ENTRANTS, which is the default");

/** A swiss of `rounds` rounds; `format` may be left out. */
export const CreateSwissBody = z
  .object({
    name: TournamentName,
    format: z.literal("swiss").default("swiss"),
    rounds: z.number().int().min(1).max(20),
    ruleset: RulesetSchema.default("classic"),
    maxEntrants: MaxEntrants,
  })
  .strict();

/** An arena of `minutes` minutes: entrants play game after game until the time is up. */
export const CreateArenaBody = z
  .object({
    name: TournamentName,
    format: z.literal("arena"),
    minutes: z.number().int().min(1).max(720).describe("how long pairings are made, from the start (1-720)"),
    ruleset: RulesetSchema.default("classic"),
    maxEntrants: MaxEntrants,
  })
  .strict();

export type CreateArenaBody = z.output<typeof CreateArenaBody>;

export const CreateTournamentBody = z.discriminatedUnion("format", [CreateSwissBody, CreateArenaBody]);
export type CreateTournamentBody = z.output<typeof CreateTournamentBody>;

export const JoinTournamentBody = z
  .object({
    name: NameSchema.optional(),
    player: PlayerRefSchema.optional(),
  })
  .strict();
export type JoinTournamentBody = z.output<typeof JoinTournamentBody>;

export const ListTournamentsQuery = z.object({ limit: queryInt(1, 100, 20) }).strict();

export const TournamentId = /^t_[A-Za-z0-9_-]{8,20}$/;
