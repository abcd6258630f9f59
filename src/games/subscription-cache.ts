/**
 * The webhook subscriptions of a live game, looked up once and kept while its room lives in this process,
 * instead of a store query for every event the room emits. It sits in front of the subscriptions port that
 * the events context receives, so the events code is unchanged: a lookup for a game with a local room is
 * answered from memory, anything else goes to the store.
 *
 * Invalidation: subscribing and unsubscribing (and a subscription dropped for failures or a 410) publish the
 * game's id on a presence channel, and every process drops that game's entry; with Redis presence that
 * reaches every process. Expiry needs no message: entries hold every subscription whatever its expiry and
 * a lookup filters by the time it is asked for. A cursor or failure-count update (the dispatcher's
 * bookkeeping) is applied to the cached records in place, as it only matters to the process that emits.
 */
import type { Presence } from "@colyseus/core";
import type { SubscriptionRecord, SubscriptionsPort } from "../store/port";

export const SUBSCRIPTIONS_CHANNEL = "subscriptions-changed";
/** Published instead of a game id when the change cannot be tied to one game: every entry is dropped. */
const ALL = "*";

interface GameEntry {
  /** Bumped by every invalidation: a lookup that started before it does not fill the cache. */
  generation: number;
  lists: Map<string, SubscriptionRecord[]>;
}

const listKey = (name: string, match: Record<string, unknown>): string =>
  `${name}\u0000${JSON.stringify(Object.keys(match).sort().map((k) => [k, match[k]]))}`;

export class SubscriptionCache implements SubscriptionsPort {
  private readonly games = new Map<string, GameEntry>();
  /** The cached records by subscription id, so the dispatcher's cursor updates find theirs at once. */
  private readonly byId = new Map<string, Set<SubscriptionRecord>>();
  private readonly onMessage = (gameId: unknown) => this.drop(typeof gameId === "string" ? gameId : ALL);
  private lookups = { cached: 0, stored: 0 };

  constructor(
    private readonly inner: SubscriptionsPort,
    private readonly presence: Presence,
    /** True while the game's room lives in this process: only then is its entry kept. */
    private readonly isLive: (gameId: string) => boolean,
  ) {}

  /** Listens for invalidations from every process. */
  async start(): Promise<void> {
    await this.presence.subscribe(SUBSCRIPTIONS_CHANNEL, this.onMessage);
  }

  stop(): void {
    // Presence may already be closing; an invalidation missed now no longer matters.
    void Promise.resolve(this.presence.unsubscribe(SUBSCRIPTIONS_CHANNEL, this.onMessage)).catch(() => undefined);
    this.games.clear();
    this.byId.clear();
  }

  /** The game's room was released: its entry goes with it. */
  forget(gameId: string): void {
    this.drop(gameId);
    this.games.delete(gameId);
  }

  /** Lookups answered from memory and from the store, since start. */
  stats(): { cached: number; stored: number } {
    return { ...this.lookups };
  }

  async findSubscriptions(name: string, match: Record<string, unknown>, now: string): Promise<SubscriptionRecord[]> {
    const gameId = typeof match.game_id === "string" ? match.game_id : null;
    if (!gameId || !this.isLive(gameId)) {
      this.lookups.stored++;
      return this.inner.findSubscriptions(name, match, now);
    }
    let entry = this.games.get(gameId);
    if (!entry) {
      entry = { generation: 0, lists: new Map() };
      this.games.set(gameId, entry);
    }
    const key = listKey(name, match);
    let list = entry.lists.get(key);
    if (list) {
      this.lookups.cached++;
    } else {
      this.lookups.stored++;
      const generation = entry.generation;
      // Every subscription whatever its expiry (no ISO time sorts before ""): expiry is filtered per lookup.
      list = await this.inner.findSubscriptions(name, match, "");
      if (this.games.get(gameId) === entry && entry.generation === generation) {
        entry.lists.set(key, list);
        for (const s of list) {
          let same = this.byId.get(s.id);
          if (!same) this.byId.set(s.id, (same = new Set()));
          same.add(s);
        }
      }
    }
    return list.filter((s) => s.expiresAt > now).map((s) => ({ ...s }));
  }

  async upsertSubscription(s: SubscriptionRecord): Promise<SubscriptionRecord> {
    const stored = await this.inner.upsertSubscription(s);
    this.changed(s.arguments.game_id);
    return stored;
  }

  async deleteSubscriptionByKey(key: string): Promise<boolean> {
    const removed = await this.inner.deleteSubscriptionByKey(key);
    if (removed) this.changed(undefined);
    return removed;
  }

  async deleteSubscription(id: string): Promise<void> {
    await this.inner.deleteSubscription(id);
    this.changed(undefined);
  }

  async updateSubscription(id: string, patch: Partial<SubscriptionRecord>): Promise<void> {
    await this.inner.updateSubscription(id, patch);
    const bookkeeping = Object.keys(patch).every((k) => k === "cursor" || k === "failures");
    if (!bookkeeping) return this.changed(undefined);
    for (const s of this.byId.get(id) ?? []) Object.assign(s, patch);
  }

  getSubscriptionByKey(key: string): Promise<SubscriptionRecord | null> {
    return this.inner.getSubscriptionByKey(key);
  }
  deleteExpiredSubscriptions(now: string): Promise<number> {
    return this.inner.deleteExpiredSubscriptions(now);
  }
  saveDeliveries(d: Parameters<SubscriptionsPort["saveDeliveries"]>[0]): Promise<void> {
    return this.inner.saveDeliveries(d);
  }
  deleteDeliveries(eventIds: string[]): Promise<void> {
    return this.inner.deleteDeliveries(eventIds);
  }
  claimDeliveries(expiredBy: string, leaseUntil: string, limit: number, holder?: string) {
    return this.inner.claimDeliveries(expiredBy, leaseUntil, limit, holder);
  }
  expireDeliveriesOf(holder: string, now: string): Promise<number> {
    return this.inner.expireDeliveriesOf(holder, now);
  }
  markUrlVerified(url: string, at: string): Promise<void> {
    return this.inner.markUrlVerified(url, at);
  }
  urlVerifiedAt(url: string): Promise<string | null> {
    return this.inner.urlVerifiedAt(url);
  }

  /** Drops the entry here at once (the caller's next event must see the change), then tells every process. */
  private changed(gameId: unknown): void {
    const target = typeof gameId === "string" ? gameId : ALL;
    this.drop(target);
    void Promise.resolve(this.presence.publish(SUBSCRIPTIONS_CHANNEL, target)).catch(() => undefined);
  }

  private drop(gameId: string): void {
    const entries = gameId === ALL ? [...this.games.values()] : [this.games.get(gameId)].filter((e) => e !== undefined);
    for (const entry of entries) {
      entry.generation++;
      for (const list of entry.lists.values()) {
        for (const s of list) {
          const same = this.byId.get(s.id);
          same?.delete(s);
          if (same?.size === 0) this.byId.delete(s.id);
        }
      }
      entry.lists.clear();
    }
  }
}
