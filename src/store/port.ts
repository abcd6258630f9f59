/**
 * The store port: everything the service keeps durably. Adapters: SQLite (embedded default) and MongoDB
 * through mongoose. Every adapter passes the same contract suite (test/store/contract.ts).
 *
 * Conventions: all timestamps are ISO 8601 strings; records are plain JSON; methods never return live
 * references (callers may mutate what they get). Secrets are stored only as hashes.
 */
import type { Action, ChampionId, DecidedBy, Level, Ruleset, RulesVersion, Seat, Seed, Winner } from "../game/types";

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
  /** An integer for rules versions 1-3, 32 hex digits from version 4 (src/game/seed.ts). */
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
  /** League this game is a scheduled game of, if any: its result is reported to that league (src/leagues). */
  leagueId?: string;
  /**
   * A league game whose deal's other game (dealt from the same seed, seats swapped) may still be played: while
   * set, the finished game shows no reveal, replay or review, since its seed tells both hands and the pile of
   * the other game. Set at creation (createForLeague) and removed by the league once both games have finished
   * (GameService.unseal); absent on every other game.
   */
  sealed?: boolean;
  /** Process id that holds the game's room (Colyseus processId), set when a room claims the game. */
  owner?: string;
  /**
   * Bumped by every claim of the game by a room (updateGameIf on it). Every group-commit write of a room
   * carries the epoch it claimed (GameWrite.ownerEpoch), so a room that lost its game to another process
   * cannot write any more.
   */
  ownerEpoch?: number;
  /** A finished game's rematch, once a seat offered one (rooms/rematch.ts); written by updateRematchIf only. */
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
  /** Hash of the address the profile was made from (rating integrity: src/players/integrity.ts). */
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
  /** "bot" for a bot's one profile (src/bots); absent for people. Rated in the same pool. */
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

/**
 * A finished game's rematch as every process sees it: the seat whose offer stands and, once the other seat
 * accepted, the new game's id (stored before the game is created, so two acceptances create one game).
 */
export interface GameRematch {
  /** 1 when first written; each write stores `version + 1` of the one it read (updateRematchIf). */
  version: number;
  /** The seat whose offer stands; null once declined or taken back. */
  offeredBy: Seat | null;
  /** When `offeredBy` last changed: an offer lapses a while after it (rooms/rematch.ts). */
  at: string;
  /** The accepted rematch's game, set once and never changed. */
  gameId?: string;
}

/** The scalar members a conditional game update can check. */
export type GameExpectation = Partial<Pick<GameRecord, "owner" | "ownerEpoch" | "status">>;

/** A server process sharing the store, as it registered itself (see src/cluster). */
export interface ProcessRecord {
  /** Colyseus processId. */
  id: string;
  /** Whether it shares presence (Redis) with its peers; a process without it must be alone on the store. */
  sharedPresence: boolean;
  /** host:port WebSocket clients use to reach it, when scaled out. */
  publicAddress?: string;
  pid: number;
  /** Machine it runs on (os.hostname()). */
  host: string;
  startedAt: string;
  /** Renewed every heartbeat; a process whose heartbeat is older than the dead-after time is dead. */
  heartbeatAt: string;
}

/** How rankPlayers narrows the ranking. */
export interface RankOptions {
  /** Only profiles with at least one game and no movedTo (the player leaderboard's rows). */
  listed?: boolean;
}
/** The scalar members a conditional player update can check. */
export type PlayerExpectation = Partial<Pick<PlayerRecord, "version" | "movedTo">>;

