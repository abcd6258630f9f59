/**
 * Bot accounts: a bot registers once and gets a key (shown once, stored hashed). The key is its profile's
 * secret too, so a game made with it is played under the bot's one profile, rated in the same Glicko-2 pool
 * as people. Revoking the key also replaces the profile's secret, so the key stops working everywhere.
 */
import { randomBytes } from "node:crypto";
import { AppError } from "../../shared/errors";
import { newBotId, newBotKey, sha256Hex } from "../../shared/secrets";
import type { PlayerService } from "../players/service";
import { newProfile } from "../players/new-profile";
import { insertWithFreshId } from "../../store/duplicate";
import type { BotRecord, BotsPort, PlayerRecord, PlayersPort } from "../../store/port";

/** A bot as a request authenticated with its key sees it. */
export interface AuthedBot {
  bot: BotRecord;
  key: string;
}

export class BotService {
  constructor(
    private readonly store: { bots: BotsPort; players: Pick<PlayersPort, "createPlayer" | "getPlayer" | "updatePlayer"> },
    private readonly players: PlayerService,
    private readonly baseUrl: string,
    private readonly now: () => Date = () => new Date(),
    /**
     * The hashed address of the request being served (src/services/players/origin.ts), kept on the bot's profile as
     * on a guest's: bots registered from one address are presumed one owner's, and their games together (or
     * with a guest of that address) are not rated.
     */
    private readonly origin: () => string | undefined = () => undefined,
  ) {}

  /** Registers a bot and its profile; the key is in this answer only. */
  async register(body: { name: string; owner?: string; description?: string }) {
    const key = newBotKey();
    const at = this.now().toISOString();
    const createdFrom = this.origin();
    const profile = (id: string): PlayerRecord =>
      newProfile({ id, name: body.name, kind: "bot", isAccount: true, secretHash: sha256Hex(key) }, at, createdFrom);
    const player = await insertWithFreshId(newBotId, profile, (p) => this.store.players.createPlayer(p));
    const bot: BotRecord = {
      id: player.id,
      name: body.name,
      ...(body.owner ? { owner: body.owner } : {}),
      ...(body.description ? { description: body.description } : {}),
      keyHash: sha256Hex(key),
      createdAt: at,
    };
    await this.store.bots.createBot(bot);
    return { bot: await this.publicBot(bot), key };
  }

  /** The bot a key names; refused when the key is unknown or revoked. */
  async authenticate(key: string): Promise<AuthedBot> {
    const bot = await this.store.bots.findBotByKey(sha256Hex(key));
    if (!bot) throw new AppError("unauthorized", "unknown bot key");
    if (bot.revokedAt) throw new AppError("unauthorized", `this bot key was revoked at ${bot.revokedAt}`);
    return { bot, key };
  }

  /** Revokes the key: the bot, its profile and its games stay; nothing can be started with the key again. */
  async revoke({ bot }: AuthedBot) {
    const at = this.now().toISOString();
    await this.store.bots.updateBot(bot.id, { revokedAt: at });
    await this.store.players.updatePlayer(bot.id, { secretHash: sha256Hex(randomBytes(32).toString("hex")) });
    return { id: bot.id, revokedAt: at };
  }

  /** A bot as anyone may see it, with its profile (rating, games). */
  async publicBot(bot: BotRecord) {
    const p = await this.store.players.getPlayer(bot.id);
    return {
      id: bot.id,
      name: bot.name,
      kind: "bot" as const,
      description: bot.description ?? null,
      createdAt: bot.createdAt,
      revoked: Boolean(bot.revokedAt),
      player: p ? this.players.publicPlayer(p) : null,
      url: `${this.baseUrl}/api/v1/bots/${encodeURIComponent(bot.id)}`,
    };
  }

  async get(id: string) {
    const bot = await this.store.bots.getBot(id);
    if (!bot) throw new AppError("not_found", `no bot with id ${id}`);
    return this.publicBot(bot);
  }

  /** The player reference a keyed request plays as: the bot's profile, its key as the secret. */
  static asPlayer({ bot, key }: AuthedBot) {
    return { player: { id: bot.id, secret: key }, name: bot.name };
  }
}
