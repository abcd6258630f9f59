/**
 * REST routes of bot accounts: register (the key is answered once), read, revoke, challenge another bot, and
 * the bot directory (`GET /bots`, paged with `limit` and `offset`). `botAuth` reads a bot key on any /api
 * request and leaves the bot in `res.locals.bot`; an unknown or revoked key is refused.
 */
import { Router, type Request, type RequestHandler, type Response } from "express";
import { AppError } from "../../../shared/errors";
import { parse } from "../../../shared/validation";
import type { Seat } from "../../../engine";
import type { GameService } from "../../../services/games/service";
import { botKeyOf } from "../../../shared/secrets";
import type { BotStreamHub } from "../../../services/bots/stream-hub";
import type { BotDirectory } from "../../../services/bots/directory";
import type { BotRevocation } from "../../../services/bots/revocation";
import { BotService, type AuthedBot } from "../../../services/bots/service";
import { ChallengeBotBody, ListBotsQuery, RegisterBotBody } from "../../../services/bots/schemas";
import * as R from "../openapi/responses";
import { reply } from "../reply";
import { PLAYER_ID } from "./path-id";

/** Refuses an unknown or revoked bot key; a valid one leaves the bot in `res.locals.bot`. */
export function botAuth(bots: BotService, hub?: BotStreamHub): RequestHandler {
  return async (req, res, next) => {
    const key = botKeyOf(req.get("authorization"));
    if (key && !res.locals.bot) res.locals.bot = await bots.authenticate(key);
    if (res.locals.bot) res.locals.botHub = hub;
    next();
  };
}

/** After a keyed request took a seat: every process's stream hub follows the game for the bot. */
export function announceSeat(res: Response, out: { status?: string; game?: { id: string }; seat?: Seat }): void {
  const b = botOf(res);
  const hub = res.locals.botHub as BotStreamHub | undefined;
  if (b && hub && out.game && out.seat && out.status !== "queued") hub.announce({ kind: "seat", botId: b.bot.id, gameId: out.game.id, seat: out.seat });
}

/** The rate-limit bucket of a request with a valid bot key (LimiterOptions.keyOf); it also leaves the bot for botAuth. */
export function botBucket(bots: BotService) {
  return async (req: Request, res: Response): Promise<string | undefined> => {
    const key = botKeyOf(req.get("authorization"));
    if (!key) return undefined;
    const authed = await bots.authenticate(key).catch(() => undefined);
    if (!authed) return undefined;
    res.locals.bot = authed;
    return `bot:${authed.bot.id}`;
  };
}

/** The bot of a keyed request, or undefined. */
export const botOf = (res: Response): AuthedBot | undefined => res.locals.bot as AuthedBot | undefined;

function requireBot(res: Response): AuthedBot {
  const b = botOf(res);
  if (!b) throw new AppError("unauthorized", "this action needs the bot's key: `Authorization: Bearer bk_...`");
  return b;
}

/**
 * A create, join or quick-match body as a keyed request plays it: as the bot's profile. Naming another
 * profile beside the key is refused rather than one of them silently winning.
 */
export function playAs<B extends { player?: unknown; name?: string }>(res: Response, body: B): B {
  const b = botOf(res);
  if (!b) return body;
  if (body.player) throw new AppError("bad_request", "a request with a bot key plays as the bot: leave out `player`");
  return { ...body, ...BotService.asPlayer(b) };
}

/** `registrations` caps registrations per address (BOT_REGISTRATIONS_PER_ADDRESS): keys are free, a bot's profile is not. */
export function botsRouter(bots: BotService, games: GameService, hub: BotStreamHub, revocation: BotRevocation, registrations: RequestHandler): Router {
  const r = Router();
  // A bot challenges another: a friend game with the challenger seated, and a challenge event (with the
  // invite code) on the other's stream. The other accepts by joining with the code, or declines it.
  r.post("/bots/:id/challenge", async (req, res) => {
    const me = requireBot(res);
    const body = parse(ChallengeBotBody, req.body, "body");
    const target = await bots.get(String(req.params.id).slice(0, 40));
    if (target.revoked) throw new AppError("conflict", `bot ${target.id} no longer plays (its key was revoked)`);
    if (target.id === me.bot.id) throw new AppError("bad_request", "a bot cannot challenge itself");
    const out = await games.create(
      { opponent: "friend", level: "normal", public: true, seat: "random", reserveSeat: false, ...body, ...BotService.asPlayer(me) },
      { challengedBot: target.id },
    );
    if (!("code" in out)) throw new AppError("internal", "a friend game answered without an invite code");
    announceSeat(res, out);
    hub.announce({
      kind: "challenge",
      botId: target.id,
      event: {
        id: `${out.game.id}/0/challenge`,
        type: "challenge",
        from: { id: me.bot.id, name: me.bot.name },
        gameId: out.game.id,
        code: out.code,
        ruleset: body.ruleset,
        expiresAt: null,
      },
    });
    reply(res, 201, R.BotChallenged, { game: out.game, seat: out.seat, playerToken: out.playerToken, code: out.code, challenged: target.id });
  });
  // Challenges are named by their invite code, the one thing the challenged bot was given. Declining aborts the
  // waiting game (unrated) and tells the challenger on its stream, rather than leaving it to wait out the invite.
  r.post("/bots/challenges/:code/decline", async (req, res) => {
    const me = requireBot(res);
    const code = String(req.params.code);
    if (!/^[A-Za-z0-9-]{1,40}$/.test(code)) throw new AppError("not_found", "no bot challenge has this invite code");
    const out = await games.declineChallenge(code, me.bot.id);
    if (out.challenger) {
      hub.announce({
        kind: "challenge",
        botId: out.challenger,
        event: { id: `${out.gameId}/0/challengeDeclined`, type: "challengeDeclined", gameId: out.gameId, by: { id: me.bot.id, name: me.bot.name } },
      });
    }
    reply(res, 200, R.BotChallengeDeclined, { gameId: out.gameId, status: "declined" });
  });
  r.post("/bots", registrations, async (req, res) => {
    const out = await bots.register(parse(RegisterBotBody, req.body, "body"));
    reply(res.location(out.bot.url), 201, R.BotRegistered, out);
  });
  r.get("/bots/me", async (_req, res) => {
    reply(res, 200, R.Bot, await bots.publicBot(requireBot(res).bot));
  });
  // The key's open streams end before the answer, on every process: none carries an event after it. So do its
  // queued tickets, its league and tournament entries and its games not yet played (BotRevocation).
  r.delete("/bots/me", async (_req, res) => {
    const me = requireBot(res);
    const out = await bots.revoke(me);
    await hub.revoke(me.bot.id);
    await revocation.withdraw(me.bot.id);
    reply(res, 200, R.BotRevoked, out);
  });
  r.get("/bots/:id", async (req, res) => {
    const id = String(req.params.id);
    if (!PLAYER_ID.test(id)) throw new AppError("not_found", `no bot with id ${id.slice(0, 40)}`);
    reply(res, 200, R.Bot, await bots.get(id));
  });
  return r;
}

export function botDirectoryRouter(directory: BotDirectory): Router {
  const r = Router();
  r.get("/bots", async (req, res) => {
    const q = parse(ListBotsQuery, req.query, "query");
    reply(res, 200, R.BotDirectory, await directory.list(q.limit, q.offset));
  });
  return r;
}
