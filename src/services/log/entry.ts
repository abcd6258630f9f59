/**
 * A log entry: what the public log holds of one finished game. A public game's entry is its public finished
 * record, everything needed to re-simulate it and check its result (seed and salt against the commitment,
 * every action in order) and to count it in a table (its tournament or league, its finish time). Private
 * games no longer enter the log; those appended before they stopped have an entry that is only a salted hash
 * of that record, which stays in the log as it is (append-only): it says nothing else about the game (the salt
 * stays with the server; exports leave such entries out).
 *
 * The leaf of the Merkle tree is the RFC 8785 canonical JSON of the entry, so anyone can recompute it.
 */
import { createHash, randomBytes } from "node:crypto";
import type { Action, ChampionId, DecidedBy, Ruleset, Seat, Winner } from "../../engine/types";
import type { HouseLevel } from "../players/rating";
import type { GameRecord, OpponentKind, RatingStep, StoredAction } from "../../store/port";
import { canonicalJson } from "./canonical";
import { leafHash, type Hash } from "./merkle";

/**
 * The entry format; bumped only by a change a verifier must know about. 2: a rated game's seats carry their
 * ratings before and after it (absent: the game was not rated for that seat). 3: a rated seat carries its whole
 * Glicko-2 step (volatilities, the opponent's before-values, the score, the house level, its place in the
 * player's chain of steps), so a verifier recomputes it. Format 1 and 2 entries, appended before (or, format 2,
 * for a game rated before steps were kept), stay as they are and verify as they did.
 */
export const ENTRY_FORMAT = 3;
export type EntryFormat = 1 | 2 | typeof ENTRY_FORMAT;
export const ENTRY_FORMATS: readonly EntryFormat[] = [1, 2, ENTRY_FORMAT];

/** A Glicko-2 rating and deviation, unrounded, as the player's rating history holds it; format 3 adds the volatility. */
export interface EntryRating {
  rating: number;
  rd: number;
  volatility?: number;
}

export interface EntrySeat {
  playerId: string;
  kind: "human" | "house" | "bot";
  champion?: ChampionId;
  /** Format 2, a seat the game was rated for: its rating before the game (the history's previous point, or the initial rating). */
  ratingBefore?: EntryRating;
  /** Format 2, likewise: the rating the game left (the history's point for the game). */
  ratingAfter?: EntryRating;
  /** Format 3, a rated seat: the opponent's rating before the game (a house player's fixed one). */
  opponentBefore?: EntryRating;
  /** Format 3: the house level, when the opponent was a house player. */
  houseLevel?: HouseLevel;
  /** Format 3: the seat's score in the step, 1, 0.5 or 0. */
  ratingScore?: number;
  /** Format 3: this step's place in the player's chain of steps (the profile's game count after the game). */
  ratingStep?: number;
  /** Format 3: the place of the player's previous step (0: none, the first rated game); absent: not known. */
  previousStep?: number;
  /** Format 3: the game of the player's previous step (absent with previousStep 0 or unknown). */
  previousGame?: string;
}

/** What a rated game did to one seat's rating: the players' rating histories (RatingsPort.ratingChanges) give it. */
export interface SeatRating {
  playerId: string;
  before: EntryRating;
  after: EntryRating;
  /** The step's place in the player's history and the step itself (absent: rated before steps were kept). */
  n?: number;
  step?: RatingStep;
}

/** A format 3 seat's rating fields, from its step. */
function stepFields(r: SeatRating & { step: RatingStep; n: number }): Partial<EntrySeat> {
  const { step } = r;
  const previous = step.previous === null ? { previousStep: 0 } : step.previous ? { previousStep: step.previous.n, previousGame: step.previous.gameId } : {};
  return {
    ratingBefore: { rating: step.before.rating, rd: step.before.rd, volatility: step.before.volatility },
    ratingAfter: { rating: r.after.rating, rd: r.after.rd, volatility: step.volatility },
    opponentBefore: { rating: step.opponent.rating, rd: step.opponent.rd, volatility: step.opponent.volatility },
    ...(step.house ? { houseLevel: step.house } : {}),
    ratingScore: step.score,
    ratingStep: r.n,
    ...previous,
  };
}

