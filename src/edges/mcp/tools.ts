/**
 * The MCP tools: the game operations of the REST facade, called with the same zod schemas and answered
 * with the same bodies. A seat's player token travels as the `player_token` argument (MCP has no per-call
 * Authorization header); it is never logged.
 */
import { z } from "zod";
import * as R from "../api/openapi/responses";
import { CreateGameBody, JoinGameBody, QuickMatchBody } from "../../services/games/schemas";
import { def, type ToolDef } from "./tool-def";
import { TOURNAMENT_TOOLS } from "./tournament-tools";
import { LEAGUE_TOOLS } from "./league-tools";
import { LOG_TOOLS } from "./log-tools";

const gameId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "must be a game id")
  .describe("game id");
const playerToken = z.string().min(1).max(200).describe("the seat's player token (pt_...), returned when the seat was taken");
/** A read's optional seat token: a private game is read only by its two seats (anyone else: not_found). */
const seatToken = playerToken.optional().describe("a seat's player token: needed to read a private game, whose seats alone may read it");

export type { ToolDef, ToolDeps } from "./tool-def";

const QuickMatchAnswer = z.union([R.QuickMatchMatched, R.QuickMatchQueued]);
/** The structuredContent of a refused call (src/edges/mcp/results.ts): the REST problem's stable members. */
export const toolProblemSchema = z.looseObject({ code: R.Problem.shape.code, status: z.number().int(), detail: z.string(), hint: z.string() });

