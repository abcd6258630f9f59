/**
 * Checks a public entry on its own: its format, its seats' ratings well formed (format 2 only), its seed and
 * salt against its commitment, and its actions, re-simulated from the seed, against the result it states. What
 * the verifier (src/cli/log-verify.ts) runs on every entry.
 */
import { commitmentOf, rebuild } from "../game";
import { isRulesVersion } from "../game/versions";
import type { ChampionId, Seat } from "../game/types";
import { ENTRY_FORMATS, type EntryRating, type GameEntry } from "./entry";

export type EntryCheck = { ok: true } | { ok: false; field: string; detail: string };

const isRating = (r: EntryRating | undefined): boolean =>
  r !== undefined && Number.isFinite(r.rating) && Number.isFinite(r.rd) && r.rd > 0 && Object.keys(r).length === 2;

/** A seat's ratings: none, or both before and after (format 2 only). */
function checkRatings(e: GameEntry): EntryCheck {
  for (const seat of ["A", "B"] as const) {
    const s = e.seats[seat];
    if (!s || (s.ratingBefore === undefined && s.ratingAfter === undefined)) continue;
    const field = `seats.${seat}`;
    if (e.format === 1) return { ok: false, field, detail: "a format 1 entry carries no ratings" };
    if (!isRating(s.ratingBefore) || !isRating(s.ratingAfter))
      return { ok: false, field, detail: "a rated seat has both ratingBefore and ratingAfter, each a finite rating and a positive rd" };
  }
  return { ok: true };
}

export function checkEntry(e: GameEntry): EntryCheck {
  if (!ENTRY_FORMATS.includes(e.format)) return { ok: false, field: "format", detail: `${String(e.format)} is not a known entry format` };
  const ratings = checkRatings(e);
  if (!ratings.ok) return ratings;
  // The seed is hashed as the record writes it (`${seed}:${salt}`), whatever its type.
  if (commitmentOf(e.seed, e.salt) !== e.commitment)
    return { ok: false, field: "commitment", detail: "sha256 of seed:salt does not match the commitment" };
  if (!isRulesVersion(e.rulesVersion)) return { ok: false, field: "rulesVersion", detail: `${e.rulesVersion} is not a known rules version` };
  // A game aborted while it waited for its players never began (its abort is a record write, not an action):
  // nothing to re-simulate.
  if (e.actions.length === 0 && e.decidedBy === "aborted")
    return e.winner === null ? { ok: true } : { ok: false, field: "winner", detail: "an aborted game has no winner" };
  if (!e.seats.A || !e.seats.B) return { ok: false, field: "seats", detail: "a game that began has both seats" };
  const champions: Partial<Record<Seat, ChampionId>> = {};
  for (const seat of ["A", "B"] as const) if (e.seats[seat]?.champion) champions[seat] = e.seats[seat].champion;
  const res = rebuild(
    { ruleset: e.ruleset, seed: e.seed, salt: e.salt, options: { ruleset: e.ruleset, rulesVersion: e.rulesVersion, champions } },
    e.actions,
  );
  if (!res.ok) return { ok: false, field: "actions", detail: `an action is refused on re-simulation: ${res.detail}` };
  const s = res.state;
  if (s.status !== "finished") return { ok: false, field: "actions", detail: "the actions do not finish the game" };
  if (s.score.A !== e.score.A || s.score.B !== e.score.B) return { ok: false, field: "score", detail: `expected ${JSON.stringify(s.score)}` };
  if (s.winner !== e.winner) return { ok: false, field: "winner", detail: `expected ${JSON.stringify(s.winner)}` };
  if (s.decidedBy !== e.decidedBy) return { ok: false, field: "decidedBy", detail: `expected ${s.decidedBy}` };
  return { ok: true };
}
