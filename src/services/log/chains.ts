/**
 * Players' chains of rating steps across the log (format 3 entries, src/services/log/entry.ts): each step must start
 * from where the player's previous step left the rating. The chain is followed by step number (ratingStep,
 * previousStep), not by log order: a sealed league game enters the log when its deal is unsealed, after games
 * its players finished (and were rated in) later, so log order and rating order differ.
 *
 * For each player, in step order:
 * - previousStep 0 (never rated before): ratingBefore is the initial rating (DEFAULT_RATING).
 * - previousStep equal to the player's preceding logged step: ratingBefore is that step's ratingAfter and
 *   previousGame its game.
 * - previousStep below the preceding logged step: two steps claim the same predecessor, or one skips a logged
 *   step: the chain is broken.
 * - previousStep above it (or the player's first logged step names an earlier one): the previous step is not
 *   among the player's format 3 steps. If previousGame is in the log, one of its seats must have left the
 *   rating at ratingBefore (a format 2 entry: rating and rd; a guest's last game, for an account claimed from
 *   that guest). If it is not, the game must exist, finished, with no log index yet: a sealed league game
 *   awaiting its deal's end (or a batch not yet appended). The chain resumes from the entry's ratingBefore.
 * - previousStep absent (a profile rated before rating histories were kept): the first logged step of the
 *   player starts the chain as it is; a later one without it is a break.
 */
import { DEFAULT_RATING } from "../players/rating";
import type { EntryRating, GameEntry, LogEntry } from "./entry";

interface Step {
  index: number;
  gameId: string;
  playerId: string;
  step: number;
  previousStep?: number;
  previousGame?: string;
  before: EntryRating;
  after: EntryRating;
}

/** What the chains need of the server: a game not found in the log, as GET /games/{id} answers it (null: none). */
export type GameLookup = (gameId: string) => Promise<{ status?: string; logIndex?: number } | null>;

const sameRating = (a: EntryRating, b: EntryRating): boolean =>
  a.rating === b.rating && a.rd === b.rd && (a.volatility === undefined || b.volatility === undefined || a.volatility === b.volatility);

/** Every break in the players' chains of steps over `entries` (the whole log, in log order), each naming its entry and player. */
export async function checkRatingChains(entries: ReadonlyArray<{ index: number; entry: LogEntry }>, lookup: GameLookup): Promise<string[]> {
  const problems: string[] = [];
  const games = new Map<string, { index: number; entry: GameEntry }>();
  const byPlayer = new Map<string, Step[]>();
  for (const { index, entry } of entries) {
    if (entry.kind !== "game") continue;
    games.set(entry.gameId, { index, entry });
    if (entry.format < 3) continue;
    for (const seat of Object.values(entry.seats)) {
      if (!seat?.ratingStep || !seat.ratingBefore || !seat.ratingAfter) continue;
      const steps = byPlayer.get(seat.playerId) ?? [];
      steps.push({
        index,
        gameId: entry.gameId,
        playerId: seat.playerId,
        step: seat.ratingStep,
        previousStep: seat.previousStep,
        previousGame: seat.previousGame,
        before: seat.ratingBefore,
        after: seat.ratingAfter,
      });
      byPlayer.set(seat.playerId, steps);
    }
  }
  for (const steps of byPlayer.values()) {
    steps.sort((a, b) => a.step - b.step || a.index - b.index);
    for (let k = 0; k < steps.length; k++) {
      const s = steps[k];
      const prev = k > 0 ? steps[k - 1] : undefined;
      const at = `entry ${s.index} (game ${s.gameId}), player ${s.playerId}, step ${s.step}:`;
      if (prev && prev.step === s.step) problems.push(`${at} entry ${prev.index} holds the same step`);
      else if (s.previousStep === undefined) {
        if (prev) problems.push(`${at} names no previous step, yet the log holds step ${prev.step} (entry ${prev.index})`);
      } else if (s.previousStep === 0) {
        if (prev) problems.push(`${at} claims to be the first rated game, yet the log holds step ${prev.step} (entry ${prev.index})`);
        else if (!sameRating(s.before, DEFAULT_RATING)) problems.push(`${at} the first rated game does not start from the initial rating`);
      } else if (prev && s.previousStep === prev.step) {
        if (s.previousGame !== prev.gameId) problems.push(`${at} previousGame ${String(s.previousGame)} is not the game of step ${prev.step} (${prev.gameId})`);
        else if (!sameRating(s.before, prev.after))
          problems.push(`${at} ratingBefore is not the ratingAfter of the player's previous step (entry ${prev.index})`);
      } else if (prev && s.previousStep < prev.step) {
        problems.push(`${at} follows step ${s.previousStep}, yet the log holds the later step ${prev.step} (entry ${prev.index}): the chain is broken`);
      } else {
        problems.push(...(await checkGap(s, at, games, lookup)));
      }
    }
  }
  return problems;
}

/** A step whose previous step is not among its player's format 3 steps (the cases in the module comment). */
async function checkGap(s: Step, at: string, games: Map<string, { index: number; entry: GameEntry }>, lookup: GameLookup): Promise<string[]> {
  if (!s.previousGame) return [`${at} names no previous game`];
  const logged = games.get(s.previousGame);
  if (logged) {
    const left = Object.values(logged.entry.seats).some((seat) => seat?.ratingAfter && sameRating(s.before, seat.ratingAfter));
    return left ? [] : [`${at} ratingBefore is not what the previous game ${s.previousGame} (entry ${logged.index}) left`];
  }
  const game = await lookup(s.previousGame);
  if (!game) return [`${at} the previous game ${s.previousGame} does not exist`];
  if (game.status !== "finished") return [`${at} the previous game ${s.previousGame} has not finished`];
  if (game.logIndex !== undefined) return [`${at} the previous game ${s.previousGame} is at log index ${game.logIndex}, which does not hold it`];
  return [];
}
