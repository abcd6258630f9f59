/**
 * Checks a public entry on its own: its format, its seats' ratings well formed (format 2 only), its seed and
 * salt against its commitment, and its actions, re-simulated from the seed, against the result it states. What
 * the verifier (src/cli/log-verify.ts) runs on every entry.
 */
import { commitmentOf, rebuild } from "../../engine";
import { isRulesVersion } from "../../engine/versions";
import type { ChampionId, Seat } from "../../engine/types";
import { otherSeat } from "../../engine";
import { HOUSE_RATING, houseRated, rateSeat, scoreOf, type Rated } from "../players/rating";
import { ENTRY_FORMATS, type EntryRating, type GameEntry } from "./entry";

export type EntryCheck = { ok: true } | { ok: false; field: string; detail: string };

/** A rating of format 2 (rating and rd) or of format 3 (and the volatility). */
const isRating = (r: EntryRating | undefined, format: number): r is EntryRating =>
  r !== undefined &&
  Number.isFinite(r.rating) &&
  Number.isFinite(r.rd) &&
  r.rd > 0 &&
  (format < 3 ? Object.keys(r).length === 2 : Object.keys(r).length === 3 && Number.isFinite(r.volatility) && r.volatility! > 0);

const asRated = (r: EntryRating): Rated => ({ rating: r.rating, rd: r.rd, volatility: r.volatility! });
const same = (a: EntryRating, b: EntryRating): boolean => a.rating === b.rating && a.rd === b.rd && a.volatility === b.volatility;
const STEP_FIELDS = ["opponentBefore", "houseLevel", "ratingScore", "ratingStep", "previousStep", "previousGame"] as const;

/**
 * A seat's ratings: none, or both before and after (format 2 on: a format 2 entry's are checked for shape only).
 * A format 3 seat's step is recomputed with the server's own rating step (rateSeat) from its before-values, the
 * opponent's and the score, and must give its after-values exactly; the score must follow from the winner, a
 * house opponent must be at its level's fixed rating, and a rated opponent's before-values must be its own.
 */
function checkRatings(e: GameEntry): EntryCheck {
  for (const seat of ["A", "B"] as const) {
    const s = e.seats[seat];
    if (!s || (s.ratingBefore === undefined && s.ratingAfter === undefined && STEP_FIELDS.every((f) => s[f] === undefined))) continue;
    const field = `seats.${seat}`;
    const who = `player ${s.playerId}:`;
    if (e.format === 1) return { ok: false, field, detail: "a format 1 entry carries no ratings" };
    if (!isRating(s.ratingBefore, e.format) || !isRating(s.ratingAfter, e.format))
      return {
        ok: false,
        field,
        detail: `${who} a rated seat has both ratingBefore and ratingAfter, each a finite rating and a positive rd${e.format >= 3 ? " and volatility" : ""}`,
      };
    if (e.format < 3) {
      if (STEP_FIELDS.some((f) => s[f] !== undefined)) return { ok: false, field, detail: `${who} a format ${e.format} entry carries no rating step` };
      continue;
    }
    const other = e.seats[otherSeat(seat)];
    if (!isRating(s.opponentBefore, 3)) return { ok: false, field, detail: `${who} opponentBefore is not a rating with a volatility` };
    if (!Number.isInteger(s.ratingStep) || s.ratingStep! < 1) return { ok: false, field, detail: `${who} ratingStep is not a positive integer` };
    if (s.previousStep !== undefined && (!Number.isInteger(s.previousStep) || s.previousStep < 0 || s.previousStep >= s.ratingStep!))
      return { ok: false, field, detail: `${who} previousStep is not an earlier step` };
    if ((s.previousGame !== undefined) !== (s.previousStep !== undefined && s.previousStep > 0))
      return { ok: false, field, detail: `${who} previousGame names the game of an earlier step, and only that` };
    if (s.ratingScore !== scoreOf(e.winner, seat))
      return { ok: false, field, detail: `${who} ratingScore ${s.ratingScore} is not the score of winner ${String(e.winner)}` };
    if (!other || other.kind === "house") {
      if (s.houseLevel === undefined || !(s.houseLevel in HOUSE_RATING)) return { ok: false, field, detail: `${who} a game against the house names its level` };
      if (!same(s.opponentBefore, houseRated(s.houseLevel)))
        return { ok: false, field, detail: `${who} opponentBefore is not the fixed rating of house level ${s.houseLevel}` };
    } else {
      if (s.houseLevel !== undefined) return { ok: false, field, detail: `${who} houseLevel names a house player the game did not have` };
      if (other.ratingBefore && !same(s.opponentBefore, other.ratingBefore))
        return { ok: false, field, detail: `${who} opponentBefore is not the opponent's ratingBefore` };
    }
    const after = rateSeat(asRated(s.ratingBefore), asRated(s.opponentBefore), s.ratingScore);
    if (!same(after, s.ratingAfter))
      return { ok: false, field, detail: `${who} ratingAfter is not the Glicko-2 step from its ratingBefore (expected ${JSON.stringify(after)})` };
  }
  return { ok: true };
}

export function checkEntry(e: GameEntry): EntryCheck {
  if (!ENTRY_FORMATS.includes(e.format)) return { ok: false, field: "format", detail: `${String(e.format)} is not a known entry format` };
  const ratings = checkRatings(e);
  if (!ratings.ok) return ratings;
  // The seed is hashed as the record writes it (`${seed}:${salt}`), whatever its type.
  if (commitmentOf(e.seed, e.salt) !== e.commitment) return { ok: false, field: "commitment", detail: "sha256 of seed:salt does not match the commitment" };
  if (!isRulesVersion(e.rulesVersion)) return { ok: false, field: "rulesVersion", detail: `${e.rulesVersion} is not a known rules version` };
  // A game aborted while it waited for its players never began (its abort is a record write, not an action):
  // nothing to re-simulate.
  if (e.actions.length === 0 && e.decidedBy === "aborted")
    return e.winner === null ? { ok: true } : { ok: false, field: "winner", detail: "an aborted game has no winner" };
  if (!e.seats.A || !e.seats.B) return { ok: false, field: "seats", detail: "a game that began has both seats" };
  const champions: Partial<Record<Seat, ChampionId>> = {};
  for (const seat of ["A", "B"] as const) if (e.seats[seat]?.champion) champions[seat] = e.seats[seat].champion;
  const res = rebuild({ ruleset: e.ruleset, seed: e.seed, salt: e.salt, options: { ruleset: e.ruleset, rulesVersion: e.rulesVersion, champions } }, e.actions);
  if (!res.ok) return { ok: false, field: "actions", detail: `an action is refused on re-simulation: ${res.detail}` };
  const s = res.state;
  if (s.status !== "finished") return { ok: false, field: "actions", detail: "the actions do not finish the game" };
  if (s.score.A !== e.score.A || s.score.B !== e.score.B) return { ok: false, field: "score", detail: `expected ${JSON.stringify(s.score)}` };
  if (s.winner !== e.winner) return { ok: false, field: "winner", detail: `expected ${JSON.stringify(s.winner)}` };
  if (s.decidedBy !== e.decidedBy) return { ok: false, field: "decidedBy", detail: `expected ${s.decidedBy}` };
  return { ok: true };
}
