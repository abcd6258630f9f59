/**
 * The stored shape of a league that both adapters share: the released-deals bit set of its head, and the one
 * conversion of a league stored whole (a schedule inside its document, each deal's `released` flag and each
 * game's `outcome` in it, rewritten at every result) into the head, schedule and results stored today.
 */
import type { LeagueDeal, LeagueOutcome, LeagueRecord, LeagueResult } from "./port";

/** The released deals of a head's `released` bits. */
export function releasedSet(bits: string): Set<number> {
  const bytes = Buffer.from(bits, "base64url");
  const out = new Set<number>();
  for (let i = 0; i < bytes.length * 8; i++) if (bytes[i >> 3] & (1 << (i & 7))) out.add(i);
  return out;
}

/** The `released` bits of a set of deal indices. */
export function releasedBits(released: Iterable<number>, deals: number): string {
  const bytes = Buffer.alloc(Math.ceil(deals / 8));
  for (const i of released) bytes[i >> 3] |= 1 << (i & 7);
  return bytes.toString("base64url");
}

/** A league as it was stored before its schedule and results were kept apart. */
interface WholeLeague extends Omit<LeagueRecord, "progress" | "open" | "released"> {
  schedule: (Omit<LeagueDeal, "games"> & { released?: boolean; games: [WholeGame, WholeGame] })[];
}
type WholeGame = LeagueDeal["games"][number] & { outcome?: LeagueOutcome };

/** Whether a stored league document is one stored whole (its schedule inside it). */
export const isWholeLeague = (doc: object): boolean => "schedule" in doc;

/** Splits a league stored whole into its head, its schedule (null before the start) and its results. */
export function splitWholeLeague(doc: object): { head: LeagueRecord; schedule: LeagueDeal[] | null; results: LeagueResult[] } {
  const { schedule: whole, ...rest } = doc as WholeLeague;
  const at = rest.updatedAt;
  const results: LeagueResult[] = [];
  const released: number[] = [];
  const open: number[] = [];
  let dealsPlayed = 0;
  const schedule = whole.map((d, index): LeagueDeal => {
    const outcomes = d.games.map((g) => g.outcome);
    if (d.released) released.push(index);
    if (outcomes.every((o) => o !== undefined)) dealsPlayed++;
    else if (d.released) open.push(index);
    d.games.forEach((g, slot) => {
      if (g.outcome) results.push({ leagueId: rest.id, gameId: d.games[slot].gameId, deal: index, outcome: g.outcome, at });
    });
    return { a: d.a, b: d.b, deal: d.deal, seed: d.seed, games: [strip(d.games[0]), strip(d.games[1])] };
  });
  const head: LeagueRecord = {
    ...rest,
    progress: { deals: schedule.length, dealsPlayed, games: schedule.length * 2, gamesPlayed: results.length },
    open,
    released: releasedBits(released, schedule.length),
  };
  return { head, schedule: rest.status === "open" ? null : schedule, results };
}

const strip = (g: WholeGame) => ({ first: g.first, second: g.second, gameId: g.gameId });
