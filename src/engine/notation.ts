/**
 * Move notation: card code, "@", square, and "x" with the number of flipped cards when there were any,
 * e.g. "E7@b3" or "E7@b3x2". Input is case-insensitive; output is canonical (upper-case code, lower-case square).
 */
import { indexOf } from "./board";
import type { GameState, Refusal, Square } from "./types";
import { otherSeat } from "./seats";

const MOVE = /^\s*([a-z]\d{1,2})@([a-d][1-4])(?:x(\d{1,2}))?\s*$/i;

export function notationOf(card: string, square: Square, captures: number): string {
  return `${card}@${square}${captures > 0 ? `x${captures}` : ""}`;
}

/** Splits notation text into its parts without judging legality; null when it is not notation at all. */
export function splitNotation(text: unknown): { card: string; square: Square; captures: number | null } | null {
  if (typeof text !== "string" || text.length > 16) return null;
  const m = MOVE.exec(text);
  if (!m || indexOf(m[2]) < 0) return null;
  return { card: m[1].toUpperCase(), square: m[2].toLowerCase(), captures: m[3] === undefined ? null : Number(m[3]) };
}

export function refuse(code: Refusal["code"], detail: string): Refusal {
  return { ok: false, code, detail };
}

/** Seat that made the i-th placement (0-based): seats alternate from the first player. */
export function seatOfPlacement(state: Pick<GameState, "firstPlayer">, i: number) {
  return i % 2 === 0 ? state.firstPlayer : otherSeat(state.firstPlayer);
}
