/** The games port: game records, their action logs and the group commit of the rooms' writes. */
import type { Action, ChampionId, DecidedBy, Level, Ruleset, RulesVersion, Seat, Seed, Winner } from "../../engine/types";
import type { PlayerRecord, PlayerUpdate } from "./players";

export type GameStatus = "waiting" | "active" | "finished";
export type OpponentKind = "house" | "friend" | "hosted" | "quick";

/** Who takes a seat by token: a person or a bot account (the house seat is the house's own). */
export type PlayerSeatKind = "human" | "bot";

export interface SeatRecord {
  /** Friend code of the player's profile; "house" for the house opponent. */
  playerId: string;
  name: string;
  kind: "human" | "house" | "bot";
  /** sha256 hex of the seat's player token; absent for the house seat and for unclaimed seats. */
  tokenHash?: string;
  champion?: ChampionId;
  /** Invite code that claims this seat (friend and hosted games), until it is used. */
  code?: string;
}

export interface GameRecord {
  id: string;
  ruleset: Ruleset;
  /** Rules the game is played under; absent on games stored before rules were versioned (version 1). */
  rulesVersion?: RulesVersion;
  opponent: OpponentKind;
  level?: Exclude<Level, "random">;
  public: boolean;
  turnSeconds: number;
  /** An integer for rules versions 1-3, 32 hex digits from version 4 (src/engine/seed.ts). */
  seed: Seed;
  salt: string;
  commitment: string;
  status: GameStatus;
  seats: Partial<Record<Seat, SeatRecord>>;
  /** Set once the engine game exists (both seats present). */
  firstPlayer?: Seat;
  moveCount: number;
  score: Record<Seat, number>;
  winner: Winner;
  decidedBy?: DecidedBy;
  /** Agent challenge this game plays, if any. */
  challengeToken?: string;
  /** The bot a bot challenge invited (its open seat's code): the only one that may decline it. */
  challengedBot?: string;
  /** Tournament this game is a pairing of, if any: its result is reported to that tournament. */
  tournamentId?: string;
  /** League this game is a scheduled game of, if any: its result is reported to that league (src/services/leagues). */
  leagueId?: string;
  /**
   * A league game whose deal's other game (dealt from the same seed, seats swapped) may still be played: while
   * set, the finished game shows no reveal, replay or review, since its seed tells both hands and the pile of
   * the other game. Set at creation (createForLeague) and removed by the league once both games have finished
   * (GameReads.unseal); absent on every other game.
   */
  sealed?: boolean;
  /**
   * Process id that holds the game's room (Colyseus processId), set when a room claims the game, or at
   * creation when the room is to open in the creating process (Ownership.own: the creation is the claim).
   */
  owner?: string;
  /**
   * 1 from a claim at creation, then bumped by every claim of the game by a room (updateGameIf on it). Every
   * group-commit write of a room carries the epoch it claimed (GameWrite.ownerEpoch), so a room that lost its
   * game to another process cannot write any more.
   */
  ownerEpoch?: number;
  /** A finished game's rematch, once a seat offered one (src/services/games/rematch.ts); written by updateRematchIf only. */
  rematch?: GameRematch;
  createdAt: string;
  updatedAt: string;
  startedAt?: string;
  lastMoveAt?: string;
  finishedAt?: string;
}

export interface StoredAction {
  gameId: string;
  /** 0-based position in the game's action log. */
  index: number;
  action: Action;
  at: string;
}

/**
 * A finished game's rematch as every process sees it: the seat whose offer stands and, once the other seat
 * accepted, the new game's id (stored before the game is created, so two acceptances create one game).
 */
export interface GameRematch {
  /** 1 when first written; each write stores `version + 1` of the one it read (updateRematchIf). */
  version: number;
  /** The seat whose offer stands; null once declined or taken back. */
  offeredBy: Seat | null;
  /** When `offeredBy` last changed: an offer lapses a while after it (src/services/games/rematch.ts). */
  at: string;
  /** The accepted rematch's game, set once and never changed. */
  gameId?: string;
}

/** The scalar members a conditional game update can check. */
export type GameExpectation = Partial<Pick<GameRecord, "owner" | "ownerEpoch" | "status">>;

export interface ListGamesQuery {
  status?: GameStatus;
  publicOnly?: boolean;
  /**
   * Only the public games with a seat of this player (profile id), for the public profile: neither the status
   * nor the public filter is combined with it.
   */
  playerId?: string;
  limit: number;
  cursor?: string;
}

/**
 * One game's share of a group commit: the actions it accepted and the record members that follow from them
 * (status, score, winner and the rest a listing or profile must be able to query). The conditions a write
 * must meet to be stored are checked per write inside the batch's transaction: every action index must be
 * free and, when `ownerEpoch` is given, the game's stored owner epoch must still be that one (the fence that
 * keeps a room whose game moved to another process from writing; src/services/cluster/ownership.ts).
 */
