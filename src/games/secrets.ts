/**
 * Identifiers and secrets. Player tokens carry 256 random bits and are stored only as sha256 hashes;
 * comparison is constant-time. Codes meant for people avoid look-alike characters.
 */
import { randomBytes, randomInt } from "node:crypto";
import { SEED_BYTES } from "../game/seed";
import { safeEqualHex, sha256Hex } from "../store";

export { sha256Hex };

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
 * that nothing a seat sees of the deal narrows it down (src/game/seed.ts).
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
