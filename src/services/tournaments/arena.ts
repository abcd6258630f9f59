/**
 * Arena scoring and pairing (lichess arena as the anchor), as pure functions.
 * Win 2, draw 1, loss 0; a player with two wins in a row is "on fire" and each further win counts 4 until a
 * game is not won. A player who finishes goes back to the waiting pool and is paired at once with the waiting
 * player closest in tournament score, then rating, but never with the opponent of their previous game.
 */

export type ArenaResult = "win" | "draw" | "loss";

export interface ArenaPlayer {
  id: string;
  rating: number;
  score: number;
  /** Wins in a row up to now. */
  streak: number;
  /** Opponent of the last game, whom the next pairing avoids. */
  lastOpponent?: string;
  /** Results in order, for standings and replays of the scoring. */
  results: ArenaResult[];
}

/** A fresh entrant. */
export function newArenaPlayer(id: string, rating: number): ArenaPlayer {
  return { id, rating, score: 0, streak: 0, results: [] };
}

/** Points one result is worth given the wins in a row before it. */
export function arenaPoints(result: ArenaResult, streakBefore: number): number {
  if (result === "win") return streakBefore >= 2 ? 4 : 2;
  return result === "draw" ? 1 : 0;
}

/** The player after a finished game against `opponent`. */
export function recordResult(p: ArenaPlayer, opponent: string, result: ArenaResult): ArenaPlayer {
  return {
    ...p,
    score: p.score + arenaPoints(result, p.streak),
    streak: result === "win" ? p.streak + 1 : 0,
    lastOpponent: opponent,
    results: [...p.results, result],
  };
}

/** Replays a result list into a score: the independent check of `recordResult`'s running total. */
export function arenaScore(results: readonly ArenaResult[]): number {
  let score = 0;
  let streak = 0;
  for (const r of results) {
    score += arenaPoints(r, streak);
    streak = r === "win" ? streak + 1 : 0;
  }
  return score;
}

const canMeet = (a: ArenaPlayer, b: ArenaPlayer): boolean => a.lastOpponent !== b.id && b.lastOpponent !== a.id;

/**
 * Pairs the waiting pool, longest-waiting first (the order given): each takes the eligible waiting player closest
 * in score, then rating, then waiting order. Returns the pairs (longest-waiting player first) and who still waits.
 */
export function pairArena(waiting: readonly ArenaPlayer[]): { pairs: [ArenaPlayer, ArenaPlayer][]; left: ArenaPlayer[] } {
  const pool = [...waiting];
  const pairs: [ArenaPlayer, ArenaPlayer][] = [];
  const left: ArenaPlayer[] = [];
  while (pool.length > 0) {
    const p = pool.shift()!;
    let best = -1;
    for (let i = 0; i < pool.length; i++) {
      const q = pool[i];
      if (!canMeet(p, q)) continue;
      if (best < 0) {
        best = i;
        continue;
      }
      const b = pool[best];
      const d = Math.abs(q.score - p.score) - Math.abs(b.score - p.score) || Math.abs(q.rating - p.rating) - Math.abs(b.rating - p.rating);
      if (d < 0) best = i;
    }
    if (best < 0) left.push(p);
    else pairs.push([p, pool.splice(best, 1)[0]]);
  }
  return { pairs, left };
}

/** A player's arena record replayed from the games: the player, plus games played and first moves. */
export interface ArenaStanding extends ArenaPlayer {
  games: number;
  firsts: number;
  playing: boolean;
}

/** An arena game as the replay counts it: its pairing (first mover first) and outcome, none while under way. */
export interface ArenaGameResult {
  first: string;
  second: string;
  outcome?: "first" | "second" | "draw" | null;
}

/**
 * Replays the games, in the order paired (a player's games never overlap), into each entrant's record: what the
 * server's table and the public log's verifier (src/services/log/verify-tables.ts) both compute an arena's standings from.
 */
export function replayArena(entrants: readonly { playerId: string; rating: number }[], games: readonly ArenaGameResult[]): Map<string, ArenaStanding> {
  const out = new Map<string, ArenaStanding>(
    entrants.map((e) => [e.playerId, { ...newArenaPlayer(e.playerId, e.rating), games: 0, firsts: 0, playing: false }]),
  );
  for (const g of games) {
    const [a, b] = [out.get(g.first), out.get(g.second)];
    if (!a || !b) throw new Error(`an arena game of ${g.first} and ${g.second}, who are not both entrants`);
    a.firsts += 1;
    if (!g.outcome) {
      a.playing = b.playing = true;
      continue;
    }
    const [ra, rb]: [ArenaResult, ArenaResult] = g.outcome === "draw" ? ["draw", "draw"] : g.outcome === "first" ? ["win", "loss"] : ["loss", "win"];
    out.set(g.first, { ...a, ...recordResult(a, g.second, ra), games: a.games + 1 });
    out.set(g.second, { ...b, ...recordResult(b, g.first, rb), games: b.games + 1 });
  }
  return out;
}

/** Arena standings: score, then rating, then id. */
export function arenaStandings(players: readonly ArenaPlayer[]): (ArenaPlayer & { rank: number })[] {
  return [...players]
    .sort((a, b) => b.score - a.score || b.rating - a.rating || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((p, i) => ({ ...p, rank: i + 1 }));
}
