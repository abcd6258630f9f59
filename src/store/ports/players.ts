/** The players port: player profiles, their ratings and the leaderboard's ranking. */
import type { ChampionId } from "../../engine/types";
import type { RatingPointOf } from "./ratings";

export interface PlayerRecord {
  /** Friend code, e.g. "P7K2QX". */
  id: string;
  name: string;
  /** sha256 hex of the profile secret. */
  secretHash: string;
  rating: number;
  rd: number;
  volatility: number;
  games: number;
  wins: number;
  losses: number;
  draws: number;
  /** Newest first, W/L/D, at most 10. */
  recentForm: string;
  champions: Partial<Record<ChampionId, { games: number; wins: number }>>;
  /** Ids of the latest games applied to this profile (newest last, at most 20): rating a game twice is a no-op. */
  ratedGames?: string[];
  /** Hash of the address the profile was made from (rating integrity: src/services/players/integrity.ts). */
  createdFrom?: string;
  /** Ids of the opponents this profile beat in its latest games (newest last, at most 20). */
  beaten?: string[];
  /**
   * The newest point of the profile's rating history: the game it was last rated for and the rating it left.
   * A profile write carrying a point the history does not hold yet adds it there (RatingsPort), so the history
   * is written with the result itself, whichever way the result is stored.
   */
  lastRated?: RatingPointOf;
  /** Set when this guest profile moved to an account. */
  movedTo?: string;
  /** "bot" for a bot's one profile (src/services/bots); absent for people. Rated in the same pool. */
  kind?: "bot";
  isAccount?: boolean;
  /**
   * Bumped by every read-modify-write of the profile (results, claims), which writes only when the stored
   * version is still the one it read: two processes finishing games of one player cannot lose a result.
   * Absent on records written before versions existed (read as "no version").
   */
  version?: number;
  createdAt: string;
  updatedAt: string;
}

/** How rankPlayers narrows the ranking. */
export interface RankOptions {
  /** Only profiles with at least one game and no movedTo (the player leaderboard's rows). */
  listed?: boolean;
}
/** The scalar members a conditional player update can check. */
export type PlayerExpectation = Partial<Pick<PlayerRecord, "version" | "movedTo">>;

/** One conditional write of updatePlayersIf: updatePlayerIf's arguments. */
export interface PlayerUpdate {
  id: string;
  expected: PlayerExpectation;
  patch: Partial<PlayerRecord>;
}

/** Player profiles and their ratings. */
export interface PlayersPort {
  createPlayer(p: PlayerRecord): Promise<void>;
  getPlayer(id: string): Promise<PlayerRecord | null>;
  updatePlayer(id: string, patch: Partial<PlayerRecord>): Promise<void>;
  /**
   * Like updatePlayer, but only when every member of `expected` equals the stored one (undefined: the
   * member is absent). Check and write are atomic, across processes too; resolves with whether it wrote.
   */
  updatePlayerIf(id: string, expected: PlayerExpectation, patch: Partial<PlayerRecord>): Promise<boolean>;
  /**
   * Several updatePlayerIf at once (a finished game's two ratings), applied in order: each writes only if its
   * own expectation holds in the record as the ones before it left it, and the result says, in order, which
   * wrote. The SQLite adapter stores them in one transaction (one commit, one fsync); the mongoose adapter
   * one after another.
   */
  updatePlayersIf(updates: readonly PlayerUpdate[]): Promise<boolean[]>;
  /**
   * Top players by rating among the given ids (or all when ids is undefined); ties by id; [] gives []. With
   * `listed`, only the profiles the player leaderboard lists (at least one game, not moved) are ranked, filtered
   * in the query so that a page is full whenever more such profiles follow and offsets count listed rows only.
   */
  rankPlayers(ids: string[] | undefined, limit: number, offset: number, options?: RankOptions): Promise<PlayerRecord[]>;
}
