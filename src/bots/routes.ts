/**
 * REST routes of bot accounts: register (the key is answered once), read, revoke. `botAuth` reads a bot
 * key on any /api request and leaves the bot in `res.locals.bot`; an unknown or revoked key is refused.
 */
import { Router, type Request, type RequestHandler, type Response } from "express";
import { z } from "zod";
import { AppError } from "../errors";
import { NameSchema } from "../games/schemas";
import { parse } from "../validation";
import { botKeyOf } from "./ids";
import { BotService, type AuthedBot } from "./service";

export const RegisterBotBody = z
  .object({
    name: NameSchema.describe("the bot's name, shown on boards and leaderboards"),
    owner: z.string().trim().min(1).max(200).optional().describe("how to reach the bot's owner (an email address or a URL)"),
  })
  .strict();

/** Refuses an unknown or revoked bot key; a valid one leaves the bot in `res.locals.bot`. */
export function botAuth(bots: BotService): RequestHandler {
  return async (req, res, next) => {
    const key = botKeyOf(req.get("authorization"));
    if (key && !res.locals.bot) res.locals.bot = await bots.authenticate(key);
    next();
  };
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

export function botsRouter(bots: BotService): Router {
  const r = Router();
  r.post("/bots", async (req, res) => {
    const out = await bots.register(parse(RegisterBotBody, req.body, "body"));
    res.status(201).location(out.bot.url).json(out);
  });
  r.get("/bots/me", async (_req, res) => {
    res.json(await bots.publicBot(requireBot(res).bot));
  });
  r.delete("/bots/me", async (_req, res) => {
    res.json(await bots.revoke(requireBot(res)));
  });
  r.get("/bots/:id", async (req, res) => {
    const id = String(req.params.id);
    if (!/^[A-Za-z0-9_-]{1,40}$/.test(id)) throw new AppError("not_found", `no bot with id ${id.slice(0, 40)}`);
    res.json(await bots.get(id));
  });
  return r;
}
