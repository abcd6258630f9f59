/** The tournaments port: swiss tournaments and arenas, one document each (src/services/tournaments). */
import type { GameRecord } from "./games";

/** A played or running game of a tournament round: seats by player id; `first` takes the seat that moves first. */
export interface TournamentGame {
  first: string;
  second: string;
  gameId: string;
  outcome?: "first" | "second" | "draw";
}

/** An arena game: when it was paired, and when each side had become free (for the wait it took). */
export interface ArenaGame extends TournamentGame {
  pairedAt: string;
  freeSince: [string, string];
}

/** What an arena adds to the tournament document: its length, its end once started, the waiting pool, its games. */
export interface TournamentArena {
  minutes: number;
  /** Start + minutes: no pairing after it; games under way then still count. */
  endsAt?: string;
  /** Entrants free to play, longest-waiting first, each with the time it became free. */
  waiting: { playerId: string; since: string }[];
  /** Every game in the order paired; a player has at most one without an outcome. */
  games: ArenaGame[];
}

/** An entrant; a withdrawn one keeps their results and is paired no more. */
export interface TournamentEntrant {
  playerId: string;
  name: string;
  rating: number;
  /** "bot" when the entrant's profile is a bot's; the seats of its games say so. */
  kind?: "bot";
  withdrawn?: boolean;
  /** Games lost in a row on the clock without a move (src/services/tournaments/absence.ts); two withdraw the entrant. */
  noShows?: number;
  /** Hash of the entrant's token, which is also the seat token of every game the tournament pairs them in. */
  tokenHash?: string;
}

/**
 * A tournament as one document, rewritten whole under a version check: it is small (entrants and rounds), and
 * the check makes every pairing or result a single compare-and-set, so two writers never pair a round twice.
 */
export interface TournamentRecord {
  id: string;
  name: string;
  format: "swiss" | "arena";
  /** Swiss: the number of rounds; 0 for an arena. */
  rounds: number;
  ruleset: GameRecord["ruleset"];
  status: "open" | "running" | "finished";
  createdAt: string;
  updatedAt: string;
  /** Hash of the token that may start the tournament (returned once, to its creator). */
  directorTokenHash?: string;
  /** Most entrants, as its director set it (never above TOURNAMENT_MAX_ENTRANTS); unset: that server cap. */
  maxEntrants?: number;
  /** 1 when created; each replace stores `version + 1` of the one it read. */
  version: number;
  entrants: TournamentEntrant[];
  /** Swiss rounds; empty for an arena. */
  played: { games: TournamentGame[]; bye?: string }[];
  arena?: TournamentArena;
}

/** Tournaments: one document each, replaced by compare-and-set on its version. */
export interface TournamentsPort {
  /** Fails with a duplicate key when the id is taken. */
  createTournament(t: TournamentRecord): Promise<void>;
  getTournament(id: string): Promise<TournamentRecord | null>;
  /** Newest first. */
  listTournaments(limit: number): Promise<TournamentRecord[]>;
  /** Stores `t` when the stored version is `t.version - 1`; false (nothing written) when another write won. */
  replaceTournamentIf(t: TournamentRecord): Promise<boolean>;
}
