/**
 * Identifiers, secrets and their hashes, for every layer: a leaf that imports nothing of the server but the
 * engine's seed size. Player tokens and bot keys carry 256 random bits and are stored only as sha256 hashes;
 * comparison is constant-time. Codes meant for people avoid look-alike characters.
 */
import { createHash, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { SEED_BYTES } from "../engine/seed";

export const sha256Hex = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex");

/** Constant-time comparison of two hex digests; false (not an exception) when the lengths differ. */
export function safeEqualHex(a: string, b: string): boolean {
  const x = Buffer.from(a, "utf8");
  const y = Buffer.from(b, "utf8");
  return x.length === y.length && timingSafeEqual(x, y);
}

const HUMAN_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

function humanCode(length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += HUMAN_ALPHABET[randomInt(HUMAN_ALPHABET.length)];
  return out;
}

/** 96 random bits: a repeat among 10^9 games has odds of about 10^-11. */
export const newGameId = (): string => `g_${randomBytes(12).toString("base64url")}`;
export const newPlayerToken = (): string => `pt_${randomBytes(32).toString("base64url")}`;
export const newPlayerSecret = (): string => `ps_${randomBytes(24).toString("base64url")}`;
/** Invite code for a seat, e.g. "K7MQ2XWD". */
export const newInviteCode = (): string => humanCode(8);
/**
 * Friend code of a player profile, e.g. "P-7K2QXM4R": 31^8 (8.5e11) values, so even at 10^9 profiles a new
 * code repeats an old one about once in 850 draws; the store refuses a repeat and a new code is drawn.
 */
export const newFriendCode = (): string => `P-${humanCode(8)}`;
export const newTicketId = (): string => `qm_${randomBytes(12).toString("base64url")}`;
export const newSalt = (): string => randomBytes(16).toString("hex");
/**
 * A game seed of the current rules version: 128 bits from the OS's secure generator as 32 lowercase hex digits, so
 * that nothing a seat sees of the deal narrows it down (src/engine/seed.ts).
 */
export const newSeed = (): string => randomBytes(SEED_BYTES).toString("hex");

/** Constant-time comparison of two hex digests; false when either is missing. */
export const sameHash = (a: string | undefined, b: string | undefined): boolean => Boolean(a && b && safeEqualHex(a, b));

/** Reads `Authorization: Bearer pt_...`; undefined when absent, null when present but malformed. */
export function bearerToken(header: string | undefined): string | undefined | null {
  if (header === undefined || header === "") return undefined;
  const m = /^Bearer\s+(pt_[A-Za-z0-9_-]{16,128})\s*$/.exec(header);
  return m ? m[1] : null;
}

// Bot accounts: the profile id says it is a bot's, so every seat a bot takes shows it.
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
