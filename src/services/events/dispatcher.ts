/**
 * Delivers domain events to webhook subscriptions. `emit` only queues: a room's move path must never wait on
 * a subscriber's network. Memory is bounded (two queues with a cap, a fixed number of POSTs in flight).
 *
 * Subscriptions are isolated from each other, whatever callback host they share: each has its own queue,
 * the queues are served in turn, and one subscription has `perSubscription` POSTs in flight at most (one by
 * default). Deliveries run in two lanes. A subscription starts in the fast lane; an
 * answer slower than `slowAfterMs`, a POST still unanswered then, or a failed POST moves it to the slow lane,
 * which holds at most `slowSlots` of the slots, so healthy subscriptions keep the rest; a run of healthy
 * answers brings it back. A POST that is still unanswered after `slowAfterMs` gives its fast slot back at once
 * (it is counted in the slow lane from then on), so a fast slot is never held longer than that by a slow
 * receiver. An answer slower than the latency budget also counts against its subscription like a failure.
 *
 * Every delivery is recorded in the store (an outbox) before its first POST and forgotten once it is
 * delivered or given up, so a crash or a restart does not lose it: the next start, or another process once
 * the delivery's lease has run out, sends it again with the same eventId and body. Delivery is therefore at
 * least once, which the receiver already handles by dropping an eventId it has seen. What is not recorded
 * is the short step before: an event waiting for its subscription lookup lives in memory only, and when
 * that queue is full its oldest event is dropped with a warning.
 */
import type { DeliveryRecord, SubscriptionRecord, SubscriptionsPort } from "../../store/port";
import { performance } from "node:perf_hooks";
import { DEFAULTS } from "../../shared/config";
import { isSequenced } from "./catalog";
import { FairQueue } from "./fair-queue";
import { SlowLane, type Lane } from "./lanes";
import type { CallbackClient } from "./http-client";
import { newEventId, signedHeaders } from "./signing";
import type { EmittedEvent, EventsLogger, InitialEvent } from "./types";

export interface DispatcherOptions {
  store: SubscriptionsPort;
  client: CallbackClient;
  logger: EventsLogger;
  now: () => Date;
  /** Waits before the retries of a failed POST; its length is the number of retries. Default [500, 2000]. */
  retryDelaysMs?: number[];
  /** Cap of each queue (events awaiting lookup, POSTs awaiting a slot). Default 10000. */
  maxQueue?: number;
  /** POSTs in flight at once, both lanes together (see `slowSlots` for when the slow lane runs over). Default 64. */
  concurrency?: number;
  /**
   * Slots the slow lane may take (at most; it never takes one from a fast POST). POSTs that were moved to the
   * slow lane while in flight also count here, and while they exceed this share the slow lane starts nothing
   * and the fast lane still has `concurrency - slowSlots`. Default a quarter of `concurrency`.
   */
  slowSlots?: number;
  /** An answer later than this, a POST unanswered by then, or a failure moves a subscription to the slow lane. Default 1000 ms. */
  slowAfterMs?: number;
  /** Healthy answers in a row that bring a subscription back to the fast lane. Default 3. */
  healthyToReturn?: number;
  /**
   * POSTs of one subscription in flight at once. Default 1: a subscription is one game's or one tournament's
   * events to one receiver, a few a second at most, and many new subscriptions that turn out slow then hold
   * one slot each before they are found out, not the whole pool.
   */
  perSubscription?: number;
  /** A delivery answered later than this counts as a failed event of its subscription. Default 2000 ms. */
  latencyBudgetMs?: number;
  /** Failed events in a row that drop a subscription. Default 5. */
  maxFailures?: number;
  /** How long this process holds a recorded delivery before another may take it over. Default 120000. */
  leaseMs?: number;
  /**
   * True when no other process delivers from this store: on start it takes over every unfinished delivery
   * at once instead of waiting for their leases to run out. Default true.
   */
  exclusive?: boolean;
  /** This process's id, recorded in each delivery it holds so peers can take them over when it dies. */
  holder?: () => string;
}

/**
 * What a dispatcher holds right now (events awaiting lookup, deliveries queued, POSTs in flight, all held,
 * subscriptions with deliveries queued, and of those the slow lane's) and how many answers came later than
 * the latency budget since start.
 */
