/** The subscriptions port: webhook subscriptions, their pending deliveries and verified callback URLs. */

export interface SubscriptionRecord {
  id: string;
  name: string;
  /** Stable key of (name, canonical arguments, url); the identity of the subscription. */
  key: string;
  /** Arguments as stored: never a player token (game.turn keeps only game_id and seat). */
  arguments: Record<string, unknown>;
  url: string;
  /** The signing secret (whsec_...), as given: every delivery is signed with it, so it cannot be a hash. */
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
   * keeps them while it lives and its lookups are answered from them (src/services/games/subscription-cache.ts).
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
