/** REST routes of games: create, join, quick-match, move, resign, rematch, list, read, sync, replay, review. */
import { Router, type Request } from "express";
import { z } from "zod";
import { announceSeat, playAs } from "./bots";
import { AppError } from "../../../shared/errors";
import type { QuickMatch } from "../../../services/games/quick-match";
import { CreateGameBody, JoinGameBody, ListGamesQuery, MoveBody, QuickMatchBody, SyncQuery, TicketQuery } from "../../../services/games/schemas";
import { bearerToken } from "../../../shared/secrets";
import type { GameCreation } from "../../../services/games/creation";
import type { GamePlay } from "../../../services/games/play";
import type { GameReads } from "../../../services/games/reads";
import * as R from "../openapi/responses";
import { asBot, bearer, bearerOrNone, id, json, problems, text } from "../openapi/parts";
import { deprecated } from "../edges";
import type { LongPolls } from "../long-polls";
import { reply } from "../reply";
import { mountRoutes, route, type Route } from "../route";
import { pathId, GAME_ID } from "./path-id";

export interface GamesDeps {
  gameCreation: GameCreation;
  gamePlay: GamePlay;
  gameReads: GameReads;
  quick: QuickMatch;
  longPolls: LongPolls;
  /** A game's index in the public log, or null while it is not in it; a finished game's record and replay name it. */
  logIndexOf?: (gameId: string) => Promise<number | null>;
  baseUrl: string;
}

const gameId = (req: Request): string => pathId(req, GAME_ID, "game");

/** The bearer token if one was sent; a malformed Authorization header is refused, never ignored. */
function optionalToken(req: Request): string | undefined {
  const t = bearerToken(req.headers.authorization);
  if (t === null) throw new AppError("unauthorized", "the Authorization header must be `Bearer pt_...`");
  return t;
}

function requiredToken(req: Request): string {
  const t = optionalToken(req);
  if (!t) throw new AppError("unauthorized", "this action needs the seat's player token: `Authorization: Bearer pt_...`");
  return t;
}

/** The address long-polls are counted by (Express resolves it through trusted proxies). */
const addressOf = (req: Request): string => req.ip ?? req.socket.remoteAddress ?? "unknown";

/** A finished game's answer with its index in the public log, once its batch is appended. */
async function withLogIndex<T extends object>(d: GamesDeps, body: T, id: string, finished: boolean): Promise<T & { logIndex?: number }> {
  const index = finished && d.logIndexOf ? await d.logIndexOf(id) : null;
  return index === null ? body : { ...body, logIndex: index };
}

const game = id("game");
const ticket = z.object({ ticket: z.string() });