export interface DispatcherStats {
  queuedEvents: number;
  queuedDeliveries: number;
  inflight: number;
  held: number;
  subscriptions: number;
  /** Deliveries queued in the slow lane, POSTs in flight counted there, subscriptions in it. */
  slow: { queued: number; inflight: number; subscriptions: number };
  overBudget: number;
}

interface Job {
  sub: SubscriptionRecord;
  /** The callback URL's host, for the logs (never its path). */
  host: string;
  /** The lane whose slot the POST holds while in flight. */
  lane: Lane;
  /** 0 for the first POST, then 1, 2 for the retries. */
  attempt: number;
  /** What is recorded in the store, eventId and body included. */
  record: DeliveryRecord;
}

/** Later than any ISO timestamp: a lease that has "ended" by then is every lease. */
const END_OF_TIME = "\uffff";

export class EventDispatcher {
  private readonly emitted: EmittedEvent[] = [];
  /** Deliveries waiting for a slot, per lane, one queue per subscription. */
  private readonly queues: Record<Lane, FairQueue<Job>> = { fast: new FairQueue<Job>(), slow: new FairQueue<Job>() };
  /** POSTs in flight, by the lane whose slot each holds. */
  private readonly inflightIn: Record<Lane, number> = { fast: 0, slow: 0 };
  /** The lane that started the last POST: when both have work and room, they take turns. */
  private lastLane: Lane = "slow";
  private readonly slowLane: SlowLane;
  /** POSTs in flight by subscription id (absent: none). */
  private readonly inflightBySub = new Map<string, number>();
  private readonly perSubscription: number;
  private readonly hasRoom = (job: Job): boolean => (this.inflightBySub.get(job.sub.id) ?? 0) < this.perSubscription;
  private overBudget = 0;
  private readonly retryTimers = new Set<NodeJS.Timeout>();
  private readonly controllers = new Set<AbortController>();
  private readonly accounting = new Map<string, Promise<void>>();
  /** Deliveries this process holds (queued, in flight or waiting for a retry), by eventId. */
  private readonly held = new Map<string, DeliveryRecord>();
  private writes = 0;
  private recovering = false;
  private recoveryTimer: NodeJS.Timeout | undefined;
  private idleWaiters: Array<() => void> = [];
  private resolving = false;
  private closed = false;
  private sweepTimer: NodeJS.Timeout | undefined;
  private readonly retryDelaysMs: number[];
  private readonly maxQueue: number;
  private readonly concurrency: number;
  private readonly slowSlots: number;
  private readonly slowAfterMs: number;
  private readonly latencyBudgetMs: number;
  private readonly maxFailures: number;
  private readonly leaseMs: number;

  constructor(private readonly o: DispatcherOptions) {
    this.retryDelaysMs = o.retryDelaysMs ?? [500, 2000];
    this.maxQueue = o.maxQueue ?? 10_000;
    this.concurrency = o.concurrency ?? 64;
    this.slowSlots = Math.min(this.concurrency, o.slowSlots ?? Math.max(1, Math.floor(this.concurrency / 4)));
    this.slowAfterMs = o.slowAfterMs ?? DEFAULTS.webhookSlowAfterMs;
    this.slowLane = new SlowLane(o.healthyToReturn ?? 3, this.maxQueue);
    this.perSubscription = o.perSubscription ?? 1;
    this.latencyBudgetMs = o.latencyBudgetMs ?? 2000;
    this.maxFailures = o.maxFailures ?? 5;
    this.leaseMs = o.leaseMs ?? DEFAULTS.webhookLeaseMs;
  }

  /** Queues an event for every live matching subscription; returns at once. */
  emit(event: EmittedEvent): void {
    if (this.closed) {
      this.o.logger.warn({ event: event.name }, "event emitted after the dispatcher closed; dropped");
      return;
    }
    if (this.emitted.length >= this.maxQueue) {
      const old = this.emitted.shift();
      this.o.logger.warn({ event: old?.name, match: old?.match }, "event queue full; oldest event dropped");
    }
    this.emitted.push(event);
    void this.resolveEmitted();
  }

  /** Queues events for one subscription (the events that fire at once when it is created). */
  deliver(sub: SubscriptionRecord, events: InitialEvent[]): void {
    if (this.closed || events.length === 0) return;
    const jobs = events.map((e) => this.job(sub, e));
    this.writes++;
    void this.record(jobs)
      .then(() => this.enqueueAll(jobs))
      .finally(() => {
        this.writes--;
        this.notifyIfIdle();
      });
  }

