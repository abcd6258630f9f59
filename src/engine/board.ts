/**
 * Board geometry of the 4 x 4 board. Squares are indexed file + 4 * (rank - 1), so a1 = 0, d1 = 3, a2 = 4 ...
 * Everything here is precomputed once: the engine asks for neighbours and rays on every placement.
 */
import type { ChessPiece, Square } from "./types";

export const SIZE = 4;
export const CELLS = SIZE * SIZE;
const FILES = "abcd";

/** Edges of a card, in the order n, e, s, w. */
export type Edge = "n" | "e" | "s" | "w";
export const OPPOSITE: Record<Edge, Edge> = { n: "s", e: "w", s: "n", w: "e" };

/** Orthogonal directions as (file delta, rank delta) with the edge of the mover that faces that way. */
export const ORTHOGONAL: ReadonlyArray<{ edge: Edge; df: number; dr: number }> = [
  { edge: "n", df: 0, dr: 1 },
  { edge: "e", df: 1, dr: 0 },
  { edge: "s", df: 0, dr: -1 },
  { edge: "w", df: -1, dr: 0 },
];
const DIAGONAL = [
  [1, 1],
  [1, -1],
  [-1, -1],
  [-1, 1],
] as const;
const KNIGHT = [
  [1, 2],
  [2, 1],
  [2, -1],
  [1, -2],
  [-1, -2],
  [-2, -1],
  [-2, 1],
  [-1, 2],
] as const;

export const SQUARES: readonly Square[] = Array.from({ length: CELLS }, (_, i) => `${FILES[i % SIZE]}${Math.floor(i / SIZE) + 1}`);

/** Index of a square name (case-insensitive), or -1 when it is not a square of the board. */
export function indexOf(square: unknown): number {
  if (typeof square !== "string" || square.length !== 2) return -1;
  return SQUARES.indexOf(square.toLowerCase());
}

export function squareOf(index: number): Square {
  return SQUARES[index];
}

function at(index: number, df: number, dr: number): number {
  const f = (index % SIZE) + df;
  const r = Math.floor(index / SIZE) + dr;
  return f < 0 || f >= SIZE || r < 0 || r >= SIZE ? -1 : f + SIZE * r;
}

/** Orthogonal neighbours of each square: the attacker's edge facing it and the neighbour's index. */
export const NEIGHBOURS: ReadonlyArray<ReadonlyArray<{ edge: Edge; index: number }>> = SQUARES.map((_, i) =>
  ORTHOGONAL.map((d) => ({ edge: d.edge, index: at(i, d.df, d.dr) })).filter((n) => n.index >= 0),
);

export const KNIGHT_JUMPS: ReadonlyArray<readonly number[]> = SQUARES.map((_, i) => KNIGHT.map(([df, dr]) => at(i, df, dr)).filter((j) => j >= 0));

/** A square a chess piece reaches: `edge` is set for orthogonal lines (edges compared), absent for totals. */
export interface Reach {
  index: number;
  edge?: Edge;
}

/** Squares reached from `from` by `piece` on `occupied` (rays stop at the first occupied square). */
export function chessReach(piece: ChessPiece, from: number, occupied: (i: number) => boolean): Reach[] {
  const out: Reach[] = [];
  const ray = (df: number, dr: number, edge?: Edge) => {
    for (let i = at(from, df, dr); i >= 0; i = at(i, df, dr)) {
      if (occupied(i)) {
        out.push({ index: i, edge });
        return;
      }
    }
  };
  const rook = () => ORTHOGONAL.forEach((d) => ray(d.df, d.dr, d.edge));
  const bishop = () => DIAGONAL.forEach(([df, dr]) => ray(df, dr));
  switch (piece) {
    case "knight":
      return KNIGHT_JUMPS[from].map((index) => ({ index }));
    case "bishop":
      bishop();
      return out;
    case "rook":
      rook();
      return out;
    case "queen":
      rook();
      bishop();
      return out;
    case "king":
      return [
        ...NEIGHBOURS[from].map((n) => ({ index: n.index, edge: n.edge })),
        ...DIAGONAL.map(([df, dr]) => at(from, df, dr))
          .filter((j) => j >= 0)
          .map((index) => ({ index })),
      ];
  }
}
