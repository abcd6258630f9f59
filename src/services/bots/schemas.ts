/** Request schemas of the bots context: registering a bot, one bot challenging another, the directory's page. */
import { z } from "zod";
import { DEFAULTS } from "../../shared/config";
import { NameSchema } from "../games/schemas";
import { queryInt } from "../../shared/validation";

export const RegisterBotBody = z
  .object({
    name: NameSchema.describe("the bot's name, shown on boards and leaderboards"),
    owner: z.string().trim().min(1).max(200).optional().describe("how to reach the bot's owner (an email address or a URL); never shown"),
    description: z.string().trim().min(1).max(280).optional().describe("what the bot is, in its owner's words: shown on its profile and in the bot directory"),
  })
  .strict();

export const ChallengeBotBody = z
  .object({
    ruleset: z.enum(["classic", "mutators"]).default("classic"),
    turnSeconds: z.number().int().min(10).max(86400).default(DEFAULTS.turnSeconds),
  })
  .strict();

export const ListBotsQuery = z.object({ limit: queryInt(1, 100, 20), offset: queryInt(0, 100_000, 0) }).strict();
