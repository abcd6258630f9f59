/**
 * A compact copy of the capture rules for search. The engine's `apply` builds records, notations and events
 * for every move (tens of microseconds each), which caps a search at a few thousand positions per decision;
 * this form places a card in well under a microsecond: card and square codes instead of strings, rank
 * tables with the element squares folded in when the world is set up, chess reach precomputed per square,
 * flips as a bit mask, scratch arrays instead of closures, and the score kept incrementally. It must agree
 * with the engine exactly: the differential test in test/ai/sim.test.ts replays seeded games through both
 * and compares every position, and test/game/properties.test.ts checks the engine's properties on both.
 */
import { CATALOGUE, CHAMPIONS, MAX_RANK, MIN_RANK, rulesOf } from "../../engine";
import type { ChessPiece, Element, GameState, Mutator, Seat } from "../../engine/types";

const ELEMENTS: readonly Element[] = ["ember", "tide", "gale", "stone"];
const NONE = 0,
  KNIGHT = 1,
  BASTION = 2,
  USURPER = 3,
  HERALD = 4,
  TIDECALLER = 5,
  REAVER = 6;
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
  const f = (i % 4) + df,
    r = (i >> 2) + dr;
  return f < 0 || f > 3 || r < 0 || r > 3 ? -1 : f + 4 * r;
};
const ORTHO: ReadonlyArray<readonly [number, number]> = [
  [0, 1],
  [1, 0],
  [0, -1],
  [-1, 0],
];
const DIAG: ReadonlyArray<readonly [number, number]> = [
  [1, 1],
  [1, -1],
  [-1, -1],
  [-1, 1],
];
/** NB[i][k]: the neighbour of square i across edge k, or -1. */
const NB: number[][] = Array.from({ length: 16 }, (_, i) => ORTHO.map(([df, dr]) => at(i, df, dr)));
const JUMPS: number[][] = Array.from({ length: 16 }, (_, i) =>
  [
    [1, 2],
    [2, 1],
    [2, -1],
    [1, -2],
    [-1, -2],
    [-2, -1],
    [-2, 1],
    [-1, 2],
  ]
    .map(([df, dr]) => at(i, df, dr))
    .filter((j) => j >= 0),
);
const PIECES: readonly ChessPiece[] = ["knight", "bishop", "rook", "queen", "king"];
/** ADJ[from * 16 + to]: whether the squares are orthogonal neighbours. */
const ADJ = Uint8Array.from({ length: 256 }, (_, x) => (NB[x >> 4].includes(x & 15) ? 1 : 0));

/**
 * What a chess piece on a square reaches, as rays walked outwards until the first occupied square: `edge` is
 * the facing edge compared along a straight line, -1 where rank totals are compared (diagonals, jumps).
 * Knight jumps and king diagonals are rays of one square. REACH[piece * 16 + square].
 */
interface Ray {
  squares: number[];
  edge: number;
}
const REACH: Ray[][] = PIECES.flatMap((kind) =>
  Array.from({ length: 16 }, (_, from) => {
    const line = (df: number, dr: number, edge: number): Ray => {
      const squares: number[] = [];
      for (let i = at(from, df, dr); i >= 0; i = at(i, df, dr)) squares.push(i);
      return { squares, edge };
    };
    const rays: Ray[] = [];
    if (kind === "knight") for (const j of JUMPS[from]) rays.push({ squares: [j], edge: -1 });
    if (kind === "rook" || kind === "queen") ORTHO.forEach(([df, dr], k) => rays.push(line(df, dr, k)));
    if (kind === "bishop" || kind === "queen") DIAG.forEach(([df, dr]) => rays.push(line(df, dr, -1)));
    if (kind === "king")
      for (const [df, dr] of DIAG) {
        const j = at(from, df, dr);
        if (j >= 0) rays.push({ squares: [j], edge: -1 });
      }
    return rays.filter((r) => r.squares.length > 0);
  }),
);

