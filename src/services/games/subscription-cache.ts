/**
 * The webhook subscriptions of a live game, loaded once (every subscription naming the game, whatever its
 * event and expiry) and kept while its room lives in this process, instead of a store query for every
 * event the room emits. It sits in front of the subscriptions port that the events context receives, so the
 * events code is unchanged: a lookup for a game with a local room is answered from memory, filtered by
 * event, expiry and arguments as the store would; anything else goes to the store. Once a game's
 * subscriptions are loaded, `listens` tells its room that an event nobody subscribed to need not be built.
 *
 * Invalidation: subscribing and unsubscribing (and a subscription dropped for failures or a 410) publish the
 * game's id on a presence channel, and every process drops that game's entry; with Redis presence that
 * reaches every process. Expiry needs no message: an entry holds every subscription whatever its expiry and
 * a lookup filters by the time it is asked for. A cursor or failure-count update (the dispatcher's
 * bookkeeping) is applied to the cached records in place, as it only matters to the process that emits.
 */
import type { Presence } from "@colyseus/core";
import type { SubscriptionRecord, SubscriptionsPort } from "../../store/port";
import { matchesArguments } from "../../store/shared";

export const SUBSCRIPTIONS_CHANNEL = "subscriptions-changed";
/** Published instead of a game id when the change cannot be tied to one game: every entry is dropped. */
const ALL = "*";

interface GameEntry {
  /** Bumped by every invalidation: a load that started before it does not fill the entry. */
  generation: number;
  /** The game's subscriptions, any event, any expiry; null until loaded (again). Most games have none. */
  all: SubscriptionRecord[] | null;
}

export class SubscriptionCache implements SubscriptionsPort {
  private readonly games = new Map<string, GameEntry>();
  /**
   * The cached record of each subscription id, so the dispatcher's cursor updates find theirs at once. A
   * subscription names one game, and a game's entry holds one list, so an id has at most one cached record.
   */
  private readonly byId = new Map<string, SubscriptionRecord>();
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

  /**
   * False only when the game's subscriptions are loaded and none is for event `name`: an event of that
   * name would reach nobody, so its room need not build it. True whenever that is not known.
   */
  listens(gameId: string, name: string): boolean {
    const entry = this.games.get(gameId);
    return !entry?.all || entry.all.some((s) => s.name === name);
  }

  async findSubscriptions(name: string, match: Record<string, unknown>, now: string): Promise<SubscriptionRecord[]> {
    const gameId = typeof match.game_id === "string" ? match.game_id : null;
    if (!gameId || !this.isLive(gameId)) {
      this.lookups.stored++;
      return this.inner.findSubscriptions(name, match, now);
    }
    const found: SubscriptionRecord[] = [];
    for (const s of await this.load(gameId)) {
      if (s.name === name && s.expiresAt > now && matchesArguments(s.arguments, match)) found.push({ ...s });
    }
    return found;
  }

  findGameSubscriptions(gameId: string): Promise<SubscriptionRecord[]> {
    return this.inner.findGameSubscriptions(gameId);
  }

  /** The game's entry, loaded from the store unless it is already. */
  private async load(gameId: string): Promise<SubscriptionRecord[]> {
    let entry = this.games.get(gameId);
    if (!entry) {
      entry = { generation: 0, all: null };
      this.games.set(gameId, entry);
    }
    if (entry.all) {
      this.lookups.cached++;
      return entry.all;
    }
    this.lookups.stored++;
    const generation = entry.generation;
    const all = await this.inner.findGameSubscriptions(gameId);
    if (this.games.get(gameId) === entry && entry.generation === generation) {
      entry.all = all;
      for (const s of all) this.byId.set(s.id, s);
    }
    return all;
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
    const cached = this.byId.get(id);
    if (cached) Object.assign(cached, patch);
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
      for (const s of entry.all ?? []) if (this.byId.get(s.id) === s) this.byId.delete(s.id);
      entry.all = null;
    }
  }
}