  /** What this dispatcher holds right now (for metrics). */
  stats(): DispatcherStats {
    return {
      queuedEvents: this.emitted.length,
      queuedDeliveries: this.queued(),
      inflight: this.inflight(),
      held: this.held.size,
      subscriptions: this.queues.fast.keys + this.queues.slow.keys,
      slow: { queued: this.queues.slow.size, inflight: this.inflightIn.slow, subscriptions: this.slowLane.size },
      overBudget: this.overBudget,
    };
  }

  /** Resolves when nothing is queued, in flight or waiting for a retry. */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Starts the periodic removal of expired subscriptions (default every minute). */
  startSweep(intervalMs = 60_000): void {
    this.stopSweep();
    this.sweepTimer = setInterval(() => void this.sweep(), intervalMs);
    this.sweepTimer.unref();
  }

  stopSweep(): void {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = undefined;
  }

  /**
   * Takes over the unfinished deliveries recorded in the store: now (every one of them when this dispatcher
   * is exclusive, since nobody else can be holding them), then every `intervalMs` those whose lease ran out
   * (left by a process that stopped, or deferred when the queue was full). Each round also renews the
   * leases of what this process still holds, so a long queue is not taken over by another process.
   */
  async startRecovery(intervalMs = 10_000): Promise<number> {
    this.stopRecovery();
    this.recoveryTimer = setInterval(() => void this.renewLeases().then(() => this.recover()), intervalMs);
    this.recoveryTimer.unref();
    return this.recover(this.o.exclusive ?? true);
  }

  stopRecovery(): void {
    if (this.recoveryTimer) clearInterval(this.recoveryTimer);
    this.recoveryTimer = undefined;
  }

  /** Extends the lease of every delivery held here whose lease ends within half a lease. */
  async renewLeases(): Promise<number> {
    const now = this.o.now();
    const soon = new Date(now.getTime() + this.leaseMs / 2).toISOString();
    const until = this.leaseEnd(now);
    const due = [...this.held.values()].filter((r) => r.leaseUntil <= soon);
    if (this.closed || due.length === 0) return 0;
    for (const r of due) r.leaseUntil = until;
    try {
      await this.o.store.saveDeliveries(due);
    } catch (err) {
      this.o.logger.warn({ err, deliveries: due.length }, "could not renew delivery leases; another process may send them too");
    }
    return due.length;
  }

  /** Leases recorded deliveries whose lease has ended (or all when `all`) and queues them; resolves with how many. */
  async recover(all = false): Promise<number> {
    const room = this.maxQueue - this.queued();
    if (this.closed || this.recovering || room <= 0) return 0;
    this.recovering = true;
    let taken = 0;
    try {
      const now = this.o.now();
      const claimed = await this.o.store.claimDeliveries(all ? END_OF_TIME : now.toISOString(), this.leaseEnd(now), room, this.o.holder?.());
      for (const record of claimed) {
        if (this.closed || this.held.has(record.eventId)) continue;
        const sub = await this.o.store.getSubscriptionByKey(record.subscriptionKey);
        if (!sub || sub.id !== record.subscriptionId) {
          await this.o.store.deleteDeliveries([record.eventId]); // the subscription ended meanwhile
          continue;
        }
        this.enqueue({ sub, host: hostOf(sub.url), lane: "fast", attempt: 0, record });
        taken++;
      }
      if (taken > 0) this.o.logger.info({ deliveries: taken }, "unfinished deliveries taken over from the store");
    } catch (err) {
      this.o.logger.error({ err }, "taking over unfinished deliveries failed; will try again");
    } finally {
      this.recovering = false;
    }
    this.pump();
    this.notifyIfIdle();
    return taken;
  }

  /** Removes expired subscriptions now; resolves with how many. */
  async sweep(): Promise<number> {
    try {
      const n = await this.o.store.deleteExpiredSubscriptions(this.o.now().toISOString());
      if (n > 0) this.o.logger.info({ removed: n }, "expired event subscriptions removed");
      return n;
    } catch (err) {
      this.o.logger.error({ err }, "expired subscription sweep failed");
      return 0;
    }
  }