export interface SimRules {
  /** The whole pile as card indices; a position only keeps how far it has been drawn. */
  pile: number[];
  reverse: boolean;
  same: boolean;
  plus: boolean;
  combo: boolean;
  /** Element code per square (elemental mutator only), -1 elsewhere. */
  squareEl: Int8Array;
  /** squareBonus[card * 16 + square]: +1 on a square of the card's element, -1 on another element's, else 0. */
  squareBonus: Int8Array;
  /** Chess piece code per square (index into PIECES), -1 elsewhere. */
  chess: Int8Array;
  /** The seat index a full board with equal scores goes to (rules version 2: the first mover), -1 for a draw. */
  tieWinner: number;
  /** The rules of the game's last placement when its version drops mutators there (version 3), else null. */
  last: SimRules | null;
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

/** The rules of one placement under a list of mutators (the game's, or the last placement's subset). */
function simRules(state: GameState, mutators: readonly Mutator[], pile: number[]): SimRules {
  const squareIndex = (sq: string) => "abcd".indexOf(sq[0]) + 4 * (Number(sq[1]) - 1);
  const squareEl = new Int8Array(16).fill(-1);
  if (mutators.includes("elemental")) for (const e of state.squareElements) squareEl[squareIndex(e.square)] = ELEMENTS.indexOf(e.element);
  const chess = new Int8Array(16).fill(-1);
  for (const t of state.chessTiles) chess[squareIndex(t.square)] = PIECES.indexOf(t.piece);
  const squareBonus = new Int8Array(IDS.length * 16);
  for (let c = 0; c < IDS.length; c++) {
    for (let i = 0; i < 16; i++) if (squareEl[i] >= 0) squareBonus[c * 16 + i] = squareEl[i] === ELEM[c] ? 1 : -1;
  }
  return {
    pile,
    reverse: mutators.includes("reverse"),
    same: mutators.includes("same"),
    plus: mutators.includes("plus"),
    combo: mutators.includes("combo"),
    squareEl,
    squareBonus,
    chess,
    tieWinner: rulesOf(state.rulesVersion).tieGoesToFirstMover ? seatIndex(state.firstPlayer) : -1,
    last: null,
  };
}

/** The search form of an engine state (rules plus position). */
export function fromState(state: GameState): { rules: SimRules; sim: Sim } {
  const pile = state.pile.map(cardIndex);
  const rules = simRules(state, state.mutators, pile);
  const without = rulesOf(state.rulesVersion).lastPlacementWithout;
  if (state.mutators.some((m) => without.includes(m)))
    rules.last = simRules(
      state,
      state.mutators.filter((m) => !without.includes(m)),
      pile,
    );
  const cards: number[] = new Array<number>(16).fill(-1);
  const owner: number[] = new Array<number>(16).fill(0);
  state.board.forEach((c, i) => {
    if (c) {
      cards[i] = cardIndex(c.card);
      owner[i] = seatIndex(c.owner);
    }
  });
  const sim: Sim = {
    cards,
    owner,
    hands: [state.hands.A.map(cardIndex), state.hands.B.map(cardIndex)],
    pileAt: 0,
    turn: seatIndex(state.turn),
    empty: state.status === "active" ? state.board.filter((c) => c === null).length : 0,
    score: [state.score.A, state.score.B],
  };
  return { rules, sim };
}

/** Rank bonus of the card on square i: the tidecaller lift plus the element square's (see SimRules.squareBonus). */
function bonusAt(cards: number[], rules: SimRules, i: number, waivePenalty: boolean): number {
  const c = cards[i];
  let b = rules.squareBonus[c * 16 + i];
  if (waivePenalty && b < 0) b = 0;
  if (TIDE_ELEM[ELEM[c]] && CHAMP[c] !== TIDECALLER) {
    const nb = NB[i];
    for (let k = 0; k < 4; k++) {
      const o = nb[k];
      if (o >= 0) {
        const oc = cards[o];
        if (oc >= 0 && CHAMP[oc] === TIDECALLER && ELEM[oc] === ELEM[c]) return b + 1;
      }
    }
  }
  return b;
}

const clamp = (r: number): number => (r < MIN_RANK ? MIN_RANK : r > MAX_RANK ? MAX_RANK : r);
function totalOf(c: number, b: number): number {
  const o = c * 4;
  return clamp(RANKS[o] + b) + clamp(RANKS[o + 1] + b) + clamp(RANKS[o + 2] + b) + clamp(RANKS[o + 3] + b);
}
function beats(att: number, def: number, reverse: boolean, orEqual: boolean): boolean {
  return (orEqual && att === def) || (reverse ? att < def : att > def);
}

// Scratch space of one placement (placements never nest, so one set serves every call).
const TOUCH = new Int32Array(4);
const FACING = new Int32Array(4);
const MINE = new Int32Array(4);
const QUEUE = new Int32Array(16);

/** Places hand card `c` on empty square `sq` for the side to move; returns the new position. */
export function place(sim: Sim, gameRules: SimRules, c: number, sq: number): Sim {
  return placeCard(sim, gameRules, c, sq, true);
}

/**
 * The board, score, turn and empty count after the placement, with the hands and the pile left as they were:
 * for a position that is only evaluated, never searched from (the last ply holds most of a search's placements).
 */
export function placeForEvaluation(sim: Sim, gameRules: SimRules, c: number, sq: number): Sim {
  return placeCard(sim, gameRules, c, sq, false);
}

function placeCard(sim: Sim, gameRules: SimRules, c: number, sq: number, withHands: boolean): Sim {
  const rules = sim.empty === 1 && gameRules.last !== null ? gameRules.last : gameRules;
  const cards = sim.cards.slice(),
    owner = sim.owner.slice();
  const mover = sim.turn;
  cards[sq] = c;
  owner[sq] = mover;
  const ability = CHAMP[c];
  const reaver = ability === REAVER,
    usurper = ability === USURPER;
  const reverse = rules.reverse && !reaver;
  const mb = bonusAt(cards, rules, sq, reaver);
  const nb = NB[sq];
  let flips = 0;
  let touching = 0;
  for (let k = 0; k < 4; k++) {
    const t = nb[k];
    if (t >= 0 && cards[t] >= 0) {
      TOUCH[touching] = k;
      MINE[touching] = clamp(RANKS[c * 4 + k] + mb);
      FACING[touching] = clamp(RANKS[cards[t] * 4 + ((k + 2) & 3)] + bonusAt(cards, rules, t, false));
      touching++;
    }
  }
  // A square flips when it holds an opponent's card that is not the bastion (checked once, below).
  if (rules.same && touching >= 2) {
    let equal = 0;
    for (let j = 0; j < touching; j++) if (MINE[j] === FACING[j]) equal |= 1 << nb[TOUCH[j]];
    if ((equal & (equal - 1)) !== 0) flips |= equal;
  }
  if (rules.plus && touching >= 2) {
    for (let j = 0; j < touching; j++) {
      const s = MINE[j] + FACING[j];
      for (let q = 0; q < touching; q++)
        if (q !== j && MINE[q] + FACING[q] === s) {
          flips |= 1 << nb[TOUCH[j]];
          break;
        }
    }
  }
  for (let j = 0; j < touching; j++) if (beats(MINE[j], FACING[j], reverse, usurper)) flips |= 1 << nb[TOUCH[j]];
  // Totals are compared for diagonal, jump and knight attacks; the placed card's is computed once.
  let myTotal = -1;
  const piece = rules.chess[sq];
  if (piece >= 0) {
    for (const ray of REACH[piece * 16 + sq]) {
      for (let r = 0; r < ray.squares.length; r++) {
        const t = ray.squares[r];
        if (cards[t] < 0) continue;
        // Rays stop at the first occupied square; a neighbour there was already attacked by the basic rule.
        if (!ADJ[sq * 16 + t] && owner[t] !== mover) {
          const tb = bonusAt(cards, rules, t, false);
          let win: boolean;
          if (ray.edge >= 0) {
            win = beats(clamp(RANKS[c * 4 + ray.edge] + mb), clamp(RANKS[cards[t] * 4 + ((ray.edge + 2) & 3)] + tb), reverse, usurper);
          } else {
            if (myTotal < 0) myTotal = totalOf(c, mb);
            win = beats(myTotal, totalOf(cards[t], tb), reverse, usurper);
          }
          if (win) flips |= 1 << t;
        }
        break;
      }
    }
  }
  if (ability === KNIGHT) {
    for (const t of JUMPS[sq]) {
      if (cards[t] < 0 || owner[t] === mover || (flips & (1 << t)) !== 0) continue;
      if (myTotal < 0) myTotal = totalOf(c, mb);
      if (beats(myTotal, totalOf(cards[t], bonusAt(cards, rules, t, false)), reverse, usurper)) flips |= 1 << t;
    }
  }

  let captured = 0,
    head = 0,
    tail = 0;
  for (let i = 0; i < 16; i++) {
    if ((flips & (1 << i)) !== 0 && cards[i] >= 0 && owner[i] !== mover && CHAMP[cards[i]] !== BASTION) {
      owner[i] = mover;
      captured++;
      QUEUE[tail++] = i;
    }
  }
  if (rules.combo) {
    // Owners never change ranks, so the chain's result does not depend on the order it is walked in.
    while (head < tail) {
      const from = QUEUE[head++];
      const fc = cards[from];
      const fb = bonusAt(cards, rules, from, false);
      const orEqual = CHAMP[fc] === USURPER;
      const fnb = NB[from];
      for (let k = 0; k < 4; k++) {
        const t = fnb[k];
        if (t < 0 || cards[t] < 0 || owner[t] === mover || CHAMP[cards[t]] === BASTION) continue;
        const att = clamp(RANKS[fc * 4 + k] + fb);
        const def = clamp(RANKS[cards[t] * 4 + ((k + 2) & 3)] + bonusAt(cards, rules, t, false));
        if (beats(att, def, rules.reverse, orEqual)) {
          owner[t] = mover;
          captured++;
          QUEUE[tail++] = t;
        }
      }
    }
  }

  const score: [number, number] = mover === 0 ? [sim.score[0] + 1 + captured, sim.score[1] - captured] : [sim.score[0] - captured, sim.score[1] + 1 + captured];
  if (!withHands) return { cards, owner, hands: sim.hands, pileAt: sim.pileAt, turn: mover === 0 ? 1 : 0, empty: sim.empty - 1, score };
  const old = sim.hands[mover];
  const hand: number[] = [];
  let removed = false;
  for (let j = 0; j < old.length; j++) {
    if (!removed && old[j] === c) removed = true;
    else hand.push(old[j]);
  }
  let pileAt = sim.pileAt;
  for (let d = ability === HERALD ? 2 : 1; d > 0 && pileAt < rules.pile.length; d--) hand.push(rules.pile[pileAt++]);
  const hands: [number[], number[]] = mover === 0 ? [hand, sim.hands[1]] : [sim.hands[0], hand];
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
