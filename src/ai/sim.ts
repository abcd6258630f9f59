/**
 * A compact copy of the capture rules for search. The engine's `apply` builds records, notations and events
 * for every move (about 30 us each), which caps a search at a few thousand positions per decision; this
 * array form places a card in about a microsecond. It must agree with the engine exactly: the differential
 * test in test/ai/sim.test.ts replays seeded games through both and compares every position.
 */
import { CATALOGUE, CHAMPIONS } from "../game";
import type { ChessPiece, Element, GameState, Seat } from "../game/types";

const ELEMENTS: readonly Element[] = ["ember", "tide", "gale", "stone"];
const NONE = 0, KNIGHT = 1, BASTION = 2, USURPER = 3, HERALD = 4, TIDECALLER = 5, REAVER = 6;
const ABILITY: Record<string, number> = { knight: KNIGHT, bastion: BASTION, usurper: USURPER, herald: HERALD, tidecaller: TIDECALLER, reaver: REAVER };

/** Card tables indexed by a small integer per card id. */
export const IDS: readonly string[] = [...CATALOGUE.map((c) => c.id), ...Object.values(CHAMPIONS).map((c) => c.id)];
const INDEX = new Map(IDS.map((id, i) => [id, i]));
const DEFS = [...CATALOGUE, ...Object.values(CHAMPIONS)];
/** Base ranks, 4 per card in edge order n, e, s, w (edge k faces edge (k + 2) % 4 of a neighbour). */
const RANKS = Int8Array.from(DEFS.flatMap((c) => [c.ranks.n, c.ranks.e, c.ranks.s, c.ranks.w]));
const ELEM = Int8Array.from(DEFS.map((c) => ELEMENTS.indexOf(c.element)));
const CHAMP = Int8Array.from(DEFS.map((c) => (c.champion ? ABILITY[c.champion] : NONE)));
/** Elements that have a tidecaller card at all: other cards never need the neighbour scan. */
const TIDE_ELEM = ELEMENTS.map((_, e) => DEFS.some((c) => c.champion === "tidecaller" && ELEMENTS.indexOf(c.element) === e));

const at = (i: number, df: number, dr: number): number => {
  const f = (i % 4) + df, r = (i >> 2) + dr;
  return f < 0 || f > 3 || r < 0 || r > 3 ? -1 : f + 4 * r;
};
const ORTHO: ReadonlyArray<readonly [number, number]> = [[0, 1], [1, 0], [0, -1], [-1, 0]];
const DIAG: ReadonlyArray<readonly [number, number]> = [[1, 1], [1, -1], [-1, -1], [-1, 1]];
/** NB[i][k]: the neighbour of square i across edge k, or -1. */
const NB: number[][] = Array.from({ length: 16 }, (_, i) => ORTHO.map(([df, dr]) => at(i, df, dr)));
const JUMPS: number[][] = Array.from({ length: 16 }, (_, i) =>
  [[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]].map(([df, dr]) => at(i, df, dr)).filter((j) => j >= 0));
const PIECES: readonly ChessPiece[] = ["knight", "bishop", "rook", "queen", "king"];

export interface SimRules {
  /** The whole pile as card indices; a position only keeps how far it has been drawn. */
  pile: number[];
  reverse: boolean;
  same: boolean;
  plus: boolean;
  combo: boolean;
  /** Element code per square (elemental mutator only), -1 elsewhere. */
  squareEl: Int8Array;
  /** Chess piece code per square (index into PIECES), -1 elsewhere. */
  chess: Int8Array;
}

export interface Sim {
  /** Card index per square, -1 when empty (plain arrays: copying them is cheaper than typed arrays). */
  cards: number[];
  /** 0 = seat A, 1 = seat B (meaningful only where a card stands). */
  owner: number[];
  hands: [number[], number[]];
  pileAt: number;
  turn: 0 | 1;
  empty: number;
  score: [number, number];
}

export const seatIndex = (s: Seat): 0 | 1 => (s === "A" ? 0 : 1);
export const cardIndex = (id: string): number => {
  const i = INDEX.get(id);
  if (i === undefined) throw new Error(`unknown card ${id}`);
  return i;
};

