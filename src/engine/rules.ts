/**
 * Capture rules: what one placement flips. Pure functions over a board; `apply` owns the bookkeeping.
 *
 * Ranks never depend on who owns a card (the tidecaller lifts every card of its element, whichever seat holds
 * it), so every comparison of a placement is made against the board as it stands right after the card lands;
 * only the combo chain, which starts after those flips, reads the board as it changes.
 */
import { CELLS, chessReach, indexOf, KNIGHT_JUMPS, NEIGHBOURS, OPPOSITE, type Edge } from "./board";
import { card } from "./champions";
import type { CaptureKind, ChessTile, Element, Mutator, Ranks, Seat, SquareElement } from "./types";

export type Cell = null | { card: string; owner: Seat };
export type { CaptureKind } from "./types";
export interface Capture {
  index: number;
  by: CaptureKind;
}

/** Ranks never leave 1..10 after modifiers: base ranks are 1-9 and at most one +1 applies per source. */
export const MIN_RANK = 1;
export const MAX_RANK = 10;

/** The context a placement is judged in: the board's special squares and the game's mutators. */
export interface RuleContext {
  chessTiles: readonly ChessTile[];
  mutators: readonly Mutator[];
  squareElements: readonly SquareElement[];
}

function elementAt(ctx: RuleContext, index: number): Element | undefined {
  for (const se of ctx.squareElements) if (indexOf(se.square) === index) return se.element;
  return undefined;
}

/**
 * Effective ranks of the card on `index`: base ranks, +1 next to a tidecaller of its element (no stacking),
 * and on an element square +1 for its own element or -1 for another (unless `ignorePenalty`), within 1..10.
 */
export function effectiveRanks(board: readonly Cell[], ctx: RuleContext, index: number, ignorePenalty = false): Ranks {
  const cell = board[index];
  if (!cell) throw new Error(`no card on square index ${index}`);
  const def = card(cell.card);
  let bonus = 0;
  const lifted = NEIGHBOURS[index].some((n) => {
    const other = board[n.index];
    if (!other) return false;
    const od = card(other.card);
    return od.champion === "tidecaller" && od.element === def.element;
  });
  if (lifted && def.champion !== "tidecaller") bonus += 1;
  const el = ctx.mutators.includes("elemental") ? elementAt(ctx, index) : undefined;
  if (el !== undefined) {
    if (el === def.element) bonus += 1;
    else if (!ignorePenalty) bonus -= 1;
  }
  const r = def.ranks;
  return { n: adjusted(r.n, bonus), e: adjusted(r.e, bonus), s: adjusted(r.s, bonus), w: adjusted(r.w, bonus) };
}

/** A rank moved by `bonus`, within 1..10 (a module function: this runs for every neighbour of every placement). */
function adjusted(rank: number, bonus: number): number {
  return Math.min(MAX_RANK, Math.max(MIN_RANK, rank + bonus));
}

const total = (r: Ranks) => r.n + r.e + r.s + r.w;

/** The basic comparison: strictly greater, lower under reverse, and with equality for the usurper. */
function beats(att: number, def: number, reverse: boolean, orEqual: boolean): boolean {
  if (orEqual && att === def) return true;
  return reverse ? att < def : att > def;
}

function unflippable(cell: Cell): boolean {
  return cell !== null && card(cell.card).champion === "bastion";
}

/**
 * Resolves the placement of the card already on `board[at]` by `mover`. Returns the board after every flip
 * and the flips in the order they happened (same, plus, basic, chess, knight, then the combo chain).
 */
export function resolvePlacement(board: readonly Cell[], ctx: RuleContext, at: number, mover: Seat): { board: Cell[]; captures: Capture[] } {
  const placed = board[at];
  if (!placed) throw new Error("resolvePlacement: empty square");
  const ability = card(placed.card).champion;
  const reaver = ability === "reaver";
  const reverse = ctx.mutators.includes("reverse");
  const mine = effectiveRanks(board, ctx, at, reaver);
  const flips = new Map<number, CaptureKind>();
  const capturable = (i: number) => {
    const c = board[i];
    return c !== null && c.owner !== mover && !unflippable(c) && !flips.has(i);
  };
  const flip = (i: number, by: CaptureKind) => {
    if (capturable(i)) flips.set(i, by);
  };
  const ranksOf = (i: number) => effectiveRanks(board, ctx, i);
  const compare = (i: number, edge: Edge | undefined) =>
    edge
      ? beats(mine[edge], ranksOf(i)[OPPOSITE[edge]], reverse && !reaver, ability === "usurper")
      : beats(total(mine), total(ranksOf(i)), reverse && !reaver, ability === "usurper");

  const touching = NEIGHBOURS[at].filter((n) => board[n.index] !== null);
  if (ctx.mutators.includes("same")) {
    const equal = touching.filter((n) => mine[n.edge] === ranksOf(n.index)[OPPOSITE[n.edge]]);
    if (equal.length >= 2) equal.forEach((n) => flip(n.index, "same"));
  }
  if (ctx.mutators.includes("plus")) {
    const sums = touching.map((n) => mine[n.edge] + ranksOf(n.index)[OPPOSITE[n.edge]]);
    touching.forEach((n, k) => {
      if (sums.filter((s) => s === sums[k]).length >= 2) flip(n.index, "plus");
    });
  }
  for (const n of touching) if (capturable(n.index) && compare(n.index, n.edge)) flip(n.index, "basic");

  const orthogonal = new Set(NEIGHBOURS[at].map((n) => n.index));
  const tile = ctx.chessTiles.find((t) => indexOf(t.square) === at);
  if (tile) {
    for (const r of chessReach(tile.piece, at, (i) => board[i] !== null)) {
      if (!orthogonal.has(r.index) && capturable(r.index) && compare(r.index, r.edge)) flip(r.index, "chess");
    }
  }
  if (ability === "knight") {
    for (const j of KNIGHT_JUMPS[at]) if (capturable(j) && compare(j, undefined)) flip(j, "knight");
  }

  const out = board.slice();
  const captures: Capture[] = [];
  for (const [index, by] of flips) {
    out[index] = { card: out[index]!.card, owner: mover };
    captures.push({ index, by });
  }
  if (ctx.mutators.includes("combo")) comboChain(out, ctx, captures, mover, reverse);
  return { board: out, captures };
}

/** Each captured card attacks its own neighbours by the basic rule; new captures continue the chain. */
function comboChain(board: Cell[], ctx: RuleContext, captures: Capture[], mover: Seat, reverse: boolean): void {
  const queue = captures.map((c) => c.index);
  while (queue.length > 0) {
    const from = queue.shift()!;
    const att = effectiveRanks(board, ctx, from);
    const usurper = card(board[from]!.card).champion === "usurper";
    for (const n of NEIGHBOURS[from]) {
      const target = board[n.index];
      if (!target || target.owner === mover || unflippable(target)) continue;
      if (beats(att[n.edge], effectiveRanks(board, ctx, n.index)[OPPOSITE[n.edge]], reverse, usurper)) {
        board[n.index] = { card: target.card, owner: mover };
        captures.push({ index: n.index, by: "combo" });
        queue.push(n.index);
      }
    }
  }
}

export function scoreOf(board: readonly Cell[]): Record<Seat, number> {
  const score = { A: 0, B: 0 };
  for (let i = 0; i < CELLS; i++) {
    const c = board[i];
    if (c) score[c.owner] += 1;
  }
  return score;
}
