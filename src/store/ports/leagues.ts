/** The leagues port: duplicate leagues, their schedules and results (src/services/leagues). */
import type { Seed } from "../../engine/types";
import type { LeagueOutcome } from "../../shared/standings/league-table";
import type { GameRecord } from "./games";

/** How a league counts a finished game: the standings' own union, stored as the table reads it. */
export type { LeagueOutcome };

/** A game of a league deal: `first` takes the seat the seed makes the first mover. */
export interface LeagueGame {
  first: string;
  second: string;
  gameId: string;
}

/**
 * One deal of one pair of entrants: two games on the same seed, `a` moving first in the first and `b` in the
 * second. The seed is the league's secret until the games reveal it (no league view shows it).
 */
export interface LeagueDeal {
  a: string;
  b: string;
  /** 0-based deal number of this pair. */
  deal: number;
  /** Drawn when the league starts: 32 hex digits; an integer in leagues started before rules version 4. */
  seed: Seed;
  games: [LeagueGame, LeagueGame];
}

/** A bot entered in a league. */
export interface LeagueEntrant {
  playerId: string;
  name: string;
  /** Hash of the entrant's token: the seat token of every game the league schedules them in. */
  tokenHash: string;
  /** Set when the bot's key was revoked while the league ran: its deals not yet played are void (src/services/leagues/service.ts). */
  withdrawn?: boolean;
}

/** How far a league has been played, as its lists show it. */
export interface LeagueProgress {
  deals: number;
  /** Deals whose two games are both counted. */
  dealsPlayed: number;
  games: number;
  /** Games counted. */
  gamesPlayed: number;
}

/**
 * A duplicate league's head: everything but its schedule, a few kilobytes whatever the league's size, replaced
 * whole under a version check like a tournament. Lists read heads only. The schedule (every deal with its game
 * ids and seed) is stored apart once, when the league starts, and never changes; each game's result is a row of
 * its own (LeagueResult), and the head counts them.
 */
export interface LeagueRecord {
  id: string;
  name: string;
  ruleset: GameRecord["ruleset"];
  /** Deals per pair of entrants; each deal is two games. */
  deals: number;
  /** Deals an entrant plays at once (two games each). */
  parallel: number;
  turnSeconds: number;
  status: "open" | "running" | "finished";
  createdAt: string;
  updatedAt: string;
  finishedAt?: string;
  directorTokenHash: string;
  /** 1 when created; each replace stores `version + 1` of the one it read. */
  version: number;
  entrants: LeagueEntrant[];
  /** The results counted so far; zero deals until the league starts. */
  progress: LeagueProgress;
  /** Schedule indices of the deals released and not yet played (both games counted), in schedule order. */
  open: number[];
  /** Every released deal: one bit per schedule index, least significant first, as base64url; empty until the start. */
  released: string;
}

/** A finished league game's result, stored once per game whichever process reports it. */
export interface LeagueResult {
  leagueId: string;
  gameId: string;
  /** Schedule index of the game's deal. */
  deal: number;
  outcome: LeagueOutcome;
  at: string;
}

/**
 * Duplicate leagues (src/services/leagues): a small head per league replaced by compare-and-set on its version, the
 * schedule stored once, and one result per finished game.
 */
export interface LeaguesPort {
  /** Fails with a duplicate key when the id is taken. */
  createLeague(l: LeagueRecord): Promise<void>;
  getLeague(id: string): Promise<LeagueRecord | null>;
  /** Newest first (createdAt, then id): heads only, never a schedule. */
  listLeagues(limit: number): Promise<LeagueRecord[]>;
  /** Stores `l` when the stored version is `l.version - 1`; false (nothing written) when another write won. */
  replaceLeagueIf(l: LeagueRecord): Promise<boolean>;
  /**
   * Stores a league's schedule unless one is stored already, and answers the stored one: of two starts, both
   * go on with the first schedule stored.
   */
  putLeagueSchedule(leagueId: string, schedule: LeagueDeal[]): Promise<LeagueDeal[]>;
  /** The league's schedule; null before it starts. */
  getLeagueSchedule(leagueId: string): Promise<LeagueDeal[] | null>;
  /** Stores a game's result unless one is stored for that game; true when this call stored it. */
  addLeagueResult(r: LeagueResult): Promise<boolean>;
  /** The league's results (only those of the deals listed, when given), in no particular order. */
  listLeagueResults(leagueId: string, deals?: readonly number[]): Promise<LeagueResult[]>;
}