export interface GameWrite {
  gameId: string;
  /** Appended in order. */
  actions: StoredAction[];
  /** Shallow-merged into the record exactly like updateGameIf's (an empty patch leaves the record alone). */
  patch: Partial<GameRecord>;
  /** The epoch the writing room claimed its game with; the write is a "conflict" once it is not the stored one. */
  ownerEpoch?: number;
  /**
   * Profile writes that go with the game's (a finished game's results), each conditional as in
   * updatePlayersIf, so that a game's finish and its ratings take one commit. The write is "stale" when one
   * of them does not hold: the game's part is then not stored, and the caller reads the profiles again.
   * SQLite stores the game's part and the profiles in one savepoint of the batch's transaction, all or none.
   * MongoDB (no multi-document transaction) writes the profiles first, in order, and the game's part only
   * once they all held: a profile written before one that did not, before a crash, or for a game's part then
   * refused, keeps its write, which counts the game once (a profile records the games it was rated for).
   */
  players?: readonly PlayerUpdate[];
  /**
   * New profiles stored with the game's part (the guest profile of a seat the write claims), so that a join
   * is one durable write. The write is "stale" when one of their ids is taken: nothing of it is stored, and
   * the caller retries with a fresh id. SQLite inserts them in the write's savepoint, all or none; MongoDB
   * inserts them first and the game's part after (a profile inserted for a game's part then refused stays,
   * unused, as a guest made for a failed request does).
   */
  guests?: readonly PlayerRecord[];
}

/**
 * What became of one write of a batch: stored, refused because a condition on the game did not hold
 * ("conflict"), or refused because a condition on one of its profiles did not ("stale"); refused, nothing of
 * the game's part is stored.
 */
export type GameWriteResult = "committed" | "conflict" | "stale";

/**
 * Games and their action logs. After creation a game's room writes its seats, moves and finish through
 * commitGames; besides it, updateGameIf writes a room's claim of its game (src/services/cluster/ownership.ts) and the
 * league's unsealing (GameReads.unseal), and updateRematchIf a finished game's rematch (src/services/games/rematch.ts).
 */
export interface GamesPort {
  /**
   * Stores a new game with the new profiles its seats refer to (a guest made for its creator's seat), so that
   * a set-up pays one durable write for both. SQLite writes them in one transaction: a taken id of any of them
   * (a duplicate-key error) stores none. MongoDB inserts the profiles first, each atomic on its own: a game
   * is never stored without its seats' profiles, and a failure after them leaves profiles no game refers to.
   */
  createGame(game: GameRecord, players?: readonly PlayerRecord[]): Promise<void>;
  /**
   * Stores several new games in one write (a tournament round's): all or none. When any id is taken the call
   * rejects and none of the games given is stored (SQLite: one transaction; MongoDB: one ordered insert, whose
   * documents that went in before the duplicate are removed again).
   */
  createGames(games: GameRecord[]): Promise<void>;
  getGame(id: string): Promise<GameRecord | null>;
  findGameByCode(code: string): Promise<GameRecord | null>;
  /** Newest first (createdAt, then id); cursor is opaque. A malformed cursor throws AppError bad_request. */
  listGames(q: ListGamesQuery): Promise<{ games: GameRecord[]; nextCursor: string | null }>;
  /**
   * Games not finished, oldest first: a process taking over a gone one's games, and its sweep for orphaned
   * ones, look for those of an owner (src/services/cluster/failover.ts).
   */
  listUnfinishedGames(): Promise<GameRecord[]>;
  /**
   * Games of one unfinished status, oldest first (createdAt, then id): those created before `createdBefore`
   * (all when absent), at most `limit` (all when absent). A restart resumes the active ones; the waiting
   * ones past their waiting time are aborted in pages.
   */
  listGamesWithStatus(status: "waiting" | "active", q?: { createdBefore?: string; limit?: number }): Promise<GameRecord[]>;

  /**
   * Shallow-merges the patch and bumps updatedAt, but only when every member of `expected` equals the stored
   * one (undefined: absent; `{}` always holds). Check and write are atomic across processes; resolves with
   * whether it wrote (false also when the game does not exist).
   */
  updateGameIf(id: string, expected: GameExpectation, patch: Partial<GameRecord>): Promise<boolean>;

  /**
   * Stores a finished game's `rematch` (and bumps updatedAt) when the stored one's version is `version`
   * (undefined: the game has none yet); false, writing nothing, when another write came first or the game is
   * not finished or does not exist. Check and write are atomic across processes. A room's writes of its game
   * never set `rematch`, so the two never overwrite each other.
   */
  updateRematchIf(id: string, version: number | undefined, rematch: GameRematch): Promise<boolean>;

  /**
   * Group commit of the rooms' writes (src/store/group-commit.ts). SQLite commits every write of the batch in
   * one transaction (one durable commit); MongoDB makes each write one conditional update of its game's
   * document. A write whose condition fails is skipped and reported "conflict" (or "stale": GameWrite.players);
   * the others still commit. A rejection means nothing of the batch's games was stored (MongoDB undoes the
   * writes that applied; a profile it wrote first keeps its write, as GameWrite.players says). A committed
   * write whose patch sets status "finished" also marks its game pending for the public log
   * (LogPort.addLogPending): SQLite in the same transaction; MongoDB before the write is answered (a crash
   * between the two leaves the mark to the log's start-up catch-up). A finished game is never acknowledged
   * without the mark.
   */
  commitGames(writes: GameWrite[]): Promise<GameWriteResult[]>;
  /** In index order. */
  listActions(gameId: string): Promise<StoredAction[]>;
}
