/**
 * Game setup from (options, seed, salt). The seeded generator is consumed in one fixed order whatever the
 * options say, so a replay that names the champions re-derives exactly the same pile, tiles and mutators:
 *   1. shuffle the catalogue (Fisher-Yates), 2. two chess tiles, 3. first player, 4. two champion draws,
 *   5. (mutators ruleset only) two mutators, then (elemental only) three squares with elements.
 * The generator is the rules version's (src/engine/seed.ts); the order is the same for all of them.
 */
import { createHash } from "node:crypto";
import { CELLS, squareOf } from "./board";
import { CATALOGUE } from "./catalogue";
import { CHAMPIONS, ROSTER } from "./champions";
import { dealDraw, gameSeed, type DealDraw } from "./seed";
import { CURRENT_RULES_VERSION, HAND_SIZE, isRulesVersion, rulesOf } from "./versions";
import type { ChampionId, ChessPiece, ChessTile, Element, GameOptions, GameState, Mutator, Seat, Seed, SquareElement } from "./types";

export { HAND_SIZE } from "./versions";
export const PIECES: readonly ChessPiece[] = ["knight", "bishop", "rook", "queen", "king"];
export const MUTATORS: readonly Mutator[] = ["same", "plus", "combo", "reverse", "elemental"];
export const ELEMENTS: readonly Element[] = ["ember", "tide", "gale", "stone"];

/**
 * sha256 hex of `${seed}:${salt}` (the seed in decimal for versions 1-3, its 32 hex digits from version 4):
 * published at creation, checked against the revealed seed and salt.
 */
export function commitmentOf(seed: Seed, salt: string): string {
  return createHash("sha256").update(`${seed}:${salt}`).digest("hex");
}

/** Draws `count` distinct values of 0..size-1, in draw order (a partial Fisher-Yates). */
function distinct(next: DealDraw, size: number, count: number): number[] {
  const pool = Array.from({ length: size }, (_, i) => i);
  for (let i = 0; i < count; i++) {
    const j = next(i, size - 1);
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, count);
}

/** Picks the seats' champions; the chosen ones win, a drawn one avoids the other seat's champion. */
function pickChampions(chosen: GameOptions["champions"], drawA: number, drawB: number): Record<Seat, ChampionId> {
  const others = (c: ChampionId) => ROSTER.filter((x) => x !== c);
  const validA = chosen?.A && ROSTER.includes(chosen.A) ? chosen.A : undefined;
  const validB = chosen?.B && ROSTER.includes(chosen.B) ? chosen.B : undefined;
  if (validA && validB) return { A: validA, B: validB };
  if (validA) return { A: validA, B: others(validA)[drawB] };
  if (validB) return { A: others(validB)[drawB], B: validB };
  const A = ROSTER[drawA];
  return { A, B: others(A)[drawB] };
}

/**
 * A new game. `given`, the seed, is for rules versions 1-3 an integer 0..2^31-1 (other numbers are folded
 * into 32 bits); from version 4, 32 lowercase hex digits, or a number n standing for numberedSeed(n), which
 * the game then records as its seed (another string throws). `salt` is the secret published with the seed at the end. The
 * hands are dealt alternately from the top of the shuffled pile.
 */
export function newGame(options: GameOptions, given: Seed, salt: string): GameState {
  const rulesVersion = options.rulesVersion ?? CURRENT_RULES_VERSION;
  // The service and the verifier only pass versions they checked; anything else is a programming error.
  if (!isRulesVersion(rulesVersion)) throw new Error(`newGame: unknown rules version ${String(rulesVersion)}`);
  const seed = gameSeed(rulesVersion, given);
  const next = dealDraw(rulesVersion, seed);
  const ruleset = options.ruleset === "mutators" ? "mutators" : "classic";

  const pile = CATALOGUE.map((c) => c.id);
  for (let i = pile.length - 1; i > 0; i--) {
    const j = next(0, i);
    [pile[i], pile[j]] = [pile[j], pile[i]];
  }
  const chessTiles: ChessTile[] = distinct(next, CELLS, 2).map((sq) => ({ square: squareOf(sq), piece: PIECES[next(0, PIECES.length - 1)] }));
  const firstPlayer: Seat = next(0, 1) === 0 ? "A" : "B";
  const drawA = next(0, ROSTER.length - 1);
  const drawB = next(0, ROSTER.length - 2);
  const champions = pickChampions(options.champions, drawA, drawB);

  let mutators: Mutator[] = [];
  let squareElements: SquareElement[] = [];
  if (ruleset === "mutators") {
    mutators = distinct(next, MUTATORS.length, 2)
      .sort((a, b) => a - b)
      .map((i) => MUTATORS[i]);
    if (mutators.includes("elemental")) {
      squareElements = distinct(next, CELLS, 3).map((sq) => ({ square: squareOf(sq), element: ELEMENTS[next(0, ELEMENTS.length - 1)] }));
    }
  }

  const hands: Record<Seat, string[]> = { A: [], B: [] };
  for (let i = 0; i < HAND_SIZE; i++) {
    hands.A.push(pile.shift()!);
    hands.B.push(pile.shift()!);
  }
  // Seat compensation (rules version 2 on): the first mover's extra cards come next from the pile.
  for (let i = 0; i < rulesOf(rulesVersion).firstMoverExtraCards[ruleset]; i++) hands[firstPlayer].push(pile.shift()!);
  hands.A.push(CHAMPIONS[champions.A].id);
  hands.B.push(CHAMPIONS[champions.B].id);

  return {
    ruleset,
    rulesVersion,
    seed,
    salt,
    commitment: commitmentOf(seed, salt),
    options: { ...options, ruleset, rulesVersion, ...(options.champions ? { champions: { ...options.champions } } : {}) },
    champions,
    firstPlayer,
    turn: firstPlayer,
    board: Array.from({ length: CELLS }, () => null),
    hands,
    pile,
    chessTiles,
    mutators,
    squareElements,
    moves: [],
    actions: [],
    status: "active",
    score: { A: 0, B: 0 },
    winner: null,
  };
}
