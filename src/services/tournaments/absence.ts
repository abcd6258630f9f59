/**
 * No-shows: a tournament game lost on the clock by a seat that never moved in it. Seats alternate, so the seat
 * that ran out of time made no move exactly when the game had at most one move (the first mover timed out
 * before moving, or the second mover timed out on its first turn). Pure.
 */
import type { GameRecord, TournamentEntrant, TournamentGame } from "../../store/port";

/** Consecutive no-shows after which an entrant is withdrawn (docs/TOURNAMENTS.md, "No-shows"). */
export const NO_SHOWS_TO_WITHDRAW = 2;

/** The player id of the seat that lost `game` without making a move, or null. */
export function noShowOf(game: Pick<GameRecord, "decidedBy" | "moveCount" | "winner" | "firstPlayer">, pairing: TournamentGame): string | null {
  if (game.decidedBy !== "timeout" || game.moveCount > 1 || (game.winner !== "A" && game.winner !== "B")) return null;
  return game.winner === game.firstPlayer ? pairing.second : pairing.first;
}

/**
 * Counts a finished pairing into its entrants' runs of no-shows: the absent one's run grows (and at
 * NO_SHOWS_TO_WITHDRAW they are withdrawn: paired no more, results kept), any other game ends a run.
 */
export function countAbsence(entrants: TournamentEntrant[], pairing: TournamentGame, absent: string | null): void {
  for (const id of [pairing.first, pairing.second]) {
    const e = entrants.find((x) => x.playerId === id);
    if (!e) continue;
    if (id !== absent) {
      delete e.noShows;
      continue;
    }
    e.noShows = (e.noShows ?? 0) + 1;
    if (e.noShows >= NO_SHOWS_TO_WITHDRAW) e.withdrawn = true;
  }
}
