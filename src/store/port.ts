/**
 * The store port: everything the service keeps durably. Adapters: SQLite (embedded default) and MongoDB
 * through mongoose. Every adapter passes the same contract suite (test/store/contract.ts).
 *
 * The store is split into narrow ports, one per bounded context, each in its own file under ./ports with the
 * records it owns. The Store is one member per port (store.games, store.players, ...), so a service receives
 * only the ports it uses (the composition root, which holds the whole Store, hands them out). Each port has
 * its contract suite in test/store; every adapter implements them all. This file is the one import point: it
 * re-exports every port and record, and composes the Store.
 *
 * Conventions: all timestamps are ISO 8601 strings; records are plain JSON; methods never return live
 * references (callers may mutate what they get). Secrets that are only checked (tokens, keys, profile secrets)
 * are stored only as hashes; a webhook subscription's secret is stored as given, since deliveries are signed
 * with it.
 *
 * Shared rules of every adapter:
 * - update* shallow-merge the patch, never change the record's key (id/token), drop members the patch sets
 *   to undefined, bump updatedAt to the current time, and do nothing when the record does not exist.
 * - Timestamps compare as strings, so they must all be `Date#toISOString()` output.
 */
import type { BotsPort } from "./ports/bots";
import type { ChallengesPort } from "./ports/challenges";
import type { CommunitiesPort } from "./ports/communities";
import type { GamesPort } from "./ports/games";
import type { LeaguesPort } from "./ports/leagues";
import type { StoreLifecycle } from "./ports/lifecycle";
import type { LogPort } from "./ports/log";
import type { PlayersPort } from "./ports/players";
import type { ProcessesPort } from "./ports/processes";
import type { RatingsPort } from "./ports/ratings";
import type { SubscriptionsPort } from "./ports/subscriptions";
import type { TournamentsPort } from "./ports/tournaments";

export type * from "./ports/bots";
export type * from "./ports/challenges";
export type * from "./ports/communities";
export type * from "./ports/games";
export type * from "./ports/leagues";
export type * from "./ports/lifecycle";
export type * from "./ports/log";
export type * from "./ports/players";
export type * from "./ports/processes";
export type * from "./ports/ratings";
export type * from "./ports/subscriptions";
export type * from "./ports/tournaments";

/**
 * Everything an adapter implements: its lifecycle, and one member per port, each an object of the adapter's
 * that implements that port (a table's class, or a collection's). Only the composition root and the adapters'
 * tests hold it whole; the root hands each service the member it uses (`store.log`), or, to a service that
 * uses several ports, `store` itself typed as the members it reads (`Pick<Store, "players" | "ratings">`).
 */
export interface Store extends StoreLifecycle {
  readonly games: GamesPort;
  readonly players: PlayersPort;
  readonly ratings: RatingsPort;
  readonly subscriptions: SubscriptionsPort;
  readonly processes: ProcessesPort;
  readonly challenges: ChallengesPort;
  readonly communities: CommunitiesPort;
  readonly bots: BotsPort;
  readonly tournaments: TournamentsPort;
  readonly leagues: LeaguesPort;
  readonly log: LogPort;
}

/** The names of the Store's port members. */
export type StorePortName = Exclude<keyof Store, keyof StoreLifecycle>;
