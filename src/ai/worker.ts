/**
 * The tasks a worker thread of the AI pool runs (see ./pool). Each is a plain function of plain data, so the
 * pool can hand it over by structured clone; the same functions run inline when the pool has no threads.
 */
import type { Level, Replay, SeatView } from "../game/types";
import { decide } from "./decide";
import { reviewGame, type Review } from "./review";
import type { Placement } from "./search";

export interface DecideTask { view: SeatView; level: Level }

export function decideTask({ view, level }: DecideTask): Placement {
  return decide(view, level);
}

export function reviewTask(replay: Replay): Review {
  return reviewGame(replay);
}