export const gameRoutes: Route<GamesDeps>[] = [
  route({
    method: "post",
    path: "/games",
    operationId: "createGame",
    tags: ["games"],
    summary: "Create a game",
    description:
      "`house`: a game against the house AI, started at once. `friend`: your seat plus an invite code for the other. `hosted`: two invite codes. The answer holds your seat's `playerToken`, shown once. With a bot key (`Authorization: Bearer bk_...`) the seat is the bot's profile.",
    security: asBot,
    request: { body: CreateGameBody, bodyExample: { opponent: "house", level: "easy", name: "Ann" } },
    responses: { 201: json(R.CreatedGame, "created"), ...problems(400, 401) },
    handler: async ({ res, body }, d) => {
      const out = await d.gameCreation.create(playAs(res, body()));
      announceSeat(res, out);
      reply(res.location(`/api/v1/games/${out.game.id}`), 201, R.CreatedGame, out);
    },
  }),
  route({
    method: "get",
    path: "/games",
    operationId: "listGames",
    tags: ["games"],
    summary: "List public games",
    description: "Public games, newest first, paged with `cursor` (the last answer's `nextCursor`).",
    request: { query: ListGamesQuery },
    responses: { 200: json(R.GameList), ...problems(400) },
    handler: async ({ res, query }, d) => {
      reply(res, 200, R.GameList, await d.gameReads.list(query()));
    },
  }),
  route({
    method: "post",
    path: "/games/join",
    operationId: "joinGame",
    tags: ["games"],
    summary: "Join a game by invite code",
    description:
      "Takes the seat an invite code names and answers its `playerToken`, shown once. With a bot key the seat is the bot's profile: a bot joins another bot's friend game this way.",
    security: asBot,
    request: { body: JoinGameBody, bodyExample: { code: "K7MQ2XWD", name: "Bob" } },
    responses: { 200: json(R.JoinedGame), ...problems(400, 401, 404, 409, 410) },
    handler: async ({ res, body }, d) => {
      const out = await d.gameCreation.join(playAs(res, body()));
      announceSeat(res, out);
      reply(res, 200, R.JoinedGame, out);
    },
  }),
  route({
    method: "get",
    path: "/games/join/:code",
    operationId: "getInvite",
    tags: ["games"],
    summary: "Check an invite code",
    description: "What an invite code opens, without claiming it: whether its seat is still open (`open`, `used`, `closed`) and the game's public facts.",
    request: { params: z.object({ code: z.string() }) },
    responses: { 200: json(R.InviteStatus), ...problems(404) },
    handler: async ({ req, res }, d) => {
      const code = String(req.params.code);
      if (!/^[A-Za-z0-9]{4,32}$/.test(code)) throw new AppError("not_found", "no game has this invite code");
      reply(res, 200, R.InviteStatus, await d.gameCreation.invite(code));
    },
  }),
  route({
    method: "post",
    path: "/games/quick-match",
    operationId: "quickMatch",
    tags: ["games"],
    summary: "Queue for a quick match",
    description:
      "Pairs you with another player of the same ruleset. Waits up to `wait` seconds: 200 `matched` with your seat, or 202 `queued` with a ticket to poll. With a bot key, a ticket paired later is also announced on the bot's event stream (`gameStart` with the seat's `playerToken`), so a bot may wait there instead of polling.",
    security: asBot,
    request: { body: QuickMatchBody },
    responses: { 200: json(R.QuickMatchMatched, "matched"), 202: json(R.QuickMatchQueued, "queued: poll the ticket"), ...problems(400, 401) },
    handler: async ({ res, body }, d) => {
      const out = await d.quick.enqueue(playAs(res, body()));
      announceSeat(res, out);
      if (out.status === "matched") reply(res, 200, R.QuickMatchMatched, out);
      else reply(res, 202, R.QuickMatchQueued, out);
    },
  }),
  route({
    method: "get",
    path: "/games/quick-match/:ticket",
    operationId: "pollQuickMatch",
    tags: ["games"],
    summary: "Poll a quick-match ticket",
    description: "Waits up to `timeout` seconds for the ticket to be paired; same answers as the queue.",
    request: { params: ticket, query: TicketQuery },
    responses: { 200: json(R.QuickMatchMatched, "matched"), 202: json(R.QuickMatchQueued, "still queued"), ...problems(400, 404, 409) },
    handler: async ({ req, res, query }, d) => {
      const { timeout } = query();
      const out = await d.longPolls.hold(addressOf(req), timeout, () => d.quick.poll(String(req.params.ticket), timeout));
      announceSeat(res, out);
      if (out.status === "matched") reply(res, 200, R.QuickMatchMatched, out);
      else reply(res, 202, R.QuickMatchQueued, out);
    },
  }),
  route({
    method: "delete",
    path: "/games/quick-match/:ticket",
    operationId: "leaveQuickMatch",
    tags: ["games"],
    summary: "Leave the quick-match queue",
    description: "Removes a queued ticket; a ticket already matched is refused.",
    request: { params: ticket },
    responses: { 200: json(R.QuickMatchLeft), ...problems(404, 409) },
    handler: async ({ req, res }, d) => {
      reply(res, 200, R.QuickMatchLeft, await d.quick.leave(String(req.params.ticket)));
    },
  }),
  route({
    method: "get",
    path: "/games/:id",
    operationId: "getGame",
    tags: ["games"],
    summary: "Read a game",
    description:
      "The public record of a game: players, board, score, moves as notation. Never a hand; the seed only once the game has finished (a league game's once both games of its deal have, since they share it).",
    request: { params: game },
    responses: { 200: json(R.GameRecord), ...problems(404) },
    handler: async ({ req, res }, d) => {
      const id = gameId(req);
      const record = await d.gameReads.record(id, optionalToken(req));
      reply(res, 200, R.GameRecord, await withLogIndex(d, record, id, record.status === "finished"));
    },
  }),
  route({
    method: "get",
    path: "/games/:id/sync",
    operationId: "syncGame",
    tags: ["games"],
    summary: "Sync a seat's or a spectator's view",
    description:
      "With the seat's token: its view (hand, `yourTurn`, and `legalMoves` on its turn) plus every move from `since` on; without: a spectator's. Pass the last answer's `moveCount` as `since`; `timeout` (seconds) waits for a move past `since`, a status change, or your turn. A finished game says `result` from the seat's side and `decision`.",
    security: bearerOrNone,
    request: { params: game, query: SyncQuery },
    responses: { 200: json(R.Sync), ...problems(400, 401, 404) },
    handler: async ({ req, res, query }, d) => {
      const id = gameId(req);
      const token = optionalToken(req);
      const { since, timeout } = query();
      reply(res, 200, R.Sync, await d.longPolls.hold(addressOf(req), timeout, () => d.gameReads.sync(id, token, since, timeout)));
    },
  }),
  route({
    method: "post",
    path: "/games/:id/moves",
    operationId: "playMove",
    tags: ["games"],
    summary: "Play a move",
    description:
      'A card of your hand onto an empty square, as notation (`{"move": "E7@b3"}`) or parts (`{"card": "E7", "square": "b3"}`); any of the sync\'s `legalMoves` is accepted. Answers the move as recorded and your view after it.',
    security: bearer,
    request: { params: game, body: MoveBody, bodyExample: { move: "E7@b3" } },
    responses: { 200: json(R.MovePlayed), ...problems(400, 401, 404, 409, 422, 503) },
    handler: async ({ req, res, body }, d) => {
      const id = gameId(req);
      const token = requiredToken(req);
      reply(res, 200, R.MovePlayed, await d.gamePlay.move(id, token, body()));
    },
  }),
  route({
    method: "post",
    path: "/games/:id/resign",
    operationId: "resign",
    tags: ["games"],
    summary: "Resign",
    description: "Ends the game at once; the other seat wins.",
    security: bearer,
    request: { params: game },
    responses: { 200: json(R.GameRecord, "the finished game"), ...problems(401, 404, 409) },
    handler: async ({ req, res }, d) => {
      const id = gameId(req);
      reply(res, 200, R.GameRecord, await d.gamePlay.resign(id, requiredToken(req)));
    },
  }),
  route({
    method: "post",
    path: "/games/:id/rematch",
    operationId: "offerRematch",
    tags: ["games"],
    summary: "Offer or accept a rematch",
    description:
      "A seat of a finished friend or quick-match game offers a rematch to the same opponent; the other seat's offer accepts it. Started, the answer carries this seat's new game: same players and ruleset, seats swapped, with this seat's `playerToken` (the one it played the finished game with: its token plays the rematch too). Two acceptances at once, on any processes, start one game. The seat view of `/sync` shows `rematch`. Refused for spectators (401), house, hosted, tournament, league and aborted games (403) and unfinished games (409).",
    security: bearer,
    request: { params: game },
    responses: { 200: json(R.RematchAnswer), ...problems(401, 403, 404, 409, 503) },
    handler: async ({ req, res }, d) => {
      const id = gameId(req);
      reply(res, 200, R.RematchAnswer, await d.gamePlay.rematch(id, requiredToken(req)));
    },
  }),
  route({
    method: "delete",
    path: "/games/:id/rematch",
    operationId: "declineRematch",
    tags: ["games"],
    summary: "Decline a rematch",
    description: "Declines the other seat's rematch offer, or takes back your own; refused (409) once the rematch has started.",
    security: bearer,
    request: { params: game },
    responses: { 200: json(R.RematchAnswer), ...problems(401, 403, 404, 409, 503) },
    handler: async ({ req, res }, d) => {
      const id = gameId(req);
      reply(res, 200, R.RematchAnswer, await d.gamePlay.declineRematch(id, requiredToken(req)));
    },
  }),
  route({
    method: "get",
    path: "/games/:id/replay",
    operationId: "getReplay",
    tags: ["replays"],
    summary: "Read a finished game's replay",
    description:
      "Every move with the board after it, the revealed seed and salt: enough to re-simulate the game and check it. Refused with game_not_finished before the end, and for a league game until the other game of its deal (same seed) has finished too.",
    request: { params: game },
    responses: { 200: json(R.Replay), ...problems(404, 409) },
    handler: async ({ req, res }, d) => {
      const id = gameId(req);
      reply(res, 200, R.Replay, await withLogIndex(d, await d.gameReads.replay(id, optionalToken(req)), id, true));
    },
  }),
  route({
    method: "get",
    path: "/games/:id/review",
    operationId: "getReview",
    tags: ["replays"],
    summary: "Read a finished game's review",
    description: "Each move marked from best to blunder by the house engine, with each seat's accuracy. Refused like the replay while the replay is.",
    request: { params: game },
    responses: { 200: json(R.Review), ...problems(404, 409) },
    handler: async ({ req, res }, d) => {
      reply(res, 200, R.Review, await d.gameReads.review(gameId(req), optionalToken(req)));
    },
  }),
  // A superseded spelling kept for old clients; it shows the deprecation headers of spec 9.4.
  route({
    method: "get",
    path: "/game/:id",
    operationId: "getGameDeprecated",
    tags: ["games"],
    summary: "Read a game (old path)",
    description: "Superseded by `/games/{id}`; see /docs/migration#game-path.",
    deprecated: true,
    request: { params: game },
    responses: { 308: text("moved to /games/{id}"), ...problems() },
    before: (d) => [
      deprecated({ since: new Date("2026-06-01T00:00:00Z"), sunset: new Date("2027-06-01T00:00:00Z"), link: `${d.baseUrl}/docs/migration#game-path` }),
    ],
    handler: ({ req, res }) => res.redirect(308, `${req.baseUrl}/games/${encodeURIComponent(String(req.params.id))}`),
  }),
];

export const gamesRouter = (deps: GamesDeps): Router => mountRoutes(Router(), gameRoutes, deps);
