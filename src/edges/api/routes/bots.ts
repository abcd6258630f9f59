/**
 * REST routes of bot accounts: register (the key is answered once), read, revoke, challenge another bot, and
 * the bot directory (`GET /bots`, paged with `limit` and `offset`). `botAuth` reads a bot key on any /api
 * request and leaves the bot in `res.locals.bot`; an unknown or revoked key is refused.
 */
import { Router, type Request, type RequestHandler, type Response } from "express";
import { z } from "zod";
import { AppError } from "../../../shared/errors";
import type { Seat } from "../../../engine";
import type { GameCreation } from "../../../services/games/creation";
import { botKeyOf } from "../../../shared/secrets";
import type { BotStreamHub } from "../../../services/bots/stream-hub";
import type { BotDirectory } from "../../../services/bots/directory";
import type { BotRevocation } from "../../../services/bots/revocation";
import { BotService, type AuthedBot } from "../../../services/bots/service";
import { ChallengeBotBody, ListBotsQuery, RegisterBotBody } from "../../../services/bots/schemas";
import * as R from "../openapi/responses";
import { botKey, id, json, problems } from "../openapi/parts";
import { reply } from "../reply";
import { mountRoutes, route, type Route } from "../route";
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

export interface BotsDeps {
  bots: BotService;
  games: Pick<GameCreation, "create" | "declineChallenge">;
  hub: BotStreamHub;
  revocation: BotRevocation;
  /** The bot directory (GET /bots). */
  directory: BotDirectory;
  /** Caps registrations per address (BOT_REGISTRATIONS_PER_ADDRESS): keys are free, a bot's profile is not. */
  registrations: RequestHandler;
}

const bot = id("bot");

