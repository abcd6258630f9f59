/**
 * Seeds and the generators that deal from them (docs/RULES.md, "The deal"). The seed is the game's secret until
 * it ends, so whatever a seat sees of the deal (its hand, the tiles, who moves first) must not let it find the
 * seed: versions 1-3 fail that (an integer below 2^31 drives xoroshiro128+, and trying every seed against one's
 * own hand finds it in about a minute), version 4 keys HMAC-SHA-256 with 128 random bits.
 *
 * Both generators hand out integers in a range through `DealDraw`, so newGame draws the deal in the same order
 * whichever one the version names.
 */
import { createHash, createHmac } from "node:crypto";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import { uniformInt } from "pure-rand/distribution/uniformInt";
import { RULES_VERSIONS, rulesOf } from "./versions";
import type { RulesVersion, Seed } from "./types";

/** The largest integer seed of versions 1-3. */
export const MAX_SEED = 2 ** 31 - 1;
/** Bytes of a version 4 seed (32 hex digits). */
export const SEED_BYTES = 16;
/** The HMAC message prefix of the version 4 deal: a block is HMAC-SHA-256(seed, DEAL_LABEL || counter). */
export const DEAL_LABEL = "tile-arena/deal/v4";
/** What a number n given to self-play and simulations stands for under version 4 (numberedSeed). */
export const NUMBERED_SEED_LABEL = "tile-arena/selfplay/";

/** The form of a version 4 seed. */
export const HEX_SEED = /^[0-9a-f]{32}$/;

/** An integer 0..hi-lo added to lo, uniform; hi >= lo. */
export type DealDraw = (lo: number, hi: number) => number;

/**
 * Why `seed` cannot deal a game of `version`, or null when it can: the one check of a seed's form, used by the
 * engine, the replay verifier and everything that accepts a seed from outside.
 */
export function seedProblem(version: RulesVersion, seed: unknown): string | null {
  if (rulesOf(version).deal === "hmac-sha256") {
    return typeof seed === "string" && HEX_SEED.test(seed) ? null : `must be ${SEED_BYTES * 2} lowercase hex digits under rules version ${version}`;
  }
  return Number.isInteger(seed) && (seed as number) >= 0 && (seed as number) <= MAX_SEED ? null : `must be an integer 0..2^31-1 under rules version ${version}`;
}

/**
 * The version a game dealt from an already drawn seed is created under: `current` when the seed has its form, else
 * the newest version whose seeds look like it. A league drew its deals' seeds when it started; one started under
 * version 3 holds integer seeds, and its games, created later, are played under version 3.
 */
export function versionForSeed(seed: Seed, current: RulesVersion): RulesVersion {
  if (seedProblem(current, seed) === null) return current;
  const fits = RULES_VERSIONS.filter((v) => seedProblem(v, seed) === null);
  if (fits.length === 0) throw new Error(`versionForSeed: ${JSON.stringify(seed)} is no version's seed`);
  return fits[fits.length - 1];
}

/**
 * The version 4 seed a number stands for, so that self-play, simulations and tests stay reproducible from small
 * numbers: the first 16 bytes of sha256("tile-arena/selfplay/" + n), as hex. Never for a played game's deal:
 * anyone can compute it (the service draws its seeds with newSeed, and creates a game from an integer seed only
 * under a version with integer seeds: versionForSeed).
 */
export function numberedSeed(n: number): string {
  return createHash("sha256").update(`${NUMBERED_SEED_LABEL}${n}`).digest().subarray(0, SEED_BYTES).toString("hex");
}

/** A placeholder seed of a version, for a state whose seed is unknown (a seat's guess at the hidden cards). */
export function unknownSeed(version: RulesVersion): Seed {
  return rulesOf(version).deal === "hmac-sha256" ? "0".repeat(SEED_BYTES * 2) : 0;
}

/**
 * The 32-bit words of the version 4 deal, in order: block i (i = 0, 1, ...) is HMAC-SHA-256 keyed by the seed's 16
 * bytes over the ASCII label followed by i as 4 bytes big-endian; each block gives 8 words, read big-endian.
 */
export function dealWords(seed: string): () => number {
  const key = Buffer.from(seed, "hex");
  let block = Buffer.alloc(0);
  let counter = 0;
  let at = 0;
  return () => {
    if (at === block.length) {
      const msg = Buffer.alloc(DEAL_LABEL.length + 4);
      msg.write(DEAL_LABEL, "ascii");
      msg.writeUInt32BE(counter++, DEAL_LABEL.length);
      block = createHmac("sha256", key).update(msg).digest();
      at = 0;
    }
    const w = block.readUInt32BE(at);
    at += 4;
    return w;
  };
}

/**
 * Integers in [lo, hi] from 32-bit words without modulo bias: with n = hi - lo + 1, words at or above
 * 2^32 - (2^32 mod n) are thrown away and the next is read; otherwise lo + word mod n. Every call reads at least
 * one word.
 */
export function uniformFrom(word: () => number): DealDraw {
  return (lo, hi) => {
    const n = hi - lo + 1;
    const limit = 2 ** 32 - (2 ** 32 % n);
    for (;;) {
      const w = word();
      if (w < limit) return lo + (w % n);
    }
  };
}

/**
 * The seed a game of `version` given `seed` records and is dealt from: `seed` itself, except that under version 4 a
 * number n stands for numberedSeed(n) (self-play, simulations and tests name their deals by numbers).
 */
export function gameSeed(version: RulesVersion, seed: Seed): Seed {
  return rulesOf(version).deal === "hmac-sha256" && typeof seed === "number" ? numberedSeed(seed) : seed;
}

/**
 * The deal's generator for a game of `version` from its recorded seed (gameSeed): a version 4 seed must have its
 * form (seedProblem); versions 1-3 take any number.
 */
export function dealDraw(version: RulesVersion, seed: Seed): DealDraw {
  // The service and the verifier only pass seeds they checked; anything else is a programming error.
  if (rulesOf(version).deal === "hmac-sha256") {
    const problem = seedProblem(version, seed);
    if (problem) throw new Error(`newGame: the seed ${JSON.stringify(seed)} ${problem}`);
    return uniformFrom(dealWords(seed as string));
  }
  // Versions 1-3 fold any number into 32 bits, as they always have.
  if (typeof seed !== "number") throw new Error(`newGame: the seed ${JSON.stringify(seed)} must be a number under rules version ${version}`);
  const rng = xoroshiro128plus(seed | 0);
  return (lo, hi) => uniformInt(rng, lo, hi);
}
