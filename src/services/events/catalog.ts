/**
 * The event catalog: the five events, the arguments a subscription names them with, and the shape of each
 * delivery's `data`. The zod schemas are the single source: subscribe bodies are validated with the argument
 * schemas and `GET /games/events` publishes JSON Schema generated from both.
 */
import { z } from "zod";

export const EVENT_NAMES = [
  "game.turn",
  "game.started",
  "game.move",
  "game.finished",
  "challenge.played",
  "tournament.started",
  "tournament.paired",
  "tournament.finished",
  "league.finished",
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

export const SeatSchema = z.enum(["A", "B"]).describe("seat, A or B");
const seat = SeatSchema;
export const WinnerSchema = z.enum(["A", "B", "draw"]).nullable().describe("A, B, draw, or null while undecided or when aborted");
export const ScoreSchema = z.object({ A: z.number().int(), B: z.number().int() }).describe("points of each seat");
export const PublicSeatSchema = z
  .object({
    id: z.string().describe("the player's profile id (`house` for the house opponent)"),
    name: z.string(),
    kind: z.enum(["human", "house", "bot"]).describe("bot: a registered bot account (its profile id starts with BOT-)"),
    champion: z.string().nullable().describe("the champion in play, or null before it is drawn"),
  })
  .nullable()
  .describe("a seat as anyone may see it; null while nobody holds it");
export const PlayersSchema = z.object({ A: PublicSeatSchema, B: PublicSeatSchema }).describe("the player of each seat");
export const DecidedBySchema = z.enum(["board_full", "resignation", "timeout", "aborted"]).describe("what ended the game");
export const SeatResultSchema = z.enum(["win", "loss", "draw"]).nullable().describe("the result from this seat's side; null for an aborted game");
export const TieRuleSchema = z.enum(["first_mover", "draw"]).nullable().describe("the rule that decided a tied full board; null when the board was not tied");
const gameId = z.string().min(1).max(128).describe("game identifier");
const tournamentId = z.string().min(1).max(64).describe("tournament identifier");
const leagueId = z.string().min(1).max(64).describe("league identifier");
export const GameStatusSchema = z.enum(["waiting", "active", "finished"]);

export const RanksSchema = z.object({ n: z.number().int(), e: z.number().int(), s: z.number().int(), w: z.number().int() });
export const BoardCellSchema = z.object({
  square: z.string(),
  owner: seat,
  card: z.string(),
  name: z.string(),
  element: z.enum(["ember", "tide", "gale", "stone"]),
  ranks: RanksSchema,
});

/** Argument schemas: strict, so a misspelt argument is a bad request instead of a different identity. */
/** A private game's events are its seats' alone: a seat's token is then needed (checked, never stored). */
const seatToken = z.string().min(1).max(256).optional().describe("a seat's player token (pt_...): needed for a private game's events; checked, never stored");

export const ARGUMENT_SCHEMAS = {
  "game.turn": z.strictObject({
    game_id: gameId,
    player_token: z.string().min(1).max(256).describe("the seat's player token (pt_...); checked, never stored"),
  }),
  "game.started": z.strictObject({ game_id: gameId, player_token: seatToken }),
  "game.move": z.strictObject({ game_id: gameId, player_token: seatToken }),
  "game.finished": z.strictObject({ game_id: gameId, player_token: seatToken }),
  "challenge.played": z.strictObject({ token: z.string().min(1).max(256).describe("agent challenge token") }),
  "tournament.started": z.strictObject({ tournament_id: tournamentId }),
  "tournament.paired": z.strictObject({
    tournament_id: tournamentId,
    player_id: z.string().min(1).max(64).describe("the entrant's player id: their own pairings only"),
  }),
  "tournament.finished": z.strictObject({ tournament_id: tournamentId }),
  "league.finished": z.strictObject({ league_id: leagueId }),
} satisfies Record<EventName, z.ZodType>;

/**
 * The `data` of each event. The builders (src/services/games/game-events.ts, the agent challenges) are typed by
 * these schemas, so an event cannot carry a field the catalog does not publish or miss one it promises;
 * receivers should still ignore members they do not know, as later versions may add some.
 */
export const DATA_SCHEMAS = {
  "game.turn": z.object({
    game_id: gameId,
    seat,
    your_turn: z.boolean().describe("true when it became this seat's turn; false once, when the game ended"),
    status: GameStatusSchema.describe("game status: active, or finished on the last game.turn"),
    move_count: z.number().int().min(0),
    last_move: z.string().describe("notation of the last move; empty before the first move"),
    score: ScoreSchema,
    winner: WinnerSchema,
    url: z.string().describe("watch link"),
  }),
  "game.started": z.object({
    game_id: gameId,
    players: PlayersSchema,
    ruleset: z.enum(["classic", "mutators"]),
    first_player: seat,
    url: z.string().describe("watch link"),
  }),
  "game.move": z.object({
    game_id: gameId,
    move_index: z.number().int().min(0).describe("position of the move; sort deliveries by it"),
    n: z.number().int().min(1).describe("move number, move_index + 1"),
    seat,
    notation: z.string(),
    name: z.string().describe("name of the card played"),
    captures: z.number().int().min(0),
    score: ScoreSchema,
    board: z.array(BoardCellSchema).describe("the public board after the move"),
    status: GameStatusSchema.describe("game status after the move"),
  }),
  "game.finished": z.object({
    game_id: gameId,
    winner: WinnerSchema,
    decided_by: DecidedBySchema,
    score: ScoreSchema,
    players: PlayersSchema,
    replay_url: z
      .string()
      .describe("the replay; a game aborted before its first move has none (404); a league game's answers 409 until both games of its deal have finished"),
    replay_page: z.string().describe("the replay page a person opens"),
    move_count: z.number().int().min(0),
    results: z.object({ A: SeatResultSchema, B: SeatResultSchema }).describe("each seat's result from its own side"),
    decision: z
      .object({ by: DecidedBySchema, tied_board: z.boolean(), tie_rule: TieRuleSchema, summary: z.string() })
      .describe("how the game was decided; a tied full board names the tie rule (first mover wins from rules version 2)"),
  }),
  "challenge.played": z.object({
    token: z.string(),
    game_id: gameId,
    winner: WinnerSchema,
    human_seat: seat,
    score: ScoreSchema,
    decided_by: DecidedBySchema,
    human: z.object({ id: z.string(), rating: z.number().int() }).describe("the human's profile id and rating after the game"),
    replay_url: z.string(),
  }),
  "tournament.started": z.object({
    tournament_id: tournamentId,
    rounds: z.number().int().min(0).describe("swiss: the number of rounds; 0 for an arena"),
    entrants: z.number().int().min(2),
    url: z.string().describe("the tournament"),
  }),
  "tournament.paired": z.object({
    tournament_id: tournamentId,
    round: z.number().int().min(1).describe("swiss: the round; arena: the entrant's game number in the arena"),
    player_id: z.string(),
    game_id: gameId.nullable().describe("null when the entrant has this round's bye"),
    seat: seat.nullable().describe("the entrant's seat in the game; null for a bye"),
    first: z.boolean().describe("true when the entrant moves first"),
    opponent_id: z.string().nullable(),
    token: z
      .literal("entrant")
      .describe(
        "which token plays the seat: the playerToken that POST /tournaments/{id}/join answered. The game's seat was created with that token's hash, so the entrant token is the seat's player token in every game of the tournament (the service keeps only the hash, so the event cannot repeat it)",
      ),
    url: z.string().nullable().describe("the game"),
    links: z
      .object({
        game: z.string().describe("GET: the game's record"),
        sync: z.string().describe("GET with Authorization: Bearer <entrant token>: the seat's view (hand, yourTurn, legal moves)"),
        moves: z.string().describe("POST with Authorization: Bearer <entrant token>: a move"),
      })
      .nullable()
      .describe("null for a bye"),
  }),
  "tournament.finished": z.object({
    tournament_id: tournamentId,
    standings: z.array(z.object({ rank: z.number().int(), player_id: z.string(), score: z.number() })),
    url: z.string().describe("the standings"),
  }),
  "league.finished": z.object({
    league_id: leagueId,
    standings: z.array(
      z.object({
        rank: z.number().int(),
        player_id: z.string(),
        rating: z.number().describe("Bradley-Terry rating, Elo scale, entrants' mean 0"),
        low: z.number().describe("95% bootstrap interval, lower end"),
        high: z.number().describe("95% bootstrap interval, upper end"),
      }),
    ),
    url: z.string().describe("the standings"),
  }),
} satisfies Record<EventName, z.ZodType>;

export type EventArguments<N extends EventName> = z.infer<(typeof ARGUMENT_SCHEMAS)[N]>;
export type EventData<N extends EventName> = z.infer<(typeof DATA_SCHEMAS)[N]>;

/** One event as its builder makes it: the name decides the shape of `data`. */
export type EventOf<N extends EventName = EventName> = { [K in N]: { name: K; data: EventData<K> } }[N];

interface EntryMeta {
  description: string;
  /**
   * Events that form an ordered per-game stream numbered by `sequence` (the game's move count after the
   * event). Only these skip events at or before the subscription's cursor: other events may legitimately
   * share a move count (a turn and the game's end after a resignation).
   */
  sequenced: boolean;
}

const META: Record<EventName, EntryMeta> = {
  "game.turn": {
    description: "Each time it becomes the seat's turn, and once when the game ends (with your_turn false).",
    sequenced: false,
  },
  "game.started": { description: "Once, when a game waiting for its second player has both.", sequenced: false },
  "game.move": {
    description: "After every move, as a spectator sees it (never a hand); starts after the moves already played.",
    sequenced: true,
  },
  "game.finished": {
    description: "Once, when the game ends: winner, each seat's result, how it was decided, score, players and the replay links.",
    sequenced: false,
  },
  "challenge.played": {
    description: "Once, when the human plays the hosted agent challenge: the verified result.",
    sequenced: false,
  },
  "tournament.started": { description: "Once, when a swiss's entries close and round 1 is paired, or an arena's clock starts.", sequenced: false },
  "tournament.paired": {
    description:
      "Each round (swiss) or each game (arena), to one entrant: the game id, their seat, whether they move first and the links to play it with their entrant token (or their bye).",
    sequenced: false,
  },
  "tournament.finished": {
    description: "Once, when the last round's last game is counted (swiss) or the last game after the end (arena): the final standings.",
    sequenced: false,
  },
  "league.finished": { description: "Once, when a duplicate league's last game is counted: the final Bradley-Terry standings.", sequenced: false },
};

export const isEventName = (name: unknown): name is EventName => typeof name === "string" && (EVENT_NAMES as readonly string[]).includes(name);

export const isSequenced = (name: EventName): boolean => META[name].sequenced;

export interface CatalogEntry {
  name: EventName;
  description: string;
  /** JSON Schema of the subscription's `arguments`. */
  arguments: Record<string, unknown>;
  /** JSON Schema of a delivery's `data`. */
  data: Record<string, unknown>;
}

/** Drops zod's implied safe-integer bounds: they are noise to a reader of the catalog. */
function tidy(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(tidy);
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === "$schema") continue;
    if ((k === "maximum" && v === Number.MAX_SAFE_INTEGER) || (k === "minimum" && v === Number.MIN_SAFE_INTEGER)) continue;
    out[k] = tidy(v);
  }
  return out;
}

// The input side: published data schemas leave out `additionalProperties: false`, so a receiver that
// validates against them keeps working when a later version adds a member.
const jsonSchema = (schema: z.ZodType): Record<string, unknown> => tidy(z.toJSONSchema(schema, { io: "input" })) as Record<string, unknown>;

const CATALOG: readonly CatalogEntry[] = EVENT_NAMES.map((name) => ({
  name,
  description: META[name].description,
  arguments: jsonSchema(ARGUMENT_SCHEMAS[name]),
  data: jsonSchema(DATA_SCHEMAS[name]),
}));

/** The catalog as `GET /games/events` returns it (a copy: callers may mutate it). */
export const eventCatalog = (): CatalogEntry[] => structuredClone(CATALOG) as CatalogEntry[];