export interface SubscriptionRecord {
  id: string;
  name: string;
  /** Stable key of (name, canonical arguments, url); the identity of the subscription. */
  key: string;
  /** Arguments as stored: never a player token (game.turn keeps only game_id and seat). */
  arguments: Record<string, unknown>;
  url: string;
  secret: string;
  expiresAt: string;
  failures: number;
  /** Last event sequence delivered or skipped (for game.move: the move index). */
  cursor: number | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * A webhook delivery that has not finished yet (not delivered, not given up). Kept so that a restart, or
 * another process once the lease has run out, finishes it with the same eventId and body.
 */
export interface DeliveryRecord {
  eventId: string;
  subscriptionId: string;
  subscriptionKey: string;
  /** The exact JSON body to POST (signed afresh at each attempt). */
  body: string;
  /** The process holding the delivery may try it until then; afterwards any process may take it over. */
  leaseUntil: string;
  /** Process id (Colyseus processId) that recorded or last took over the delivery, when known. */
  holder?: string;
  createdAt: string;
}

export interface ChallengeRecord {
  token: string;
  agent: { name: string; url?: string };
  level: Exclude<Level, "random">;
  ruleset: Ruleset;
  status: "open" | "playing" | "played" | "expired";
  expiresAt: string;
  gameId?: string;
  humanPlayerId?: string;
  /** The agent's own bot that plays the human (src/bots), instead of the house at `level`. */
  botId?: string;
  result?: { winner: Winner; score: Record<Seat, number>; humanSeat: Seat; decidedBy?: DecidedBy };
  reportedAt?: string;
  createdAt: string;
  updatedAt: string;
}

/** The scalar members a conditional challenge update can check. */
export type ChallengeExpectation = Partial<Pick<ChallengeRecord, "status" | "gameId" | "reportedAt">>;

export interface CommunityRecord {
  id: string;
  kind: "club" | "community";
  name: string;
  members: string[];
  createdAt: string;
}

/** What /healthz reports about the store: whether a trivial round trip succeeds right now. */
/** A played or running game of a tournament round: seats by player id, `first` moves first (seat A). */
export interface TournamentGame { first: string; second: string; gameId: string; outcome?: "first" | "second" | "draw" }

/** An arena game: when it was paired, and when each side had become free (for the wait it took). */
export interface ArenaGame extends TournamentGame { pairedAt: string; freeSince: [string, string] }

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
  /** Games lost in a row on the clock without a move (src/tournaments/absence.ts); two withdraw the entrant. */
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

/** How a league counts a finished game; `void` (aborted before both seats moved) counts for nobody. */
export type LeagueOutcome = "first" | "second" | "draw" | "void";

/** A game of a league deal: `first` takes the seat the seed makes the first mover. */
export interface LeagueGame { first: string; second: string; gameId: string }

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

export interface StoreHealth { ok: boolean; adapter: "sqlite" | "mongodb"; state: string }

export interface ListGamesQuery {
  status?: GameStatus;
  publicOnly?: boolean;
  /** Only games with a seat of this player (profile id); the status filter is not combined with it. */
  playerId?: string;
  limit: number;
  cursor?: string;
}

/**
 * One game's share of a group commit: the actions it accepted and the record members that follow from them
 * (status, score, winner and the rest a listing or profile must be able to query). The conditions a write
 * must meet to be stored are checked per write inside the batch's transaction: every action index must be
 * free and, when `ownerEpoch` is given, the game's stored owner epoch must still be that one (the fence that
 * keeps a room whose game moved to another process from writing; src/cluster/ownership.ts).
 */
export interface GameWrite {
  gameId: string;
  /** Appended in order. */
  actions: StoredAction[];
  /** Shallow-merged into the record exactly like updateGame (an empty patch leaves the record alone). */
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

/** Raised by appendAction when the index is already taken (two writers raced). */
export class ActionConflictError extends Error {
  constructor(readonly gameId: string, readonly index: number) {
    super(`action ${index} of game ${gameId} already exists`);
    this.name = "ActionConflictError";
  }
}

/**
 * The store is split into narrow ports, one per bounded context; a service receives only the port it uses
 * (and the composition root, which holds the whole Store, hands them out). Each port has its contract suite
 * in test/store; every adapter implements them all.
 *
 * Shared rules of every adapter:
 * - update* shallow-merge the patch, never change the record's key (id/token), drop members the patch sets
 *   to undefined, bump updatedAt to the current time, and do nothing when the record does not exist.
 * - Timestamps compare as strings, so they must all be `Date#toISOString()` output.
 */
export interface StoreLifecycle {
  /** Create tables/indexes; idempotent. */
  init(): Promise<void>;
  close(): Promise<void>;
  /** A bounded round trip to the store; never throws (a failure is `ok: false` with the state). */
  health(): Promise<StoreHealth>;
}

/** Games and their action logs. Only a game's room writes a game after creation (through commitGames). */
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
  /** Shallow-merges the patch and bumps updatedAt. */
  updateGame(id: string, patch: Partial<GameRecord>): Promise<void>;
  findGameByCode(code: string): Promise<GameRecord | null>;
  /** Newest first (createdAt, then id); cursor is opaque. A malformed cursor throws AppError bad_request. */
  listGames(q: ListGamesQuery): Promise<{ games: GameRecord[]; nextCursor: string | null }>;
  /** Games not finished (for resuming rooms after a restart), oldest first. */
  listUnfinishedGames(): Promise<GameRecord[]>;
  /**
   * Games of one unfinished status, oldest first (createdAt, then id): those created before `createdBefore`
   * (all when absent), at most `limit` (all when absent). A restart resumes the active ones; the waiting
   * ones past their waiting time are aborted in pages.
   */
  listGamesWithStatus(status: "waiting" | "active", q?: { createdBefore?: string; limit?: number }): Promise<GameRecord[]>;

