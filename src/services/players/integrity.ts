/**
 * Rating integrity, after lichess' protections against rating manipulation: a result is not rated when it
 * looks farmed. Both profiles still count the game (games, wins, form), only the ratings stay as they were.
 * - Profiles made from one address (origin.ts) within SAME_ORIGIN_WINDOW_MS of each other are presumed one
 *   person's: none of their games together is rated. A bot's profile is made when the bot registers, so this
 *   holds between bots registered from one address and between a bot and a guest of its address.
 * - A profile's wins over the same fresh opponent (made less than FRESH_MS ago, or still provisional) stop
 *   being rated once it has beaten that opponent REPEATED_WINS times among its latest results.
 */
import type { Seat } from "../../engine";
import type { PlayerRecord } from "../../store/port";
import { isProvisional } from "./rating";
import { otherSeat } from "../../engine";

export const SAME_ORIGIN_WINDOW_MS = 24 * 3600_000;
export const FRESH_MS = 7 * 24 * 3600_000;
/** Rated wins over one fresh opponent among the winner's latest results; the next ones are not rated. */
export const REPEATED_WINS = 2;
/** How many beaten opponents a profile remembers (newest last). */
export const BEATEN_KEPT = 20;

export type Unrated = "same_origin" | "repeated_opponent";

const fresh = (p: PlayerRecord, now: number): boolean => now - Date.parse(p.createdAt) < FRESH_MS || isProvisional(p.rd, p.games);

/** Why a finished game between these two profiles is not rated, or null when it is. */
export function unratedBecause(profiles: Record<Seat, PlayerRecord>, winner: Seat | "draw" | null, now = Date.now()): Unrated | null {
  const { A, B } = profiles;
  if (A.createdFrom && A.createdFrom === B.createdFrom && Math.abs(Date.parse(A.createdAt) - Date.parse(B.createdAt)) <= SAME_ORIGIN_WINDOW_MS) {
    return "same_origin";
  }
  if (winner !== "A" && winner !== "B") return null;
  const won = profiles[winner];
  const lost = profiles[otherSeat(winner)];
  const before = (won.beaten ?? []).filter((id) => id === lost.id).length;
  return before >= REPEATED_WINS && fresh(lost, now) ? "repeated_opponent" : null;
}
