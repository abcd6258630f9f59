/**
 * Swiss pairing, scoring and tie-breaks as pure functions over the tournament's history.
 *
 * No maintained npm library fits: `tournament-pairings` is GPL-3.0 (this project is MIT) and `swiss-pairing`
 * has no colour (seat) allocation. So the pairing is ours: a simplified Dutch system. Players are ranked by
 * score then rating; within a score group the top half meets the bottom half; a backtracking search finds a
 * perfect matching with no repeated pairing and no player getting the same seat three times running or a seat
 * difference above 2 (FIDE's absolute colour criteria), relaxing the seat rule and only then the repeat rule
 * when no such matching exists. Seat "first" is the first mover (seat A), FIDE's white.
 */

/** Result of one game, named by the seat that won. */
export type PairingResult = "first" | "second" | "draw";

export interface SwissPlayer {
  id: string;
  rating: number;
}

export interface Pairing {
  first: string;
  second: string;
  /** Absent while the game is running. */
  outcome?: PairingResult;
}

export interface SwissRound {
  pairings: Pairing[];
  /** The player who sits out this round and scores a full point. */
  bye?: string;
}

type Colour = "w" | "b";

/** What the history says about one player. */
export interface PlayerRecord {
  id: string;
  rating: number;
  score: number;
  opponents: string[];
  colours: Colour[];
  byes: number;
}

export interface Standing extends PlayerRecord {
  rank: number;
  buchholz: number;
  sonnebornBerger: number;
}

/** Points a seat takes from an outcome: win 1, draw 1/2, loss 0. A bye is worth 1. */
export function points(outcome: PairingResult, seat: "first" | "second"): number {
  if (outcome === "draw") return 0.5;
  return outcome === seat ? 1 : 0;
}

/** Folds the rounds into one record per player (players absent from `players` are ignored). */
export function records(players: readonly SwissPlayer[], rounds: readonly SwissRound[]): Map<string, PlayerRecord> {
  const out = new Map<string, PlayerRecord>();
  for (const p of players) out.set(p.id, { id: p.id, rating: p.rating, score: 0, opponents: [], colours: [], byes: 0 });
  for (const round of rounds) {
    if (round.bye !== undefined) {
      const r = out.get(round.bye);
      if (r) {
        r.byes += 1;
        r.score += 1;
      }
    }
    for (const g of round.pairings) {
      const a = out.get(g.first);
      const b = out.get(g.second);
      if (a) {
        a.opponents.push(g.second);
        a.colours.push("w");
        if (g.outcome) a.score += points(g.outcome, "first");
      }
      if (b) {
        b.opponents.push(g.first);
        b.colours.push("b");
        if (g.outcome) b.score += points(g.outcome, "second");
      }
    }
  }
  return out;
}

