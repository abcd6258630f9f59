/**
 * The events context's public face: build it once in the composition root with `createEvents(deps)`, hand
 * `events.emit` to the rooms, mount src/edges/api/routes/events.ts over `events.subscriptions`, call `events.close()` at shutdown.
 */
import type { Config } from "../../shared/config";
import type { SubscriptionsPort } from "../../store/port";
import { EventDispatcher } from "./dispatcher";
import { createCallbackClient, type CallbackClient } from "./http-client";
import { SubscriptionService } from "./subscriptions";
import type { CurrentState, EmittedEvent, EventsLogger, ResolveSeat } from "./types";

export interface EventsDeps {
  store: SubscriptionsPort;
  logger: EventsLogger;
  config: Pick<Config, "webhookAllowPrivate">;
  resolveSeat: ResolveSeat;
  currentState: CurrentState;
  /** Clock; default `() => new Date()`. */
  now?: () => Date;
  /** Extra CA certificate(s) trusted for callbacks, on top of Node's defaults. */
  ca?: string | Buffer | Array<string | Buffer>;
  /** Deadline of one callback POST (verification and delivery). Default 5000 ms. */
  timeoutMs?: number;
  /** Waits before the retries of a failed delivery. Default [500, 2000]. */
  retryDelaysMs?: number[];
  /** Cap of each delivery queue. Default 10000. */
  maxQueue?: number;
  /** Deliveries in flight at once, both lanes together. Default 64. */
  concurrency?: number;
  /** Slots the slow lane may take (see DispatcherOptions.slowSlots). Default a quarter of `concurrency`. */
  slowSlots?: number;
  /** An answer later than this (or a failure) moves a subscription to the slow lane. Default 1000 ms. */
  slowAfterMs?: number;
  /** A delivery answered later than this counts as a failed event. Default 2000 ms. */
  latencyBudgetMs?: number;
  /** How long a process holds a recorded delivery before another may take it over. Default 120000 ms. */
  leaseMs?: number;
  /** True when this is the only process delivering from the store (not scaled out). Default true. */
  exclusive?: boolean;
  /** This process's id, recorded in the deliveries it holds (see DispatcherOptions.holder). */
  holder?: () => string;
  /** Replaces the HTTPS client (tests, or another transport). */
  client?: CallbackClient;
}

export interface Events {
  readonly subscriptions: SubscriptionService;
  readonly dispatcher: EventDispatcher;
  /** Queues an event for its subscribers; never waits on the network. */
  emit(event: EmittedEvent): void;
  /** Starts the expired-subscription sweep (default every minute). */
  startSweep(intervalMs?: number): void;
  /** Takes over the deliveries a previous run left unfinished, then keeps taking over expired leases. */
  startRecovery(intervalMs?: number): Promise<number>;
  /** Stops the sweep, cancels retries and drains deliveries for up to `drainMs` (default 5000). */
  close(drainMs?: number): Promise<void>;
}

/** Wires the events context from its dependencies. */
export function createEvents(deps: EventsDeps): Events {
  const now = deps.now ?? (() => new Date());
  const client = deps.client ?? createCallbackClient({ allowPrivate: deps.config.webhookAllowPrivate, ca: deps.ca, timeoutMs: deps.timeoutMs });
  const dispatcher = new EventDispatcher({
    store: deps.store,
    client,
    logger: deps.logger,
    now,
    retryDelaysMs: deps.retryDelaysMs,
    maxQueue: deps.maxQueue,
    concurrency: deps.concurrency,
    slowSlots: deps.slowSlots,
    slowAfterMs: deps.slowAfterMs,
    latencyBudgetMs: deps.latencyBudgetMs,
    leaseMs: deps.leaseMs,
    exclusive: deps.exclusive,
    holder: deps.holder,
  });
  const subscriptions = new SubscriptionService({
    store: deps.store,
    dispatcher,
    client,
    logger: deps.logger,
    now,
    resolveSeat: deps.resolveSeat,
    currentState: deps.currentState,
  });
  return {
    subscriptions,
    dispatcher,
    emit: (event) => dispatcher.emit(event),
    startSweep: (intervalMs) => dispatcher.startSweep(intervalMs),
    startRecovery: (intervalMs) => dispatcher.startRecovery(intervalMs),
    close: (drainMs) => dispatcher.close(drainMs),
  };
}

export { EVENT_NAMES, eventCatalog, isEventName, type EventName, type EventData, type EventArguments, type CatalogEntry } from "./catalog";
export { EventDispatcher, type DispatcherOptions, type DispatcherStats } from "./dispatcher";
export { createCallbackClient, type CallbackClient, type CallbackClientOptions, type PostResult } from "./http-client";
export { isForbiddenAddress, addressRange } from "./ssrf";
export {
  SubscriptionService,
  SubscribeBody,
  UnsubscribeBody,
  generateSecret,
  subscriptionKey,
  DEFAULT_TTL_MS,
  MAX_TTL_MS,
  type SubscribeResult,
  type UnsubscribeResult,
} from "./subscriptions";
export { verifyCallback, type RefusalReason, type VerificationResult } from "./verification";
export type { CurrentState, CurrentStateResult, EmittedEvent, EventsLogger, InitialEvent, ResolveSeat, StoredArguments } from "./types";
