/**
 * Rules versions. A game is played to its end under the version it was created with, and that version is
 * part of its record: replays, the verifier, reviews and rebuilding a live game from the store all read it,
 * so a rule change never alters a game already stored. Records and replays written before versions existed
 * carry none and were played under version 1.
 *
 *   1  the original rules: the seat that moves second places the last card, which nothing can answer, and
 *      wins about three decided games in four between equal players.
 *   2  seat compensation (docs/RULES.md, "Seat balance"): the first mover starts with one card more in classic
 *      and two more in mutators, and a full board with equal scores goes to the first mover, not a draw.
 *   3  as 2, and in mutators the last placement of the game (the one nothing can answer) does not apply the
 *      plus mutator (docs/RULES.md, "Seat balance"); classic plays exactly as in version 2.
 *   4  as 3, dealt differently (docs/RULES.md, "The deal"): the seed is 128 bits from the OS's secure generator
 *      and the deal is drawn from HMAC-SHA-256 keyed by it, so no seat can recover the seed from what it sees.
 *      Versions 1-3 drew their deal from xoroshiro128+ over a 31-bit seed, which a seat could find by trying
 *      every seed against its own hand.
 */
import type { Mutator, Ruleset, RulesVersion } from "./types";

export const RULES_VERSIONS: readonly RulesVersion[] = [1, 2, 3, 4];
/** The version new games are created with. */
export const CURRENT_RULES_VERSION: RulesVersion = 4;
/** The version of a record or replay that names none: everything stored before rules were versioned. */
export const UNVERSIONED: RulesVersion = 1;

/** What differs between versions; everything else is the same in all of them. */
export interface VersionRules {
  /**
   * Cards the first mover is dealt beyond the second mover's, from the top of the pile after the deal. More
   * in mutators, where the last card's chains and twists are worth more to the seat that places it.
   */
  firstMoverExtraCards: Record<Ruleset, number>;
  /** A full board with equal scores is won by the first mover (otherwise it is a draw). */
  tieGoesToFirstMover: boolean;
  /**
   * Mutators that do not apply to the game's last placement (the 16th, always the second mover's): they are
   * what makes that unanswerable card worth more in mutators. Every other placement uses all of them.
   */
  lastPlacementWithout: readonly Mutator[];
  /**
   * How the deal is drawn from the seed (src/engine/seed.ts): "xoroshiro128plus" from an integer seed 0..2^31-1,
   * "hmac-sha256" from a 128-bit seed written as 32 lowercase hex digits.
   */
  deal: DealGenerator;
}

export type DealGenerator = "xoroshiro128plus" | "hmac-sha256";

const RULES: Record<RulesVersion, VersionRules> = {
  1: { firstMoverExtraCards: { classic: 0, mutators: 0 }, tieGoesToFirstMover: false, lastPlacementWithout: [], deal: "xoroshiro128plus" },
  2: { firstMoverExtraCards: { classic: 1, mutators: 2 }, tieGoesToFirstMover: true, lastPlacementWithout: [], deal: "xoroshiro128plus" },
  3: { firstMoverExtraCards: { classic: 1, mutators: 2 }, tieGoesToFirstMover: true, lastPlacementWithout: ["plus"], deal: "xoroshiro128plus" },
  4: { firstMoverExtraCards: { classic: 1, mutators: 2 }, tieGoesToFirstMover: true, lastPlacementWithout: ["plus"], deal: "hmac-sha256" },
};

/** Cards dealt to each seat from the pile before the first mover's extra ones; the champion comes on top. */
export const HAND_SIZE = 4;

/** The hands at the start under a version and ruleset, champion included: the first mover's and the second's. */
export function startingHands(version: RulesVersion, ruleset: Ruleset): { first: number; second: number } {
  const second = HAND_SIZE + 1;
  return { first: second + RULES[version].firstMoverExtraCards[ruleset], second };
}

export function rulesOf(version: RulesVersion): VersionRules {
  return RULES[version];
}

export function isRulesVersion(x: unknown): x is RulesVersion {
  return RULES_VERSIONS.includes(x as RulesVersion);
}
