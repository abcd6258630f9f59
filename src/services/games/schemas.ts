/**
 * Request schemas of the game operations (zod). They validate at the boundary (REST, MCP, WebSocket) and
 * feed the OpenAPI document.
 */
import { z } from "zod";
import { DEFAULTS } from "../../shared/config";
import { nameSchema, queryInt } from "../../shared/validation";

export const RulesetSchema = z.enum(["classic", "mutators"]);
export const LevelSchema = z.enum(["easy", "normal", "hard"]);
export const ChampionSchema = z.enum(["knight", "bastion", "usurper", "herald", "tidecaller", "reaver"]);
export const NameSchema = nameSchema(40);
export const PlayerRefSchema = z.object({ id: z.string().min(1).max(40), secret: z.string().min(8).max(200) }).strict();

/** Asks for the new seat's WebSocket seat reservation in the answer (a WebSocket client's shortcut). */
const ReserveSeat = z
  .boolean()
  .default(false)
  .describe(
    "true: the answer also carries `seatReservation`, for `client.consumeSeatReservation(...)` of a Colyseus SDK, instead of `joinById`'s own matchmaking request; it lapses if unused within 15 s",
  );

export const CreateGameBody = z
  .object({
    opponent: z.enum(["house", "friend", "hosted"]),
    ruleset: RulesetSchema.default("classic"),
    level: LevelSchema.default("normal"),
    name: NameSchema.optional(),
    player: PlayerRefSchema.optional(),
    champion: ChampionSchema.optional(),
    turnSeconds: z.number().int().min(10).max(86400).default(DEFAULTS.turnSeconds),
    public: z
      .boolean()
      .default(true)
      .describe("false: a private game, casual (unrated) and readable by its two seats alone; never in the public log, its exports or the public lists"),
    seat: z.enum(["A", "B", "random"]).default("A"),
    reserveSeat: ReserveSeat,
  })
  .strict();
export type CreateGameBody = z.infer<typeof CreateGameBody>;

export const JoinGameBody = z
  .object({
    code: z.string().trim().min(4).max(32),
    name: NameSchema.optional(),
    player: PlayerRefSchema.optional(),
    champion: ChampionSchema.optional(),
    reserveSeat: ReserveSeat,
  })
  .strict();
export type JoinGameBody = z.infer<typeof JoinGameBody>;

export const QuickMatchBody = z
  .object({
    ruleset: RulesetSchema.default("classic"),
    name: NameSchema.optional(),
    player: PlayerRefSchema.optional(),
    champion: ChampionSchema.optional(),
    wait: z.number().int().min(0).max(20).default(0),
    reserveSeat: ReserveSeat,
  })
  .strict();
export type QuickMatchBody = z.infer<typeof QuickMatchBody>;

export const MoveBody = z.union([
  z.object({ move: z.string().trim().min(1).max(32) }).strict(),
  z
    .object({
      card: z.string().trim().min(1).max(8),
      square: z
        .string()
        .trim()
        .regex(/^[a-dA-D][1-4]$/),
    })
    .strict(),
]);
export type MoveBody = z.infer<typeof MoveBody>;

const since = queryInt(0, undefined, 0).describe("moves already seen: pass the last answer's `moveCount` (0 for everything)");
const timeout = queryInt(0, 20, 0).describe("seconds to wait for something new (0: answer at once)");
export const SyncQuery = z.object({ since, timeout }).strict();
export const TicketQuery = z.object({ timeout }).strict();
/** A player's games: paged like the list, with no status filter. */
export const PlayerGamesQuery = z
  .object({
    limit: queryInt(0, 100, 20),
    cursor: z.string().max(200).optional(),
  })
  .strict();
export const ListGamesQuery = z
  .object({
    status: z.enum(["waiting", "active", "finished"]).optional(),
    limit: queryInt(0, 100, 20),
    cursor: z.string().max(200).optional(),
  })
  .strict();