/** The search form of an engine state (rules plus position). */
export function fromState(state: GameState): { rules: SimRules; sim: Sim } {
  const squareIndex = (sq: string) => "abcd".indexOf(sq[0]) + 4 * (Number(sq[1]) - 1);
  const squareEl = new Int8Array(16).fill(-1);
  if (state.mutators.includes("elemental")) for (const e of state.squareElements) squareEl[squareIndex(e.square)] = ELEMENTS.indexOf(e.element);
  const chess = new Int8Array(16).fill(-1);
  for (const t of state.chessTiles) chess[squareIndex(t.square)] = PIECES.indexOf(t.piece);
  const rules: SimRules = {
    pile: state.pile.map(cardIndex),
    reverse: state.mutators.includes("reverse"),
    same: state.mutators.includes("same"),
    plus: state.mutators.includes("plus"),
    combo: state.mutators.includes("combo"),
    squareEl,
    chess,
  };
  const cards: number[] = new Array(16).fill(-1);
  const owner: number[] = new Array(16).fill(0);
  state.board.forEach((c, i) => { if (c) { cards[i] = cardIndex(c.card); owner[i] = seatIndex(c.owner); } });
  const sim: Sim = {
    cards, owner,
    hands: [state.hands.A.map(cardIndex), state.hands.B.map(cardIndex)],
    pileAt: 0,
    turn: seatIndex(state.turn),
    empty: state.status === "active" ? state.board.filter((c) => c === null).length : 0,
    score: [state.score.A, state.score.B],
  };
  return { rules, sim };
}

/** Rank bonus of the card on i: tidecaller lift, element square (the penalty waived for the reaver's attack). */
function bonusAt(cards: number[], rules: SimRules, i: number, ignorePenalty: boolean): number {
  const c = cards[i];
  let b = 0;
  if (CHAMP[c] !== TIDECALLER && TIDE_ELEM[ELEM[c]]) {
    for (let k = 0; k < 4; k++) {
      const o = NB[i][k];
      if (o >= 0 && cards[o] >= 0 && CHAMP[cards[o]] === TIDECALLER && ELEM[cards[o]] === ELEM[c]) { b = 1; break; }
    }
  }
  const el = rules.squareEl[i];
  if (el >= 0) b += el === ELEM[c] ? 1 : ignorePenalty ? 0 : -1;
  return b;
}
const rank = (c: number, edge: number, b: number): number => Math.min(10, Math.max(1, RANKS[c * 4 + edge] + b));
const total = (c: number, b: number): number => rank(c, 0, b) + rank(c, 1, b) + rank(c, 2, b) + rank(c, 3, b);
const beats = (att: number, def: number, reverse: boolean, orEqual: boolean): boolean =>
  (orEqual && att === def) || (reverse ? att < def : att > def);

