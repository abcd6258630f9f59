/**
 * Checks a public entry on its own: its seed and salt against its commitment, and its actions, re-simulated
 * from the seed, against the result it states. What the verifier (src/cli/log-verify.ts) runs on every entry.
 */
import { commitmentOf, rebuild } from "../game";
import { isRulesVersion } from "../game/versions";
import type { ChampionId, Seat } from "../game/types";
import type { GameEntry } from "./entry";

export type EntryCheck = { ok: true } | { ok: false; field: string; detail: string };

export function checkEntry(e: GameEntry): EntryCheck {
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