  /**
   * Like updateGame, but only when every member of `expected` equals the stored one (undefined: absent).
   * Check and write are atomic across processes; resolves with whether it wrote.
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
   * Appends the next action of a stored game's log. Durable before it resolves. Throws ActionConflictError
   * if the index exists.
   */
  appendAction(a: StoredAction): Promise<void>;
  /**
   * Group commit: every write of the batch in one transaction (one durable commit). A write whose condition
   * fails is skipped and reported "conflict"; the others still commit. A rejection means nothing of the
   * batch was stored.
   */
  commitGames(writes: GameWrite[]): Promise<GameWriteResult[]>;
  /** In index order. */
  listActions(gameId: string): Promise<StoredAction[]>;
}

/** One point of a player's rating history: what one rated game left the rating at. */
export interface RatingPoint {
  playerId: string;
  gameId: string;
  /** When the game was rated (its end). */
  at: string;
  /** The profile's game count after this game: the point's place in the history, from 1. */
  n: number;
  /** Glicko-2 rating and deviation after the game, unrounded. */
  rating: number;
  rd: number;
}
/** A point as its profile carries it (PlayerRecord.lastRated). */
export type RatingPointOf = Omit<RatingPoint, "playerId">;

/**
 * Players' rating histories: one point per rated game, added by the profile write that carries it
 * (PlayerRecord.lastRated). SQLite adds it in the same transaction as the profile; MongoDB right after the
 * profile's write (a crash between the two loses that one point, never the rating). Adding a point twice keeps one.
 */
export interface RatingsPort {
  /** A player's points whose `n` is above `after` (0: from the first), oldest first, at most `limit`. */
  ratingHistory(playerId: string, after: number, limit: number): Promise<RatingPoint[]>;
  /** For each of `playerIds` whose history has a point for the game: that point and the one before it (null: none). */
  ratingChanges(gameId: string, playerIds: readonly string[]): Promise<{ after: RatingPoint; before: RatingPoint | null }[]>;
}

/** One conditional write of updatePlayersIf: updatePlayerIf's arguments. */
export interface PlayerUpdate { id: string; expected: PlayerExpectation; patch: Partial<PlayerRecord> }

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

/** Webhook subscriptions, their pending deliveries and the callback URLs verified recently. */
export interface SubscriptionsPort {
  /** An existing key keeps its id and createdAt, everything else is replaced. Returns what is stored. */
  upsertSubscription(s: SubscriptionRecord): Promise<SubscriptionRecord>;
  getSubscriptionByKey(key: string): Promise<SubscriptionRecord | null>;
  deleteSubscriptionByKey(key: string): Promise<boolean>;
  deleteSubscription(id: string): Promise<void>;
  updateSubscription(id: string, patch: Partial<SubscriptionRecord>): Promise<void>;
  /**
   * Live (expiresAt > now) subscriptions of an event whose arguments include every given pair (e.g.
   * {game_id}), values compared by deep equality.
   */
  findSubscriptions(name: string, match: Record<string, unknown>, now: string): Promise<SubscriptionRecord[]>;
  /**
   * The subscriptions whose `game_id` argument is `gameId`, whatever their name and expiry, in store order:
   * every one an event of that game can match, since a game's events match by `game_id`. A game's room
   * keeps them while it lives and its lookups are answered from them (src/games/subscription-cache.ts).
   */
  findGameSubscriptions(gameId: string): Promise<SubscriptionRecord[]>;
  /** Deletes those with expiresAt <= now; returns how many. */
  deleteExpiredSubscriptions(now: string): Promise<number>;

