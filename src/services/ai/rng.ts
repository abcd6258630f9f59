/**
 * Seeded randomness for the house opponent. Everything random in src/services/ai goes through here so that a game
 * between two AIs is reproducible from its seeds (no Math.random, no clock).
 */
import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";

export type Rng = ReturnType<typeof xoroshiro128plus>;

/** A generator from any integer seed (folded to 32 bits, as pure-rand expects). */
export function makeRng(seed: number): Rng {
  return xoroshiro128plus(Math.trunc(seed) | 0);
}

/** Uniform integer in [lo, hi] (inclusive). */
export function randInt(rng: Rng, lo: number, hi: number): number {
  return uniformInt(rng, lo, hi);
}

/** Uniform float in [0, 1) with 2^-24 resolution: plenty for noise and tie-breaks. */
export function rand01(rng: Rng): number {
  return uniformInt(rng, 0, 0xffffff) / 0x1000000;
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[randInt(rng, 0, items.length - 1)];
}

/** Fisher-Yates on a copy. */
export function shuffled<T>(rng: Rng, items: readonly T[]): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = randInt(rng, 0, i);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** Mixes two integers into a new 32-bit seed (so per-move seeds do not collide across games). */
export function mixSeed(a: number, b: number): number {
  let h = (Math.imul(a | 0, 0x9e3779b1) ^ (b | 0)) | 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}