function rankOrder(a: PlayerRecord, b: PlayerRecord): number {
  return b.score - a.score || b.rating - a.rating || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

function colourDiff(r: PlayerRecord): number {
  let d = 0;
  for (const c of r.colours) d += c === "w" ? 1 : -1;
  return d;
}

/** The colour a player must get (FIDE absolute preference), if any. */
function mustHave(r: PlayerRecord): Colour | undefined {
  const d = colourDiff(r);
  const n = r.colours.length;
  const lastTwo = n >= 2 && r.colours[n - 1] === r.colours[n - 2] ? r.colours[n - 1] : undefined;
  if (d >= 2 || lastTwo === "w") return "b";
  if (d <= -2 || lastTwo === "b") return "w";
  return undefined;
}

/** Who moves first in a pair: the lower seat balance, then whoever last moved second, then the higher ranked. */
function allocate(a: PlayerRecord, b: PlayerRecord): Pairing {
  const ma = mustHave(a);
  const mb = mustHave(b);
  if (ma === "w" || mb === "b") return { first: a.id, second: b.id };
  if (ma === "b" || mb === "w") return { first: b.id, second: a.id };
  const da = colourDiff(a);
  const db = colourDiff(b);
  if (da !== db) return da < db ? { first: a.id, second: b.id } : { first: b.id, second: a.id };
  const la = a.colours.at(-1);
  const lb = b.colours.at(-1);
  if (la !== lb) return la === "b" || lb === "w" ? { first: a.id, second: b.id } : { first: b.id, second: a.id };
  return rankOrder(a, b) <= 0 ? { first: a.id, second: b.id } : { first: b.id, second: a.id };
}

interface Rules {
  noRepeat: boolean;
  seats: boolean;
}

/** Search steps before a rule set is given up for a looser one; keeps a 1,000-player round bounded. */
const BUDGET = 200_000;

function match(order: PlayerRecord[], rules: Rules): [PlayerRecord, PlayerRecord][] | undefined {
  const groupOf = new Map<string, { start: number; size: number }>();
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j < order.length && order[j].score === order[i].score) j++;
    for (let k = i; k < j; k++) groupOf.set(order[k].id, { start: i, size: j - i });
    i = j;
  }
  const used = new Array<boolean>(order.length).fill(false);
  const pairs: [PlayerRecord, PlayerRecord][] = [];
  let steps = 0;

  const allowed = (a: PlayerRecord, b: PlayerRecord): boolean => {
    if (rules.noRepeat && a.opponents.includes(b.id)) return false;
    if (rules.seats) {
      const ma = mustHave(a);
      if (ma !== undefined && ma === mustHave(b)) return false;
    }
    return true;
  };

  const candidates = (i: number): number[] => {
    const p = order[i];
    const g = groupOf.get(p.id)!;
    // Dutch fold: within the group, rank r of the top half meets rank r of the bottom half.
    const ideal = g.start + ((i - g.start + Math.floor(g.size / 2)) % Math.max(g.size, 1));
    const list: number[] = [];
    for (let j = 0; j < order.length; j++) if (j !== i && !used[j]) list.push(j);
    return list.sort((x, y) => Math.abs(order[x].score - p.score) - Math.abs(order[y].score - p.score) || Math.abs(x - ideal) - Math.abs(y - ideal) || x - y);
  };

  const solve = (): boolean => {
    const i = used.indexOf(false);
    if (i < 0) return true;
    if (++steps > BUDGET) return false;
    used[i] = true;
    for (const j of candidates(i)) {
      if (!allowed(order[i], order[j])) continue;
      used[j] = true;
      pairs.push([order[i], order[j]]);
      if (solve()) return true;
      pairs.pop();
      used[j] = false;
      if (steps > BUDGET) break;
    }
    used[i] = false;
    return false;
  };
  return solve() ? pairs : undefined;
}

/**
 * Pairs the next round for `players` (the ones still in) given the rounds played so far.
 * With an odd count the lowest-ranked player who has not had a bye sits out.
 */
export function pairRound(players: readonly SwissPlayer[], rounds: readonly SwissRound[]): SwissRound {
  const recs = records(players, rounds);
  const order = [...recs.values()].sort(rankOrder);
  const levels: Rules[] = [
    { noRepeat: true, seats: true },
    { noRepeat: true, seats: false },
    { noRepeat: false, seats: false },
  ];
  const byeCandidates: (PlayerRecord | undefined)[] = order.length % 2 === 0 ? [undefined] : [...order].reverse().sort((a, b) => a.byes - b.byes); // stable: lowest ranked first among fewest byes
  for (const rules of levels) {
    for (const bye of byeCandidates) {
      const rest = bye ? order.filter((r) => r !== bye) : order;
      const pairs = match(rest, rules);
      if (!pairs) continue;
      const round: SwissRound = { pairings: pairs.map(([a, b]) => allocate(a, b)) };
      if (bye) round.bye = bye.id;
      return round;
    }
  }
  throw new Error("unreachable: pairing without rules always succeeds");
}

/** Standings with Buchholz (sum of opponents' scores) and Sonneborn-Berger (beaten opponents' scores plus
 * half of drawn ones'); a bye adds nothing to either. Sorted by score, Buchholz, Sonneborn-Berger, rating. */
export function standings(players: readonly SwissPlayer[], rounds: readonly SwissRound[]): Standing[] {
  const recs = records(players, rounds);
  const scoreOf = (id: string): number => recs.get(id)?.score ?? 0;
  const sb = new Map<string, number>();
  for (const round of rounds) {
    for (const g of round.pairings) {
      if (!g.outcome) continue;
      sb.set(g.first, (sb.get(g.first) ?? 0) + points(g.outcome, "first") * scoreOf(g.second));
      sb.set(g.second, (sb.get(g.second) ?? 0) + points(g.outcome, "second") * scoreOf(g.first));
    }
  }
  const rows = [...recs.values()].map((r) => ({
    ...r,
    rank: 0,
    buchholz: r.opponents.reduce((s, o) => s + scoreOf(o), 0),
    sonnebornBerger: sb.get(r.id) ?? 0,
  }));
  rows.sort((a, b) => b.score - a.score || b.buchholz - a.buchholz || b.sonnebornBerger - a.sonnebornBerger || rankOrder(a, b));
  rows.forEach((r, i) => {
    r.rank = i + 1;
  });
  return rows;
}