export const TOOLS: ToolDef[] = [
  def(
    "create_game",
    false,
    "Create a game. opponent `house` starts at once against the house AI; `friend` returns an invite code for a second player; `hosted` returns a code for each seat. Keep the returned playerToken (and player.secret for a new guest profile): they are shown once.",
    // An MCP agent plays over MCP: a WebSocket seat reservation is of no use to it.
    CreateGameBody.omit({ reserveSeat: true }),
    R.CreatedGame,
    (a, d) => d.gameCreation.create({ ...a, reserveSeat: false }),
  ),
  def(
    "join_game",
    false,
    "Join a game waiting for its second player with its invite code. Returns the seat, its playerToken and the game.",
    JoinGameBody.omit({ reserveSeat: true }),
    R.JoinedGame,
    (a, d) => d.gameCreation.join({ ...a, reserveSeat: false }),
  ),
  def(
    "quick_match",
    false,
    "Queue for a game against another player of the same ruleset. Waits up to `wait` seconds; answers status `matched` (with game, seat, playerToken) or `queued` with a ticket for quick_match_poll.",
    QuickMatchBody.omit({ reserveSeat: true }),
    QuickMatchAnswer,
    (a, d) => d.quick.enqueue({ ...a, reserveSeat: false }),
  ),
  def(
    "quick_match_poll",
    false,
    "Wait up to `timeout` seconds (0..20) for a queued ticket to be paired. Same answers as quick_match.",
    z.object({ ticket: z.string().min(1).max(100), timeout: z.number().int().min(0).max(20).default(0) }).strict(),
    QuickMatchAnswer,
    (a, d) => d.longPolls.hold(d.address, a.timeout, () => d.quick.poll(a.ticket, a.timeout)),
  ),
  def(
    "move",
    false,
    "Play a move: a card from your hand onto an empty square in notation `<card>@<square>`, e.g. `E7@b3`. Returns the move as recorded and your seat's view after it.",
    z.object({ game_id: gameId, player_token: playerToken, move: z.string().trim().min(1).max(32).describe("move notation, e.g. E7@b3") }).strict(),
    R.MovePlayed,
    (a, d) => d.gamePlay.move(a.game_id, a.player_token, { move: a.move }),
  ),
  def("resign", false, "Resign the game for your seat.", z.object({ game_id: gameId, player_token: playerToken }).strict(), R.GameRecord, (a, d) =>
    d.gamePlay.resign(a.game_id, a.player_token),
  ),
  def(
    "rematch",
    false,
    "Rematch a finished friend or quick-match game: `answer: offer` offers one to the same opponent (or accepts theirs), `answer: decline` declines it. Once started, `game` holds your seat and player_token in the new game (seats swapped, same ruleset). sync of the finished game shows `rematch`.",
    z.object({ game_id: gameId, player_token: playerToken, answer: z.enum(["offer", "decline"]).default("offer") }).strict(),
    R.RematchAnswer,
    (a, d) => (a.answer === "decline" ? d.gamePlay.declineRematch(a.game_id, a.player_token) : d.gamePlay.rematch(a.game_id, a.player_token)),
  ),
  def(
    "get_game",
    true,
    "The full public record of a game: players, status, board, score, moves (never a hand). A private game's only with one of its seats' player_token.",
    z.object({ game_id: gameId, player_token: seatToken }).strict(),
    R.GameRecord,
    (a, d) => d.gameReads.record(a.game_id, a.player_token),
  ),
  def(
    "sync",
    true,
    "A seat's view (with player_token: your hand, yourTurn, and legalMoves on your turn) or a spectator's view, plus every move from `since` on. Pass the last answer's moveCount as `since`. With `timeout` (0..20 seconds) it waits until a move past `since`, a status change or your turn: loop sync and move to play. A finished game says `result` (win, loss, draw) from your side and `decision`.",
    z
      .object({
        game_id: gameId,
        player_token: playerToken.optional(),
        since: z.number().int().min(0).default(0).describe("moves already seen: the last answer's moveCount (0 for all)"),
        timeout: z.number().int().min(0).max(20).default(0).describe("seconds to wait for a change"),
      })
      .strict(),
    R.Sync,
    (a, d) => d.longPolls.hold(d.address, a.timeout, () => d.gameReads.sync(a.game_id, a.player_token, a.since, a.timeout)),
  ),
  def(
    "replay",
    true,
    "The move-by-move replay of a finished game (refused with game_not_finished before the end, and for a league game until the other game of its deal has finished). A private game's only with one of its seats' player_token.",
    z.object({ game_id: gameId, player_token: seatToken }).strict(),
    R.Replay,
    (a, d) => d.gameReads.replay(a.game_id, a.player_token),
  ),
  def(
    "review",
    true,
    "The move-by-move review of a finished game: each move marked best to blunder, with accuracy per seat (refused like the replay).",
    z.object({ game_id: gameId, player_token: seatToken }).strict(),
    R.Review,
    async (a, d) => d.gameReads.review(a.game_id, a.player_token),
  ),
  def(
    "player_profile",
    true,
    "A player's public profile: rating, rank, games, win rate, recent form, clubs.",
    z
      .object({
        player_id: z
          .string()
          .regex(/^[A-Za-z0-9_-]{1,40}$/, "must be a player id")
          .describe("the player's friend code"),
      })
      .strict(),
    R.Profile,
    (a, d) => d.players.profile(a.player_id),
  ),
  def(
    "list_games",
    true,
    "Public games to watch or browse, newest first, paged with nextCursor.",
    z
      .object({
        status: z.enum(["waiting", "active", "finished"]).optional(),
        limit: z.number().int().min(1).max(100).default(20),
        cursor: z.string().max(200).optional(),
      })
      .strict(),
    R.GameList,
    (a, d) => d.gameReads.list(a),
  ),
  def(
    "player_games",
    true,
    "A player's public games, newest first, paged with nextCursor: each with the player's seat and result.",
    z
      .object({
        player_id: z
          .string()
          .regex(/^[A-Za-z0-9_-]{1,40}$/, "must be a player id")
          .describe("the player's friend code"),
        limit: z.number().int().min(1).max(100).default(20),
        cursor: z.string().max(200).optional(),
      })
      .strict(),
    R.PlayerGames,
    (a, d) => d.gameReads.playerGames(a.player_id, { limit: a.limit, cursor: a.cursor }),
  ),
  def(
    "player_ratings",
    true,
    "A player's rating history, oldest first: one point per rated game with the game id, when it ended, the rating it left and whether it was provisional. Paged with `after` (the last answer's nextAfter).",
    z
      .object({
        player_id: z
          .string()
          .regex(/^[A-Za-z0-9_-]{1,40}$/, "must be a player id")
          .describe("the player's friend code"),
        limit: z.number().int().min(1).max(500).default(100),
        after: z.number().int().min(0).default(0).describe("the last answer's nextAfter (0: from the first point)"),
      })
      .strict(),
    R.RatingHistory,
    (a, d) => d.players.ratingHistory(a.player_id, a.after, a.limit),
  ),
  def(
    "list_bots",
    true,
    "The bot directory, newest first: each bot's name, description, profile (rating, games), last seen, and the leagues and tournaments it entered. Paged with `offset` (the last answer's nextOffset).",
    z.object({ limit: z.number().int().min(1).max(100).default(20), offset: z.number().int().min(0).max(100_000).default(0) }).strict(),
    R.BotDirectory,
    (a, d) => d.bots.list(a.limit, a.offset),
  ),
  ...TOURNAMENT_TOOLS,
  ...LEAGUE_TOOLS,
  ...LOG_TOOLS,
];