  /**
   * Stops accepting events, cancels pending retries, and waits up to `drainMs` (default 5000) for queued and
   * in-flight POSTs; whatever is left after that is aborted and dropped.
   */
  async close(drainMs = 5000): Promise<void> {
    this.closed = true;
    this.stopSweep();
    this.stopRecovery();
    if (this.retryTimers.size > 0) this.o.logger.warn({ retries: this.retryTimers.size }, "pending retries cancelled at shutdown");
    for (const t of this.retryTimers) clearTimeout(t);
    this.retryTimers.clear();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, drainMs)));
    await Promise.race([this.idle(), deadline]);
    clearTimeout(timer);
    if (this.emitted.length > 0) this.o.logger.warn({ left: this.emitted.length }, "events not yet looked up dropped at shutdown");
    this.emitted.length = 0;
    this.queues.fast.clear();
    this.queues.slow.clear();
    for (const c of this.controllers) c.abort();
    await Promise.allSettled([...this.accounting.values()]);
    await this.release();
  }

  /** Hands what this process still holds back to the store with an ended lease, so any process takes it at once. */
  private async release(): Promise<void> {
    if (this.held.size === 0) return;
    const now = this.o.now().toISOString();
    const records = [...this.held.values()].map((r) => ({ ...r, leaseUntil: now }));
    this.held.clear();
    try {
      await this.o.store.saveDeliveries(records);
      this.o.logger.info({ deliveries: records.length }, "unfinished deliveries left in the store for the next start");
    } catch (err) {
      this.o.logger.warn({ err, deliveries: records.length }, "could not release unfinished deliveries; they are taken over when their lease ends");
    }
  }

  private leaseEnd(now: Date): string {
    return new Date(now.getTime() + this.leaseMs).toISOString();
  }

  private queued(): number {
    return this.queues.fast.size + this.queues.slow.size;
  }

  private inflight(): number {
    return this.inflightIn.fast + this.inflightIn.slow;
  }

  private isIdle(): boolean {
    return (
      !this.resolving &&
      !this.recovering &&
      this.writes === 0 &&
      this.emitted.length === 0 &&
      this.queued() === 0 &&
      this.inflight() === 0 &&
      this.retryTimers.size === 0
    );
  }

  private notifyIfIdle(): void {
    if (!this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  /** Looks up subscriptions one event at a time, so deliveries are queued in the order events were emitted. */
  private async resolveEmitted(): Promise<void> {
    if (this.resolving) return;
    this.resolving = true;
    while (this.emitted.length > 0) {
      const event = this.emitted.shift() as EmittedEvent;
      try {
        const subs = await this.o.store.findSubscriptions(event.name, event.match, this.o.now().toISOString());
        const jobs: Job[] = [];
        for (const sub of subs) {
          if (await this.skipAsAlreadySeen(sub, event)) continue;
          jobs.push(this.job(sub, event));
        }
        await this.record(jobs);
        this.enqueueAll(jobs);
      } catch (err) {
        this.o.logger.error({ err, event: event.name }, "subscription lookup failed; event dropped");
      }
    }
    this.resolving = false;
    this.notifyIfIdle();
  }

  /**
   * Sequenced events at or before the subscription's cursor are skipped (already played when it subscribed,
   * or already sent); otherwise the cursor advances so that a refresh can report where the stream stands.
   */
  private async skipAsAlreadySeen(sub: SubscriptionRecord, event: EmittedEvent): Promise<boolean> {
    if (event.sequence === undefined) return false;
    const seen = sub.cursor !== null && event.sequence <= sub.cursor;
    if (seen) return isSequenced(event.name);
    await this.o.store.updateSubscription(sub.id, { cursor: event.sequence });
    return false;
  }

  /** Each subscription gets its own eventId: one receiver may hold two subscriptions matched by one event. */
  private job(sub: SubscriptionRecord, event: InitialEvent): Job {
    const eventId = newEventId();
    const body = JSON.stringify({
      eventId,
      name: sub.name,
      timestamp: this.o.now().toISOString(),
      data: event.data,
      cursor: event.sequence === undefined ? null : String(event.sequence),
    });
    const now = this.o.now();
    const record: DeliveryRecord = {
      eventId,
      subscriptionId: sub.id,
      subscriptionKey: sub.key,
      body,
      leaseUntil: this.leaseEnd(now),
      createdAt: now.toISOString(),
      ...(this.o.holder ? { holder: this.o.holder() } : {}),
    };
    return { sub, host: hostOf(sub.url), lane: "fast", attempt: 0, record };
  }

  /** Records deliveries before their first POST. A failed write is logged and the POSTs go ahead anyway. */
  private async record(jobs: Job[]): Promise<void> {
    if (jobs.length === 0) return;
    try {
      await this.o.store.saveDeliveries(jobs.map((j) => j.record));
    } catch (err) {
      this.o.logger.error({ err, deliveries: jobs.length }, "could not record deliveries; they are sent but would not survive a restart");
    }
  }

  private enqueueAll(jobs: Job[]): void {
    if (this.closed) return; // recorded: the next start sends them
    for (const job of jobs) this.enqueue(job);
    this.pump();
  }

  /**
   * When the queue is full the oldest delivery of the busiest subscription (a slow one first) leaves memory but
   * stays recorded: it is taken over again once its lease ends, so a burst delays deliveries instead of losing them.
   */
  private enqueue(job: Job): void {
    if (this.queued() >= this.maxQueue) {
      const old = (this.queues.slow.shed() ?? this.queues.fast.shed()) as Job;
      this.held.delete(old.record.eventId);
      this.o.logger.warn({ eventId: old.record.eventId, subscription: old.sub.id }, "delivery queue full; oldest delivery deferred until its lease ends");
    }
    this.held.set(job.record.eventId, job.record);
    this.queues[this.slowLane.laneOf(job.sub.id)].push(job.sub.id, job);
  }

  /** A slow, unanswered or failed POST: the subscription's waiting deliveries move to the slow lane with it. */
  private slowDown(job: Job, why: string): void {
    if (!this.slowLane.slowed(job.sub.id)) return;
    for (const waiting of this.queues.fast.remove(job.sub.id)) this.queues.slow.push(job.sub.id, waiting);
    this.o.logger.info({ subscription: job.sub.id, host: job.host, why }, "subscription moved to the slow delivery lane");
  }

  /** A healthy answer: after enough in a row the subscription and its waiting deliveries return to the fast lane. */
  private speedUp(job: Job): void {
    if (!this.slowLane.healthy(job.sub.id)) return;
    for (const waiting of this.queues.slow.remove(job.sub.id)) this.queues.fast.push(job.sub.id, waiting);
    this.o.logger.info({ subscription: job.sub.id, host: job.host }, "subscription back in the fast delivery lane");
  }

  /** The delivery is done with (delivered, ended by 410, or given up): forget it here and in the store. */
  private async finish(job: Job): Promise<void> {
    this.held.delete(job.record.eventId);
    try {
      await this.o.store.deleteDeliveries([job.record.eventId]);
    } catch (err) {
      this.o.logger.warn({ err, eventId: job.record.eventId }, "could not forget a finished delivery; it may be sent again");
    }
  }

  /** Starts POSTs while a lane has a free slot and a subscription with room: the lanes take turns. */
  private pump(): void {
    for (;;) {
      const order: Lane[] = this.lastLane === "fast" ? ["slow", "fast"] : ["fast", "slow"];
      const lane = order.find((l) => this.hasSlot(l) && this.queues[l].size > 0 && this.startNext(l));
      if (!lane) return;
    }
  }

  private startNext(lane: Lane): boolean {
    const job = this.queues[lane].take(this.hasRoom);
    if (job) this.start(job, lane);
    return job !== undefined;
  }

  /**
   * The slow lane may hold `slowSlots`, and starts only within the overall `concurrency`; the fast lane may use
   * every slot the slow lane does not hold, and always `concurrency - slowSlots`, even while POSTs moved to
   * the slow lane in flight overfill it.
   */
  private hasSlot(lane: Lane): boolean {
    const { fast, slow } = this.inflightIn;
    return lane === "slow" ? slow < this.slowSlots && fast + slow < this.concurrency : fast < this.concurrency - Math.min(slow, this.slowSlots);
  }

  private start(job: Job, lane: Lane): void {
    job.lane = lane;
    this.lastLane = lane;
    this.inflightIn[lane]++;
    this.inflightBySub.set(job.sub.id, (this.inflightBySub.get(job.sub.id) ?? 0) + 1);
    // A fast slot is held no longer than slowAfterMs: a POST unanswered by then moves to the slow lane's count.
    const demote =
      lane === "fast"
        ? setTimeout(() => {
            this.inflightIn.fast--;
            this.inflightIn.slow++;
            job.lane = "slow";
            this.slowDown(job, "unanswered");
            this.pump();
          }, this.slowAfterMs)
        : undefined;
    demote?.unref();
    void this.attempt(job)
      .catch((err: unknown) => this.o.logger.error({ err, eventId: job.record.eventId }, "delivery failed unexpectedly"))
      .finally(() => {
        clearTimeout(demote);
        this.inflightIn[job.lane]--;
        const left = (this.inflightBySub.get(job.sub.id) ?? 1) - 1;
        if (left > 0) this.inflightBySub.set(job.sub.id, left);
        else this.inflightBySub.delete(job.sub.id);
        this.pump();
        this.notifyIfIdle();
      });
  }

  private async attempt(job: Job): Promise<void> {
    const { sub } = job;
    const controller = new AbortController();
    this.controllers.add(controller);
    const headers = signedHeaders(sub.secret, job.record.eventId, sub.id, job.record.body, this.o.now());
    const started = performance.now();
    const res = await this.o.client.post(sub.url, job.record.body, headers, controller.signal).finally(() => this.controllers.delete(controller));
    const ms = Math.round(performance.now() - started);
    const answered = res.ok && ((res.status >= 200 && res.status < 300) || res.status === 410);
    if (answered && ms <= this.slowAfterMs) this.speedUp(job);
    else if (!this.closed) this.slowDown(job, answered ? "slow answer" : res.ok ? `status ${res.status}` : res.reason);
    if (res.ok && res.status >= 200 && res.status < 300) {
      await this.finish(job);
      if (ms <= this.latencyBudgetMs) return this.account(sub, true);
      // Delivered, so not retried; but a receiver that holds slots this long must answer faster or lose them.
      this.overBudget++;
      this.o.logger.warn(
        { subscription: sub.id, host: job.host, ms, budgetMs: this.latencyBudgetMs },
        "delivery answered over the latency budget; counted as a failed event",
      );
      return this.account(sub, false);
    }
    if (res.ok && res.status === 410) {
      this.o.logger.info({ subscription: sub.id }, "callback answered 410 Gone; subscription ended");
      await this.finish(job);
      this.slowLane.forget(sub.id);
      await this.o.store.deleteSubscription(sub.id);
      return;
    }
    const why = res.ok ? `status ${res.status}` : res.reason;
    // A POST cut short by shutdown did not get its retries, so it does not count against the subscriber.
    if (this.closed) return;
    if (job.attempt < this.retryDelaysMs.length) {
      const timer = setTimeout(() => {
        this.retryTimers.delete(timer);
        this.enqueue({ ...job, attempt: job.attempt + 1 });
        this.pump();
      }, this.retryDelaysMs[job.attempt]);
      this.retryTimers.add(timer);
      this.o.logger.debug({ eventId: job.record.eventId, subscription: sub.id, why }, "delivery failed; will retry");
      return;
    }
    this.o.logger.warn({ eventId: job.record.eventId, subscription: sub.id, why }, "delivery failed after retries");
    await this.finish(job);
    return this.account(sub, false);
  }

  /**
   * Keeps the consecutive-failure count in the store. Serialised per subscription so that two events
   * finishing together cannot both read 3 and write 4.
   */
  private account(sub: SubscriptionRecord, delivered: boolean): Promise<void> {
    const previous = this.accounting.get(sub.id) ?? Promise.resolve();
    const next = previous
      .then(async () => {
        const fresh = await this.o.store.getSubscriptionByKey(sub.key);
        if (!fresh || fresh.id !== sub.id) return;
        if (delivered) {
          if (fresh.failures > 0) await this.o.store.updateSubscription(sub.id, { failures: 0 });
          return;
        }
        const failures = fresh.failures + 1;
        if (failures >= this.maxFailures) {
          this.o.logger.warn({ subscription: sub.id, failures }, "too many failed events in a row; subscription dropped");
          this.slowLane.forget(sub.id);
          await this.o.store.deleteSubscription(sub.id);
        } else {
          await this.o.store.updateSubscription(sub.id, { failures });
        }
      })
      .catch((err: unknown) => this.o.logger.error({ err, subscription: sub.id }, "failure accounting failed"))
      .finally(() => {
        if (this.accounting.get(sub.id) === next) this.accounting.delete(sub.id);
      });
    this.accounting.set(sub.id, next);
    return next;
  }
}

/** The host part of a callback URL (port excluded: one machine's ports share its fate). */
function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}
