/** Request schemas of the agent-challenge operations (zod), validated at the REST boundary. */
import { z } from "zod";
import { LevelSchema, NameSchema, PlayerRefSchema, RulesetSchema } from "../games/schemas";
import { queryInt } from "../../shared/validation";

/** Agent names key the history, so they are kept to a URL-safe, log-safe alphabet. */
export const AgentNameSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9._ -]{1,64}$/, "1-64 letters, digits, space, dot, dash or underscore");
export const ChallengeToken = /^ch_[A-Za-z0-9_-]{16,64}$/;

/** Default and longest lifetime of an unaccepted challenge: a day, and a week. */
export const DEFAULT_EXPIRY_S = 24 * 3600;
export const MAX_EXPIRY_S = 7 * 24 * 3600;

export const CreateChallengeBody = z
  .object({
    agent: z
      .object({
        name: AgentNameSchema,
        url: z
          .url({ protocol: /^https?$/ })
          .max(500)
          .optional(),
      })
      .strict(),
    level: LevelSchema.default("normal"),
    ruleset: RulesetSchema.default("classic"),
    expiresInSeconds: z.number().int().min(1).max(MAX_EXPIRY_S).default(DEFAULT_EXPIRY_S),
    opponent: z
      .enum(["house", "bot"])
      .default("house")
      .describe("who plays the human: `house` (the house AI at `level`) or `bot` (your own bot: send its key, it is told of the game on its event stream)"),
  })
  .strict();
export type CreateChallengeBody = z.infer<typeof CreateChallengeBody>;

export const AcceptChallengeBody = z.object({ name: NameSchema.optional(), player: PlayerRefSchema.optional() }).strict();
export type AcceptChallengeBody = z.infer<typeof AcceptChallengeBody>;

const seatScore = z.number().int().min(0).max(100);

export const ResultBody = z
  .object({
    token: z.string().min(1).max(100),
    gameId: z.string().min(1).max(64),
    winner: z.enum(["A", "B", "draw"]).nullable(),
    score: z.object({ A: seatScore, B: seatScore }).strict(),
  })
  .strict();
export type ResultBody = z.infer<typeof ResultBody>;

export const HistoryQuery = z
  .object({
    agent: AgentNameSchema,
    limit: queryInt(1, 100, 20),
  })
  .strict();
