/**
 * Seeded games between two house-opponent levels: the strength tests and the selfplay CLI share this loop.
 * Games come in pairs on the same deal with the seats swapped (a is seat A in even games, B in odd), so a
 * lucky deal or first move favours neither side over a pair.
 */
import { apply, newGame, seatView } from "../../engine";
import type { GameState, Ruleset, RulesVersion, Seat } from "../../engine/types";
import { type AiLevel, decide } from "./decide";
import { mixSeed } from "./rng";

export type Side = "a" | "b";

export interface MatchOptions {
  games: number;
  ruleset: Ruleset;
  a: AiLevel;
  b: AiLevel;
  /** Base seed of the match (default 1). */
  seed?: number;
  /** Rules version the games are played under (default: the current one). */
  rulesVersion?: RulesVersion;
}

export interface GameOutcome {
  index: number;
  /** The deal's number: the engine seed under rules versions 1-3; from version 4 the seed is derived from it (numberedSeed). */
  seed: number;
  aSeat: Seat;
  /** The side that won, "draw", or null if the game did not finish. */
  winner: Side | "draw" | null;
  /** The side that moved first (the seed chooses the first seat). */
  first: Side;
  captures: number;
  state: GameState;
}

export interface MatchSummary {
  games: number;
  aWins: number;
  bWins: number;
  draws: number;
  /** Decided games won by the side that moved first, and by the side that moved second. */
  firstWins: number;
  secondWins: number;
  avgCaptures: number;
  gamesPerSecond: number;
}

/** Engine seed of game `index`: both games of a seat-swapped pair share a deal. */
export function dealSeed(base: number, index: number): number {
  return mixSeed(base, Math.floor(index / 2)) >>> 1;
}

/**
 * Plays one game to the end; each seat decides from its own seat view only. `aiSalt` varies the house
 * opponents' own randomness between games on the same deal.
 */
export function playGame(ruleset: Ruleset, seed: number, salt: string, levels: Record<Seat, AiLevel>, aiSalt = 0, rulesVersion?: RulesVersion): GameState {
  let state = newGame({ ruleset, ...(rulesVersion ? { rulesVersion } : {}) }, seed, salt);
  const aiBase = aiSalt === 0 ? seed : mixSeed(seed, aiSalt);
  while (state.status === "active") {
    const seat = state.turn;
    // Distinct, reproducible ai seeds per seat and move.
    const aiSeed = mixSeed(aiBase, state.moves.length * 2 + (seat === "A" ? 0 : 1));
    const move = decide(seatView(state, seat), levels[seat], { seed: aiSeed });
    const res = apply(state, { kind: "place", card: move.card, square: move.square });
    if (!res.ok) throw new Error(`house opponent chose a refused move ${move.card}@${move.square}: ${res.detail}`);
    state = res.state;
  }
  return state;
}

/** Plays game `index` of a match. */
export function playMatchGame(opts: MatchOptions, index: number): GameOutcome {
  const base = opts.seed ?? 1;
  const seed = dealSeed(base, index);
  const aSeat: Seat = index % 2 === 0 ? "A" : "B";
  const levels = aSeat === "A" ? { A: opts.a, B: opts.b } : { A: opts.b, B: opts.a };
  // The two games of a pair share the deal but not the players' own randomness: between equal levels the
  // second game would otherwise repeat the first move for move, seats swapped, and count one game twice.
  const state = playGame(opts.ruleset, seed, `selfplay-${base}-${index}`, levels, index + 1, opts.rulesVersion);
  const winner = state.winner === null ? null : state.winner === "draw" ? "draw" : state.winner === aSeat ? "a" : "b";
  const captures = state.moves.reduce((sum, m) => sum + m.captures, 0);
  const first: Side = state.firstPlayer === aSeat ? "a" : "b";
  return { index, seed, aSeat, winner, first, captures, state };
}

/** Plays a whole match; `onGame` sees each finished game (to save replays, print progress). */
export function runMatch(opts: MatchOptions, onGame?: (g: GameOutcome) => void): MatchSummary {
  const started = process.hrtime.bigint();
  const sum = { aWins: 0, bWins: 0, draws: 0, firstWins: 0, secondWins: 0, captures: 0 };
  for (let i = 0; i < opts.games; i++) {
    const g = playMatchGame(opts, i);
    if (g.winner === "a") sum.aWins++;
    else if (g.winner === "b") sum.bWins++;
    else sum.draws++;
    if (g.winner === g.first) sum.firstWins++;
    else if (g.winner === "a" || g.winner === "b") sum.secondWins++;
    sum.captures += g.captures;
    onGame?.(g);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return {
    games: opts.games,
    aWins: sum.aWins,
    bWins: sum.bWins,
    draws: sum.draws,
    firstWins: sum.firstWins,
    secondWins: sum.secondWins,
    avgCaptures: opts.games === 0 ? 0 : sum.captures / opts.games,
    gamesPerSecond: seconds > 0 ? opts.games / seconds : 0,
  };
}
