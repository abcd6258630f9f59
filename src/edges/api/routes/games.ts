/** REST routes of games: create, join, quick-match, move, resign, rematch, list, read, sync, replay, review. */
import { Router, type Request } from "express";
import { announceSeat, playAs } from "./bots";
import { AppError } from "../../../shared/errors";
import type { QuickMatch } from "../../../services/games/quick-match";
import {
  CreateGameBody,
  JoinGameBody,
  ListGamesQuery,
  MoveBody,
  PlayerGamesQuery,
  QuickMatchBody,
  SyncQuery,
  TicketQuery,
} from "../../../services/games/schemas";
import { bearerToken } from "../../../shared/secrets";
import type { GameService } from "../../../services/games/service";
import { parse } from "../../../shared/validation";
import * as R from "../openapi/responses";
import type { LongPolls } from "../long-polls";
import { reply } from "../reply";
import { pathId, GAME_ID, PLAYER_ID } from "./path-id";

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

export function gamesRouter(games: GameService, quick: QuickMatch, longPolls: LongPolls, logIndexOf?: (gameId: string) => Promise<number | null>): Router {
  const r = Router();
  /** A finished game's answer with its index in the public log, once its batch is appended. */
  const withLogIndex = async <T extends object>(body: T, id: string, finished: boolean): Promise<T & { logIndex?: number }> => {
    const index = finished && logIndexOf ? await logIndexOf(id) : null;
    return index === null ? body : { ...body, logIndex: index };
  };

  r.post("/games", async (req, res) => {
    const body = playAs(res, parse(CreateGameBody, req.body, "body"));
    const out = await games.create(body);
    announceSeat(res, out);
    reply(res.location(`/api/v1/games/${out.game.id}`), 201, R.CreatedGame, out);
  });

  r.post("/games/join", async (req, res) => {
    const out = await games.join(playAs(res, parse(JoinGameBody, req.body, "body")));
    announceSeat(res, out);
    reply(res, 200, R.JoinedGame, out);
  });

  r.get("/games/join/:code", async (req, res) => {
    const code = String(req.params.code);
    if (!/^[A-Za-z0-9]{4,32}$/.test(code)) throw new AppError("not_found", "no game has this invite code");
    reply(res, 200, R.InviteStatus, await games.invite(code));
  });

  r.post("/games/quick-match", async (req, res) => {
    const out = await quick.enqueue(playAs(res, parse(QuickMatchBody, req.body, "body")));
    announceSeat(res, out);
    if (out.status === "matched") reply(res, 200, R.QuickMatchMatched, out);
    else reply(res, 202, R.QuickMatchQueued, out);
  });

  r.get("/games/quick-match/:ticket", async (req, res) => {
    const { timeout } = parse(TicketQuery, req.query, "query");
    const out = await longPolls.hold(addressOf(req), timeout, () => quick.poll(String(req.params.ticket), timeout));
    announceSeat(res, out);
    if (out.status === "matched") reply(res, 200, R.QuickMatchMatched, out);
    else reply(res, 202, R.QuickMatchQueued, out);
  });

  r.delete("/games/quick-match/:ticket", async (req, res) => {
    reply(res, 200, R.QuickMatchLeft, await quick.leave(String(req.params.ticket)));
  });

  r.get("/games", async (req, res) => {
    reply(res, 200, R.GameList, await games.list(parse(ListGamesQuery, req.query, "query")));
  });

  // A player's public games: served here, beside the list whose fields it shares.
  r.get("/players/:id/games", async (req, res) => {
    const id = pathId(req, PLAYER_ID, "player");
    reply(res, 200, R.PlayerGames, await games.playerGames(id, parse(PlayerGamesQuery, req.query, "query")));
  });

  r.get("/games/:id", async (req, res) => {
    const id = gameId(req);
    const record = await games.record(id, optionalToken(req));
    reply(res, 200, R.GameRecord, await withLogIndex(record, id, record.status === "finished"));
  });

  r.get("/games/:id/sync", async (req, res) => {
    const id = gameId(req);
    const token = optionalToken(req);
    const { since, timeout } = parse(SyncQuery, req.query, "query");
    reply(res, 200, R.Sync, await longPolls.hold(addressOf(req), timeout, () => games.sync(id, token, since, timeout)));
  });

  r.post("/games/:id/moves", async (req, res) => {
    const id = gameId(req);
    const token = requiredToken(req);
    reply(res, 200, R.MovePlayed, await games.move(id, token, parse(MoveBody, req.body, "body")));
  });

  r.post("/games/:id/resign", async (req, res) => {
    const id = gameId(req);
    reply(res, 200, R.GameRecord, await games.resign(id, requiredToken(req)));
  });

  r.post("/games/:id/rematch", async (req, res) => {
    const id = gameId(req);
    reply(res, 200, R.RematchAnswer, await games.rematch(id, requiredToken(req)));
  });

  r.delete("/games/:id/rematch", async (req, res) => {
    const id = gameId(req);
    reply(res, 200, R.RematchAnswer, await games.declineRematch(id, requiredToken(req)));
  });

  r.get("/games/:id/replay", async (req, res) => {
    const id = gameId(req);
    reply(res, 200, R.Replay, await withLogIndex(await games.replay(id, optionalToken(req)), id, true));
  });

  r.get("/games/:id/review", async (req, res) => {
    reply(res, 200, R.Review, await games.review(gameId(req), optionalToken(req)));
  });

  return r;
}
