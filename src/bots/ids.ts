/** Identifiers of bot accounts: the profile id says it is a bot's, so every seat a bot takes shows it. */
import { randomBytes } from "node:crypto";
import { newFriendCode } from "../games/secrets";

export const BOT_KEY_PREFIX = "bk_";
/** A bot's key: 256 random bits, stored only as its sha256 hash. */
export const newBotKey = (): string => `${BOT_KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
/** A bot's id, which is also its profile's: "BOT-" and a friend code's letters, e.g. "BOT-7K2QXM4R". */
export const newBotId = (): string => `BOT-${newFriendCode().slice(2)}`;
export const isBotId = (playerId: string): boolean => playerId.startsWith("BOT-");

/** Reads `Authorization: Bearer bk_...`; undefined when the header carries no bot key. */
export function botKeyOf(header: string | undefined): string | undefined {
  const m = /^Bearer\s+(bk_[A-Za-z0-9_-]{16,128})\s*$/.exec(header ?? "");
  return m ? m[1] : undefined;
}