/** A public game's entry. */
export interface GameEntry {
  format: EntryFormat;
  kind: "game";
  gameId: string;
  /** 1 for games stored before rules were versioned. */
  rulesVersion: number;
  ruleset: Ruleset;
  opponent: OpponentKind;
  /** A game aborted while it waited has one seat (or none taken by a player yet). */
  seats: Partial<Record<Seat, EntrySeat>>;
  commitment: string;
  /** An integer before rules version 4, a hex string from then on: kept as the record has it. */
  seed: number | string;
  salt: string;
  /** Every accepted action in order: placements and the resignation, timeout or abort that ended it. */
  actions: Action[];
  score: Record<Seat, number>;
  winner: Winner;
  decidedBy: DecidedBy;
  tournamentId?: string;
  leagueId?: string;
  finishedAt: string;
}

/** A private game's entry: a salted hash of what its GameEntry would be. */
export interface PrivateEntry {
  format: EntryFormat;
  kind: "private";
  /** sha256 hex of `${salt}:${canonical GameEntry}`; the salt is kept by the server, never served. */
  digest: string;
  finishedAt: string;
}

export type LogEntry = GameEntry | PrivateEntry;

/**
 * The public finished record of a game, from its stored record and actions and what the game did to its seats'
 * ratings (none for an unrated game; a seat is matched by its player id).
 */
export function gameEntryOf(record: GameRecord, actions: readonly StoredAction[], ratings: readonly SeatRating[] = []): GameEntry {
  if (record.status !== "finished") throw new Error(`gameEntryOf: game ${record.id} has not finished`);
  // Format 3 when every rated seat's step was kept; a game rated before they were is logged as format 2.
  const format: EntryFormat = ratings.every((r) => r.step && r.n !== undefined) ? ENTRY_FORMAT : 2;
  const seats: GameEntry["seats"] = {};
  for (const seat of ["A", "B"] as const) {
    const s = record.seats[seat];
    if (!s) continue;
    const rated = ratings.find((r) => r.playerId === s.playerId);
    seats[seat] = {
      playerId: s.playerId,
      kind: s.kind,
      ...(s.champion ? { champion: s.champion } : {}),
      ...(rated && format === ENTRY_FORMAT
        ? stepFields(rated as SeatRating & { step: RatingStep; n: number })
        : rated
          ? { ratingBefore: { rating: rated.before.rating, rd: rated.before.rd }, ratingAfter: { rating: rated.after.rating, rd: rated.after.rd } }
          : {}),
    };
  }
  return {
    format,
    kind: "game",
    gameId: record.id,
    rulesVersion: record.rulesVersion ?? 1,
    ruleset: record.ruleset,
    opponent: record.opponent,
    seats,
    commitment: record.commitment,
    seed: record.seed,
    salt: record.salt,
    actions: [...actions].sort((a, b) => a.index - b.index).map((a) => a.action),
    score: { A: record.score.A, B: record.score.B },
    winner: record.winner,
    decidedBy: record.decidedBy ?? "aborted",
    ...(record.tournamentId ? { tournamentId: record.tournamentId } : {}),
    ...(record.leagueId ? { leagueId: record.leagueId } : {}),
    finishedAt: record.finishedAt ?? record.updatedAt,
  };
}

export const newPrivateSalt = (): string => randomBytes(16).toString("hex");

export function privateEntryOf(entry: GameEntry, salt: string): PrivateEntry {
  const digest = createHash("sha256")
    .update(`${salt}:${canonicalJson(entry)}`)
    .digest("hex");
  return { format: ENTRY_FORMAT, kind: "private", digest, finishedAt: entry.finishedAt };
}

/** The entry's leaf: its RFC 8785 canonical JSON (the text stored and served), that text's UTF-8 bytes and their leaf hash. */
export function leafOf(entry: LogEntry): { text: string; bytes: Buffer; hash: Hash } {
  const text = canonicalJson(entry);
  const bytes = Buffer.from(text, "utf8");
  return { text, bytes, hash: leafHash(bytes) };
}
