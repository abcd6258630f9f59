/**
 * Delivers domain events to webhook subscriptions. `emit` only queues: a room's move path must never wait on
 * a subscriber's network. Memory is bounded (two queues with a cap, a fixed number of POSTs in flight).
 *
 * Subscribers are isolated from each other by callback host: each host has its own queue, served in turn,
 * and at most `perHostConcurrency` of the slots, so a slow or failing receiver delays only its own
 * deliveries. An answer slower than the latency budget counts against its subscription like a failure.
 *
 * Every delivery is recorded in the store (an outbox) before its first POST and forgotten once it is
 * delivered or given up, so a crash or a restart does not lose it: the next start, or another process once
 * the delivery's lease has run out, sends it again with the same eventId and body. Delivery is therefore at
 * least once, which the receiver already handles by dropping an eventId it has seen. What is not recorded
 * is the short step before: an event waiting for its subscription lookup lives in memory only, and when
 * that queue is full its oldest event is dropped with a warning.
 */
import type { DeliveryRecord, SubscriptionRecord, SubscriptionsPort } from "../store/port";
import { performance } from "node:perf_hooks";
import { isSequenced } from "./catalog";
import { FairQueue } from "./fair-queue";
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
  /** POSTs in flight at once, all hosts together. Default 64. */
  concurrency?: number;
  /** POSTs in flight at once to one callback host. Default 4. */
  perHostConcurrency?: number;
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
 * callback hosts with deliveries queued) and how many answers came later than the latency budget since start.
 */
export interface DispatcherStats {
  queuedEvents: number;
  queuedDeliveries: number;
  inflight: number;
  held: number;
  hosts: number;
  overBudget: number;
}

interface Job {
  sub: SubscriptionRecord;
  /** The callback URL's host: the unit of fairness between subscribers. */
  host: string;
  /** 0 for the first POST, then 1, 2 for the retries. */
  attempt: number;
  /** What is recorded in the store, eventId and body included. */
  record: DeliveryRecord;
}

/** Later than any ISO timestamp: a lease that has "ended" by then is every lease. */
const END_OF_TIME = "\uffff";

export class EventDispatcher {
  private readonly emitted: EmittedEvent[] = [];
  private readonly jobs = new FairQueue<Job>();
  private readonly inflightByHost = new Map<string, number>();
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
  private inflight = 0;
  private resolving = false;
  private closed = false;
  private sweepTimer: NodeJS.Timeout | undefined;
  private readonly retryDelaysMs: number[];
  private readonly maxQueue: number;
  private readonly concurrency: number;
  private readonly perHost: number;
  private readonly latencyBudgetMs: number;
  private readonly maxFailures: number;
  private readonly leaseMs: number;

  constructor(private readonly o: DispatcherOptions) {
    this.retryDelaysMs = o.retryDelaysMs ?? [500, 2000];
    this.maxQueue = o.maxQueue ?? 10_000;
    this.concurrency = o.concurrency ?? 64;
    this.perHost = o.perHostConcurrency ?? 4;
    this.latencyBudgetMs = o.latencyBudgetMs ?? 2000;
    this.maxFailures = o.maxFailures ?? 5;
    this.leaseMs = o.leaseMs ?? 120_000;
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
      queuedEvents: this.emitted.length, queuedDeliveries: this.jobs.size, inflight: this.inflight, held: this.held.size,
      hosts: this.jobs.keys, overBudget: this.overBudget,
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
    const room = this.maxQueue - this.jobs.size;
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
        this.enqueue({ sub, host: hostOf(sub.url), attempt: 0, record });
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
    this.jobs.clear();
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

  private isIdle(): boolean {
    return !this.resolving && !this.recovering && this.writes === 0 && this.emitted.length === 0 && this.jobs.size === 0 &&
      this.inflight === 0 && this.retryTimers.size === 0;
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
      eventId, subscriptionId: sub.id, subscriptionKey: sub.key, body, leaseUntil: this.leaseEnd(now), createdAt: now.toISOString(),
      ...(this.o.holder ? { holder: this.o.holder() } : {}),
    };
    return { sub, host: hostOf(sub.url), attempt: 0, record };
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
   * When the queue is full the oldest delivery of the busiest host leaves memory but stays recorded: it is
   * taken over again once its lease ends, so a burst delays deliveries instead of losing them.
   */
  private enqueue(job: Job): void {
    if (this.jobs.size >= this.maxQueue) {
      const old = this.jobs.shed() as Job;
      this.held.delete(old.record.eventId);
      this.o.logger.warn({ eventId: old.record.eventId, subscription: old.sub.id }, "delivery queue full; oldest delivery deferred until its lease ends");
    }
    this.held.set(job.record.eventId, job.record);
    this.jobs.push(job.host, job);
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

  private pump(): void {
    const hasRoom = (host: string) => (this.inflightByHost.get(host) ?? 0) < this.perHost;
    while (this.inflight < this.concurrency) {
      const job = this.jobs.take(hasRoom);
      if (!job) break;
      this.inflight++;
      this.inflightByHost.set(job.host, (this.inflightByHost.get(job.host) ?? 0) + 1);
      void this.attempt(job)
        .catch((err: unknown) => this.o.logger.error({ err, eventId: job.record.eventId }, "delivery failed unexpectedly"))
        .finally(() => {
          this.inflight--;
          const left = (this.inflightByHost.get(job.host) ?? 1) - 1;
          if (left > 0) this.inflightByHost.set(job.host, left);
          else this.inflightByHost.delete(job.host);
          this.pump();
          this.notifyIfIdle();
        });
    }
  }

  private async attempt(job: Job): Promise<void> {
    const { sub } = job;
    const controller = new AbortController();
    this.controllers.add(controller);
    const headers = signedHeaders(sub.secret, job.record.eventId, sub.id, job.record.body, this.o.now());
    const started = performance.now();
    const res = await this.o.client.post(sub.url, job.record.body, headers, controller.signal).finally(() => this.controllers.delete(controller));
    const ms = Math.round(performance.now() - started);
    if (res.ok && res.status >= 200 && res.status < 300) {
      await this.finish(job);
      if (ms <= this.latencyBudgetMs) return this.account(sub, true);
      // Delivered, so not retried; but a receiver that holds slots this long must answer faster or lose them.
      this.overBudget++;
      this.o.logger.warn({ subscription: sub.id, host: job.host, ms, budgetMs: this.latencyBudgetMs }, "delivery answered over the latency budget; counted as a failed event");
      return this.account(sub, false);
    }
    if (res.ok && res.status === 410) {
      this.o.logger.info({ subscription: sub.id }, "callback answered 410 Gone; subscription ended");
      await this.finish(job);
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