  /** Inserts the deliveries, or replaces those whose eventId is already stored. */
  saveDeliveries(d: DeliveryRecord[]): Promise<void>;
  /** Unknown eventIds are ignored. */
  deleteDeliveries(eventIds: string[]): Promise<void>;
  /**
   * Leases to the caller up to `limit` deliveries whose lease ends at or before `expiredBy`, oldest first:
   * sets their leaseUntil and returns them as stored, each at most once per call (even when the new lease
   * still ends before `expiredBy`). Two callers never get the same delivery from one expiry. With `holder`,
   * the claimed deliveries record it as their holder.
   */
  claimDeliveries(expiredBy: string, leaseUntil: string, limit: number, holder?: string): Promise<DeliveryRecord[]>;
  /**
   * Ends now the leases of the deliveries a process holds (it was declared dead), so a live process takes
   * them over at once instead of waiting for the leases to run out. Resolves with how many.
   */
  expireDeliveriesOf(holder: string, now: string): Promise<number>;

  markUrlVerified(url: string, at: string): Promise<void>;
  urlVerifiedAt(url: string): Promise<string | null>;
}

/** The server processes sharing the store, each with its heartbeat (src/cluster). */
export interface ProcessesPort {
  /** Inserts the process or replaces the record of the same id. */
  registerProcess(p: ProcessRecord): Promise<void>;
  /** Renews a heartbeat; false when the record is gone (another process declared this one dead). */
  touchProcess(id: string, heartbeatAt: string): Promise<boolean>;
  listProcesses(): Promise<ProcessRecord[]>;
  /** Removes the record only if its heartbeat is still `heartbeatAt`; true for the one caller that removed it. */
  removeProcessIf(id: string, heartbeatAt: string): Promise<boolean>;
}

/** Agent challenges. */
export interface ChallengesPort {
  createChallenge(c: ChallengeRecord): Promise<void>;
  getChallenge(token: string): Promise<ChallengeRecord | null>;
  updateChallenge(token: string, patch: Partial<ChallengeRecord>): Promise<void>;
  /**
   * Like updateChallenge, but only when every member of `expected` equals the stored one (undefined: the
   * member is absent). Check and write are atomic, across processes too; resolves with whether it wrote.
   */
  updateChallengeIf(token: string, expected: ChallengeExpectation, patch: Partial<ChallengeRecord>): Promise<boolean>;
  /** Newest first. */
  listChallenges(agentName: string, limit: number): Promise<ChallengeRecord[]>;
}

/** Clubs and communities with their members. */
export interface CommunitiesPort {
  createCommunity(c: CommunityRecord): Promise<void>;
  getCommunity(id: string): Promise<CommunityRecord | null>;
  /** Oldest first; members in the order they joined. */
  listCommunities(kind?: CommunityRecord["kind"]): Promise<CommunityRecord[]>;
  /** Idempotent; ignored when the community does not exist. */
  addMember(id: string, playerId: string): Promise<void>;
  removeMember(id: string, playerId: string): Promise<void>;
  communitiesOf(playerId: string): Promise<CommunityRecord[]>;
}

/** A registered bot. Its profile (a PlayerRecord of kind "bot") has the same id. */
export interface BotRecord {
  id: string;
  name: string;
  /** How to reach the bot's owner, as they gave it (optional; never shown). */
  owner?: string;
  /** What the bot is, in its owner's words (optional; public). */
  description?: string;
  /** sha256 hex of the bot's key (bk_...); the key itself is shown once and never stored. */
  keyHash: string;
  createdAt: string;
  /** Set when the key was revoked: the bot can no longer play. */
  revokedAt?: string;
}

/** Bot accounts (src/bots). */
export interface BotsPort {
  /** Refused as a duplicate key when the id is taken. */
  createBot(b: BotRecord): Promise<void>;
  getBot(id: string): Promise<BotRecord | null>;
  /** The bot whose key hashes to `keyHash`, revoked or not; null when none. */
  findBotByKey(keyHash: string): Promise<BotRecord | null>;
  /** Ignored when the bot does not exist. */
  updateBot(id: string, patch: Partial<Omit<BotRecord, "id">>): Promise<void>;
  /** Bots newest first (createdAt, then id), revoked ones too, skipping `offset`, at most `limit`. */
  listBots(limit: number, offset: number): Promise<BotRecord[]>;
}

/** Everything an adapter implements; only the composition root and the adapters' tests hold it whole. */
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

/**
 * Duplicate leagues (src/leagues): a small head per league replaced by compare-and-set on its version, the
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


/** One entry of the public game log (src/log), at its index: its leaf is `leaf`, the entry's canonical JSON. */
export interface LogEntryRecord {
  index: number;
  gameId: string;
  /** RFC 8785 canonical JSON of the entry (src/log/entry.ts); its UTF-8 bytes are the Merkle leaf. */
  leaf: string;
  finishedAt: string;
  /** A private game's: the salt of the digest its entry holds. Never served; lets the server prove the entry later. */
  privateSalt?: string;
}

/** A complete subtree of the log's Merkle tree: 2^level leaves from index * 2^level; hash in hex. */
export interface LogNodeRecord { level: number; index: number; hash: string }

/** A signed tree head: the log's size and root at a time, signed by the log's key (src/log/heads.ts). */
export interface TreeHeadRecord {
  size: number;
  /** Hex. */
  rootHash: string;
  timestamp: string;
  /** Base64 Ed25519 signature over the head's canonical JSON without the signature. */
  signature: string;
}

/** The log's one state: its size, its newest head and the sequencer lease (who appends, fenced by epoch). */
export interface LogStateRecord {
  size: number;
  head: TreeHeadRecord | null;
  /** Bumped by every change of holder: an append carries the epoch it claimed, so a fenced-out one cannot write. */
  epoch: number;
  holder: string | null;
  leaseUntil: string | null;
}

/** One batch of the sequencer: written only while the stored epoch and size are still the ones it read. */
export interface LogAppend {
  epoch: number;
  fromSize: number;
  /** Indexes fromSize, fromSize + 1, ... in order. */
  entries: LogEntryRecord[];
  /** Every complete subtree the entries complete (their leaves included). */
  nodes: LogNodeRecord[];
  head: TreeHeadRecord;
}

/**
 * The public game log (src/log): its entries, the hashes of its tree's complete subtrees, its signed heads, the
 * games waiting to be appended and the sequencer's lease. Only the lease holder appends (appendLog's fence), so
 * the tree is one whatever the number of processes; readers see entries and nodes below the stored size only.
 */
export interface LogPort {
  logState(): Promise<LogStateRecord>;
  /**
   * Takes or renews the sequencer lease for `holder` until `until` when it holds it or the lease ended by `now`
   * (a new holder bumps the epoch); null, changing nothing, while another holder's lease runs. Atomic across
   * processes.
   */
  claimLogLease(holder: string, now: string, until: string): Promise<LogStateRecord | null>;
  /**
   * Stores a batch and its head when the stored epoch and size are `epoch` and `fromSize`, and takes its games
   * off the pending list; false, storing nothing readers see, otherwise (SQLite: one transaction; MongoDB: the
   * state's compare-and-set comes last, and what a refused or cut-off batch left beyond the size is replaced by
   * the next batch of a later epoch).
   */
  appendLog(batch: LogAppend): Promise<boolean>;
  /** The stored nodes among `refs` that lie inside the stored tree. */
  logNodes(refs: readonly { level: number; index: number }[]): Promise<LogNodeRecord[]>;
  /** Entries with index in [from, to) and below the stored size, in index order. */
  logEntries(from: number, to: number): Promise<LogEntryRecord[]>;
  /** Up to `limit` entries below the stored size finished in [start, end), by (finishedAt, index), after the `after` one. */
  logEntriesFinished(start: string, end: string, after: { finishedAt: string; index: number } | null, limit: number): Promise<LogEntryRecord[]>;
  logEntryOfGame(gameId: string): Promise<LogEntryRecord | null>;
  /** The game's index below the stored size, or null; reads no entry (an inclusion proof needs only this and nodes). */
  logIndexOfGame(gameId: string): Promise<number | null>;
  /** The signed head of that size, when a batch ended there. */
  logHead(size: number): Promise<TreeHeadRecord | null>;
  /** Marks finished games to be appended (idempotent). */
  addLogPending(gameIds: readonly string[]): Promise<void>;
  /** Up to `limit` pending games, oldest first. */
  logPending(limit: number): Promise<string[]>;
  dropLogPending(gameIds: readonly string[]): Promise<void>;
  /**
   * Finished games with no entry, after the opaque cursor (all from the start when null), a page at a time:
   * what a crash between a game's finish and its pending mark left out, found again at start.
   */
  unloggedGames(cursor: string | null, limit: number): Promise<{ gameIds: string[]; next: string | null }>;
  /** Stores the log's signing key (PKCS#8 PEM) unless one is stored already; resolves with the stored one. */
  ensureLogKey(pem: string): Promise<string>;
}

export interface Store extends StoreLifecycle, GamesPort, PlayersPort, SubscriptionsPort, ProcessesPort, ChallengesPort, CommunitiesPort, BotsPort, TournamentsPort, LeaguesPort, RatingsPort, LogPort {}