/** Squares a chess piece on `from` reaches beyond the orthogonal neighbours: [index, edge or -1 for totals]. */
function chessReach(piece: number, from: number, cards: number[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const ray = (df: number, dr: number, edge: number) => {
    for (let i = at(from, df, dr); i >= 0; i = at(i, df, dr)) if (cards[i] >= 0) { out.push([i, edge]); return; }
  };
  const kind = PIECES[piece];
  if (kind === "knight") for (const j of JUMPS[from]) out.push([j, -1]);
  if (kind === "rook" || kind === "queen") ORTHO.forEach(([df, dr], k) => ray(df, dr, k));
  if (kind === "bishop" || kind === "queen") DIAG.forEach(([df, dr]) => ray(df, dr, -1));
  if (kind === "king") for (const [df, dr] of DIAG) { const j = at(from, df, dr); if (j >= 0) out.push([j, -1]); }
  return out.filter(([i]) => !NB[from].includes(i));
}

/** Places hand card `c` on empty square `sq` for the side to move; returns the new position. */
export function place(sim: Sim, rules: SimRules, c: number, sq: number): Sim {
  const cards = sim.cards.slice(), owner = sim.owner.slice();
  const mover = sim.turn;
  cards[sq] = c;
  owner[sq] = mover;
  const ability = CHAMP[c];
  const reaver = ability === REAVER, usurper = ability === USURPER;
  const reverse = rules.reverse && !reaver;
  const mb = bonusAt(cards, rules, sq, reaver);
  let flips = 0;
  const capturable = (i: number) => cards[i] >= 0 && owner[i] !== mover && CHAMP[cards[i]] !== BASTION && (flips & (1 << i)) === 0;
  const facing = (i: number, edge: number) => rank(cards[i], (edge + 2) % 4, bonusAt(cards, rules, i, false));
  const compare = (i: number, edge: number) => edge >= 0
    ? beats(rank(c, edge, mb), facing(i, edge), reverse, usurper)
    : beats(total(c, mb), total(cards[i], bonusAt(cards, rules, i, false)), reverse, usurper);

  const touching: number[] = [];
  for (let k = 0; k < 4; k++) if (NB[sq][k] >= 0 && cards[NB[sq][k]] >= 0) touching.push(k);
  if (rules.same) {
    const equal = touching.filter((k) => rank(c, k, mb) === facing(NB[sq][k], k));
    if (equal.length >= 2) for (const k of equal) if (capturable(NB[sq][k])) flips |= 1 << NB[sq][k];
  }
  if (rules.plus) {
    const sums = touching.map((k) => rank(c, k, mb) + facing(NB[sq][k], k));
    touching.forEach((k, j) => {
      if (sums.filter((s) => s === sums[j]).length >= 2 && capturable(NB[sq][k])) flips |= 1 << NB[sq][k];
    });
  }
  for (const k of touching) if (capturable(NB[sq][k]) && compare(NB[sq][k], k)) flips |= 1 << NB[sq][k];
  if (rules.chess[sq] >= 0) {
    for (const [i, edge] of chessReach(rules.chess[sq], sq, cards)) if (capturable(i) && compare(i, edge)) flips |= 1 << i;
  }
  if (ability === KNIGHT) for (const j of JUMPS[sq]) if (capturable(j) && compare(j, -1)) flips |= 1 << j;

  const queue: number[] = [];
  for (let i = 0; i < 16; i++) if (flips & (1 << i)) { owner[i] = mover; queue.push(i); }
  if (rules.combo) {
    // Owners never change ranks, so the chain's result does not depend on the order it is walked in.
    while (queue.length > 0) {
      const from = queue.shift()!;
      const fb = bonusAt(cards, rules, from, false);
      const orEqual = CHAMP[cards[from]] === USURPER;
      for (let k = 0; k < 4; k++) {
        const t = NB[from][k];
        if (t < 0 || cards[t] < 0 || owner[t] === mover || CHAMP[cards[t]] === BASTION) continue;
        if (beats(rank(cards[from], k, fb), facing(t, k), rules.reverse, orEqual)) { owner[t] = mover; queue.push(t); }
      }
    }
  }

  const hand = sim.hands[mover].slice();
  hand.splice(hand.indexOf(c), 1);
  let pileAt = sim.pileAt;
  for (let d = ability === HERALD ? 2 : 1; d > 0 && pileAt < rules.pile.length; d--) hand.push(rules.pile[pileAt++]);
  const hands: [number[], number[]] = mover === 0 ? [hand, sim.hands[1]] : [sim.hands[0], hand];
  const score: [number, number] = [0, 0];
  for (let i = 0; i < 16; i++) if (cards[i] >= 0) score[owner[i]]++;
  return { cards, owner, hands, pileAt, turn: mover === 0 ? 1 : 0, empty: sim.empty - 1, score };
}

/** Legal placements as [card index, square index], hand order then square order (the engine's order). */
export function simMoves(sim: Sim): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  if (sim.empty <= 0) return out;
  const hand = sim.hands[sim.turn];
  hand.forEach((c, j) => {
    if (hand.indexOf(c) !== j) return;
    for (let i = 0; i < 16; i++) if (sim.cards[i] < 0) out.push([c, i]);
  });
  return out;
}

/** Base rank of card index `c` on edge k (for the positional term). */
export const baseRank = (c: number, k: number): number => RANKS[c * 4 + k];
export const NEIGHBOUR = NB;
export const squareName = (i: number): string => `${"abcd"[i % 4]}${(i >> 2) + 1}`;