export const botRoutes: Route<BotsDeps>[] = [
  route({
    method: "post",
    path: "/bots",
    operationId: "registerBot",
    tags: ["bots"],
    summary: "Register a bot",
    description:
      "Makes a bot account and its one profile (`kind: bot`, rated with everyone). The key (`bk_...`) is in this answer only and is stored hashed: send it as `Authorization: Bearer bk_...` to create, join or quick-match games as the bot, and to open its event stream. Keyed requests are rate limited per key, not per address. Registrations are bounded per address (BOT_REGISTRATIONS_PER_ADDRESS per BOT_REGISTRATION_WINDOW_S): past it, 429 with `Retry-After`.",
    request: { body: RegisterBotBody, bodyExample: { name: "Greedy bot", owner: "you@example.org" } },
    responses: { 201: json(R.BotRegistered, "registered: the key is in this answer only"), ...problems(400) },
    before: (d) => [d.registrations],
    handler: async ({ res, body }, d) => {
      const out = await d.bots.register(body());
      reply(res.location(out.bot.url), 201, R.BotRegistered, out);
    },
  }),
  route({
    method: "get",
    path: "/bots",
    operationId: "listBots",
    tags: ["bots"],
    summary: "List bots",
    description:
      "The bot directory: every bot account, newest first, with its description, profile (rating, games), when it was last seen and the leagues and tournaments it entered; paged with `limit` and `offset`. Never a key or an owner's contact.",
    request: { query: ListBotsQuery },
    responses: { 200: json(R.BotDirectory), ...problems(400) },
    handler: async ({ res, query }, d) => {
      const q = query();
      reply(res, 200, R.BotDirectory, await d.directory.list(q.limit, q.offset));
    },
  }),
  route({
    method: "get",
    path: "/bots/me",
    operationId: "getMyBot",
    tags: ["bots"],
    summary: "Read the keyed bot",
    description: "The bot the key belongs to, with its profile (rating, games).",
    security: botKey,
    responses: { 200: json(R.Bot), ...problems(401) },
    handler: async ({ res }, d) => {
      reply(res, 200, R.Bot, await d.bots.publicBot(requireBot(res).bot));
    },
  }),
  // The key's open streams end before the answer, on every process: none carries an event after it. So do its
  // queued tickets, its league and tournament entries and its games not yet played (BotRevocation).
  route({
    method: "delete",
    path: "/bots/me",
    operationId: "revokeBotKey",
    tags: ["bots"],
    summary: "Revoke the bot's key",
    description:
      "The key stops working at once, everywhere: its open event streams end on every server process before this answers, with no event after. The bot, its profile and its games stay. Register again for a new key.",
    security: botKey,
    responses: { 200: json(R.BotRevoked), ...problems(401) },
    handler: async ({ res }, d) => {
      const me = requireBot(res);
      const out = await d.bots.revoke(me);
      await d.hub.revoke(me.bot.id);
      await d.revocation.withdraw(me.bot.id);
      reply(res, 200, R.BotRevoked, out);
    },
  }),
  // After /bots/me, which it would otherwise take for a bot named "me".
  route({
    method: "get",
    path: "/bots/:id",
    operationId: "getBot",
    tags: ["bots"],
    summary: "Read a bot",
    description: "A bot as anyone may see it, with its profile.",
    request: { params: bot },
    responses: { 200: json(R.Bot), ...problems(404) },
    handler: async ({ req, res }, d) => {
      const id = String(req.params.id);
      if (!PLAYER_ID.test(id)) throw new AppError("not_found", `no bot with id ${id.slice(0, 40)}`);
      reply(res, 200, R.Bot, await d.bots.get(id));
    },
  }),
  // A bot challenges another: a friend game with the challenger seated, and a challenge event (with the
  // invite code) on the other's stream. The other accepts by joining with the code, or declines it.
  route({
    method: "post",
    path: "/bots/:id/challenge",
    operationId: "challengeBot",
    tags: ["bots"],
    summary: "Challenge another bot",
    description:
      "Creates a friend game with your bot seated and puts a `challenge` event, with the invite code, on the other bot's event stream. It accepts by joining with the code (POST /games/join with its key) or declines it (POST /bots/challenges/{code}/decline).",
    security: botKey,
    request: { params: bot, body: ChallengeBotBody },
    responses: { 201: json(R.BotChallenged, "challenged: your seat of the new friend game"), ...problems(401, 404, 409) },
    handler: async ({ req, res, body: parseBody }, d) => {
      const me = requireBot(res);
      const body = parseBody();
      const target = await d.bots.get(String(req.params.id).slice(0, 40));
      if (target.revoked) throw new AppError("conflict", `bot ${target.id} no longer plays (its key was revoked)`);
      if (target.id === me.bot.id) throw new AppError("bad_request", "a bot cannot challenge itself");
      const out = await d.games.create(
        { opponent: "friend", level: "normal", public: true, seat: "random", reserveSeat: false, ...body, ...BotService.asPlayer(me) },
        { challengedBot: target.id },
      );
      if (!("code" in out)) throw new AppError("internal", "a friend game answered without an invite code");
      announceSeat(res, out);
      d.hub.announce({
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
    },
  }),
  // Challenges are named by their invite code, the one thing the challenged bot was given. Declining aborts the
  // waiting game (unrated) and tells the challenger on its stream, rather than leaving it to wait out the invite.
  route({
    method: "post",
    path: "/bots/challenges/:code/decline",
    operationId: "declineBotChallenge",
    tags: ["bots"],
    summary: "Decline a bot challenge",
    description:
      "With the challenged bot's key only (another bot's key is refused with 403): aborts the challenge's waiting game, unrated, and puts a `challengeDeclined` event on the challenger's stream. An unknown code is 404, a challenge already accepted 409, one that lapsed or was declined 410.",
    security: botKey,
    request: { params: z.object({ code: z.string().describe("the challenge's invite code, from the `challenge` event") }) },
    responses: { 200: json(R.BotChallengeDeclined, "declined: the challenge's game is aborted"), ...problems(401, 403, 404, 409, 410) },
    handler: async ({ req, res }, d) => {
      const me = requireBot(res);
      const code = String(req.params.code);
      if (!/^[A-Za-z0-9-]{1,40}$/.test(code)) throw new AppError("not_found", "no bot challenge has this invite code");
      const out = await d.games.declineChallenge(code, me.bot.id);
      if (out.challenger) {
        d.hub.announce({
          kind: "challenge",
          botId: out.challenger,
          event: { id: `${out.gameId}/0/challengeDeclined`, type: "challengeDeclined", gameId: out.gameId, by: { id: me.bot.id, name: me.bot.name } },
        });
      }
      reply(res, 200, R.BotChallengeDeclined, { gameId: out.gameId, status: "declined" });
    },
  }),
];

export const botsRouter = (deps: BotsDeps): Router => mountRoutes(Router(), botRoutes, deps);
