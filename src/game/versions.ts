/**
 * Rules versions. A game is played to its end under the version it was created with, and that version is
 * part of its record: replays, the verifier, reviews and rebuilding a live game from the store all read it,
 * so a rule change never alters a game already stored. Records and replays written before versions existed
 * carry none and were played under version 1.
 */
export type RulesVersion = 1;
export const RULES_VERSIONS: readonly RulesVersion[] = [1];
/** The version new games are created with. */
export const CURRENT_RULES_VERSION: RulesVersion = 1;
/** The version of a record or replay that names none: everything stored before rules were versioned. */
export const UNVERSIONED: RulesVersion = 1;

export function isRulesVersion(x: unknown): x is RulesVersion {
  return RULES_VERSIONS.includes(x as RulesVersion);
}
