/**
 * A finished game's result said from one seat's side, and how it was decided. Bots misreport a tied full
 * board (won by the first mover from rules version 2) as a draw when they work the result out from the
 * score, so the decision names the tie rule whenever it decided the game.
 */
import { rulesOf, UNVERSIONED } from "./versions";
import type { DecidedBy, RulesVersion, Seat, Winner } from "./types";

export type SeatResult = "win" | "loss" | "draw";

/** What ended a game, with the tie rule made explicit and one sentence a person or a model can read. */
export interface Decision {
  by: DecidedBy;
  /** True when the board filled with equal scores. */
  tiedBoard: boolean;
  /** The rule that decided a tied board: `first_mover` (version 2 on) or `draw` (version 1); null otherwise. */
  tieRule: "first_mover" | "draw" | null;
  summary: string;
}

export interface FinishedFacts {
  winner: Winner;
  decidedBy: DecidedBy;
  score: Record<Seat, number>;
  firstPlayer: Seat;
  rulesVersion?: RulesVersion;
}

/** The result of `seat`: win, loss or draw; null for an aborted game, which nobody won or drew. */
export function resultFor(winner: Winner, seat: Seat): SeatResult | null {
  if (winner === null) return null;
  if (winner === "draw") return "draw";
  return winner === seat ? "win" : "loss";
}

/** Both seats' results at once (events that go to both seats). */
export function resultsOf(winner: Winner): Record<Seat, SeatResult | null> {
  return { A: resultFor(winner, "A"), B: resultFor(winner, "B") };
}

export function decisionOf(f: FinishedFacts): Decision {
  const { A, B } = f.score;
  const tiedBoard = f.decidedBy === "board_full" && A === B;
  const tieRule = tiedBoard ? (rulesOf(f.rulesVersion ?? UNVERSIONED).tieGoesToFirstMover ? "first_mover" : "draw") : null;
  return { by: f.decidedBy, tiedBoard, tieRule, summary: summaryOf(f, tiedBoard, tieRule) };
}

function summaryOf(f: FinishedFacts, tiedBoard: boolean, tieRule: Decision["tieRule"]): string {
  const score = `${f.score.A}-${f.score.B}`;
  switch (f.decidedBy) {
    case "board_full":
      if (!tiedBoard) return `board full, ${score}: seat ${String(f.winner)} owns more cards`;
      return tieRule === "first_mover"
        ? `board full and tied ${score}: a tie goes to the first mover, seat ${f.firstPlayer}`
        : `board full and tied ${score}: a draw under rules version 1`;
    case "resignation":
      return `seat ${f.winner === "A" ? "B" : "A"} resigned`;
    case "timeout":
      return `seat ${f.winner === "A" ? "B" : "A"} ran out of time`;
    case "aborted":
      return "aborted before both seats moved: no result";
  }
}
