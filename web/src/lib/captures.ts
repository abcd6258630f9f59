// Why each card of a placement flipped, worked out in the browser by the server's own capture rules
// (src/engine/rules.ts, bundled into the client): the board before the move plus the placed card give the
// same flips the server made, each with its rule, and the edge and ranks that decided it.
import { chessReach, indexOf, NEIGHBOURS, OPPOSITE, squareOf, type Edge } from "../../../src/engine/board";
import { cardById } from "../../../src/engine/champions";
import { effectiveRanks, resolvePlacement, type Cell, type RuleContext } from "../../../src/engine/rules";
import type { ChessPiece, Element, Mutator, RulesVersion } from "../../../src/engine/types";
import { CURRENT_RULES_VERSION, rulesOf } from "../../../src/engine/versions";
import type { Seat, Tile } from "./model";

export interface CaptureReason {
  square: string;
  by: string;
  text: string;
}

const EDGE: Record<Edge, string> = { n: "top", e: "right", s: "bottom", w: "left" };

export interface BoardLike {
  get(square: string): { owner: Seat; card: { id: string } } | undefined;
}

/** The engine's rule context plus the rules version the game is played under (it decides the last placement's mutators). */
export interface PageRules extends RuleContext {
  rulesVersion: RulesVersion;
}

/** The rule context of a game as the page holds it; a live game is played under the current rules version. */
export function ruleContext(
  chessTiles: readonly Tile[],
  elements: readonly Tile[],
  mutators: readonly string[],
  rulesVersion: RulesVersion = CURRENT_RULES_VERSION,
): PageRules {
  return {
    chessTiles: chessTiles.map((t) => ({ square: t.square, piece: t.kind as ChessPiece })),
    squareElements: elements.map((t) => ({ square: t.square, element: t.kind as Element })),
    mutators: mutators as Mutator[],
    rulesVersion,
  };
}

/** The context a placement is resolved with: the game's last placement leaves out what its version says (src/engine/apply.ts). */
function placementContext(ctx: PageRules, board: readonly Cell[]): PageRules {
  const without = rulesOf(ctx.rulesVersion).lastPlacementWithout;
  if (without.length === 0 || board.some((c) => c === null)) return ctx;
  return { ...ctx, mutators: ctx.mutators.filter((m) => !without.includes(m)) };
}

function cells(board: BoardLike): Cell[] {
  return Array.from({ length: 16 }, (_, i) => {
    const c = board.get(squareOf(i));
    return c ? { card: c.card.id, owner: c.owner } : null;
  });
}

/**
 * The captures of `card` placed on `square` by `mover` on `before` (the board just before the move), each
 * with a one-line reason. Empty when the card is unknown (an old client against a newer catalogue).
 */
export function explainCaptures(before: BoardLike, ctx: PageRules, card: string, square: string, mover: Seat): CaptureReason[] {
  return explainOn(cells(before), ctx, card, square, mover);
}

export interface Placement {
  card: string;
  square: string;
  seat: Seat;
}

/**
 * The reasons of the last of `moves`, played in order from `before`: the boards in between follow from
 * the rules, so a page that received several moves in one patch still explains the latest.
 */
export function explainLast(before: BoardLike, ctx: PageRules, moves: readonly Placement[]): CaptureReason[] {
  let board = cells(before);
  for (const m of moves.slice(0, -1)) {
    const at = indexOf(m.square);
    if (at < 0 || !cardById(m.card)) return [];
    board[at] = { card: m.card, owner: m.seat };
    board = resolvePlacement(board, placementContext(ctx, board), at, m.seat).board;
  }
  const last = moves.at(-1);
  return last ? explainOn(board, ctx, last.card, last.square, last.seat) : [];
}

function explainOn(cellsBefore: readonly Cell[], pageRules: PageRules, card: string, square: string, mover: Seat): CaptureReason[] {
  const at = indexOf(square);
  const placed = cardById(card);
  if (at < 0 || !placed) return [];
  const board = cellsBefore.slice();
  board[at] = { card, owner: mover };
  const ctx = placementContext(pageRules, board);
  const { captures } = resolvePlacement(board, ctx, at, mover);
  const mine = effectiveRanks(board, ctx, at, placed.champion === "reaver");
  const name = (i: number) => cardById(board[i]!.card)?.name ?? board[i]!.card;
  const edgeTo = (i: number): Edge | undefined =>
    NEIGHBOURS[at].find((n) => n.index === i)?.edge ??
    chessReach(ctx.chessTiles.find((t) => indexOf(t.square) === at)?.piece ?? "king", at, (j) => board[j] !== null).find((r) => r.index === i)?.edge;
  const versus = (i: number) => {
    const edge = edgeTo(i);
    if (!edge) return "";
    const theirs = effectiveRanks(board, ctx, i)[OPPOSITE[edge]];
    const verb =
      mine[edge] === theirs
        ? placed.champion === "usurper"
          ? "equals (the usurper takes on equal ranks)"
          : "equals"
        : mine[edge] > theirs
          ? "beats"
          : "is below";
    return `${placed.name}'s ${EDGE[edge]} ${mine[edge]} ${verb} ${name(i)}'s ${EDGE[OPPOSITE[edge]]} ${theirs}`;
  };
  // Plus compares sums: every touching pair whose edges add up to the captured card's sum.
  const sums = (i: number) => {
    const edge = edgeTo(i)!;
    const sum = (j: number, e: Edge) => mine[e] + effectiveRanks(board, ctx, j)[OPPOSITE[e]];
    const target = sum(i, edge);
    const pairs = NEIGHBOURS[at].filter((n) => board[n.index] !== null && sum(n.index, n.edge) === target);
    return (
      pairs.map((n) => `${EDGE[n.edge]} ${mine[n.edge]}+${effectiveRanks(board, ctx, n.index)[OPPOSITE[n.edge]]} with ${name(n.index)}`).join(", ") +
      ` (each ${target})`
    );
  };
  const tile = ctx.chessTiles.find((t) => t.square === square);
  const reverse = ctx.mutators.includes("reverse") ? " (reverse: lower wins)" : "";
  return captures.map(({ index, by }) => {
    const sq = squareOf(index);
    const text =
      by === "basic"
        ? `${sq}: basic capture, ${versus(index)}${reverse}`
        : by === "chess"
          ? `${sq}: chess tile (${tile?.piece ?? "piece"}) reach, ${versus(index) || "total ranks compared"}${reverse}`
          : by === "same"
            ? `${sq}: same, equal ranks on two or more edges (${versus(index)})`
            : by === "plus"
              ? `${sq}: plus, equal sums on two or more edges: ${sums(index)}`
              : by === "combo"
                ? `${sq}: combo, flipped by a card this move captured`
                : by === "knight"
                  ? `${sq}: the knight champion's jump, total ranks beat ${name(index)}'s`
                  : `${sq}: ${String(by)}`;
    return { square: sq, by, text };
  });
}
