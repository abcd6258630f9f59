/**
 * Subscribe and unsubscribe. A subscription is named by (event, arguments, callback URL); the same triple
 * always names the same subscription, so subscribing again refreshes it instead of adding a second one.
 *
 * Knowing the triple is not owning the subscription's deliveries: the URL is public to whoever it was shared
 * with, so a new secret takes effect only once the callback answers a verification signed with it. The triple
 * alone does end it, as the interface specification says: the subscriber's periodic refresh restores it.
 */
import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import { AppError, isAppError } from "../../shared/errors";
import { parse } from "../../shared/validation";
import type { SubscriptionRecord, SubscriptionsPort } from "../../store/port";
import { ARGUMENT_SCHEMAS, EVENT_NAMES, type EventName } from "./catalog";
import type { EventDispatcher } from "./dispatcher";
import type { CallbackClient } from "./http-client";
import { isValidSecret, newSubscriptionId, sameText } from "./signing";
import type { CurrentState, EventsLogger, ResolveSeat, StoredArguments } from "./types";
import { VERIFIED_URL_TTL_MS, verifyCallback } from "./verification";

export const DEFAULT_TTL_MS = 24 * 3600 * 1000;
export const MAX_TTL_MS = 7 * 24 * 3600 * 1000;

/** The arguments are checked by the event's own schema (the catalog's `arguments`) once the name is known. */
const EventArguments = z.record(z.string(), z.unknown()).describe("the event's arguments, as GET /games/events lists them");

export const SubscribeBody = z.object({
  name: z.enum(EVENT_NAMES),
  arguments: EventArguments,
  delivery: z.object({
    mode: z.literal("webhook"),
    url: z.string().min(1).max(2048).describe("public HTTPS callback"),
    secret: z.string().refine(isValidSecret, "must be whsec_ followed by base64 of 24 to 64 bytes").describe("whsec_ followed by base64 of 24 to 64 bytes"),
  }),
  /** Requested lifetime; longer than 7 days is clamped to 7 days (refreshBefore says what was granted). */
  ttlMs: z.number().int().positive().optional(),
});
export type SubscribeBody = z.infer<typeof SubscribeBody>;

export const UnsubscribeBody = z.object({
  /** Accepted and not needed: the triple names the subscription (clients that send the subscribe answer's id keep working). */
  id: z.string().max(100).optional().describe("the subscription's id, as subscribe answered it (optional: the triple names the subscription)"),
  name: z.enum(EVENT_NAMES),
  arguments: EventArguments,
  delivery: z.looseObject({
    url: z.string().min(1).max(2048),
    secret: z.string().max(200).optional().describe("the subscription's secret (optional: the triple names the subscription)"),
  }),
});
export type UnsubscribeBody = z.infer<typeof UnsubscribeBody>;

export interface SubscribeResult {
  id: string;
  /** Subscribe again before this instant to keep the subscription. */
  refreshBefore: string;
  /** The game's move count the subscription starts after (as a string); null for events without a stream. */
  cursor: string | null;
  /** True when events before the cursor exist that this subscription will not deliver. */
  truncated: boolean;
}

export interface UnsubscribeResult {
  ok: true;
  removed: boolean;
}

export interface SubscriptionServiceOptions {
  store: SubscriptionsPort;
  dispatcher: Pick<EventDispatcher, "deliver">;
  client: CallbackClient;
  logger: EventsLogger;
  now: () => Date;
  resolveSeat: ResolveSeat;
  currentState: CurrentState;
}

/**
 * Said with every `forbidden_address` refusal: the usual way to meet one is a first try against a receiver on
 * one's own machine, and the refusal alone does not say that a server setting allows it.
 */
export const LOCAL_CALLBACK_HINT =
  "for local development, start the server with WEBHOOK_ALLOW_PRIVATE=true and use `npm run webhooks:listen` as the receiver (docs/TOOLS.md)";

const refused = (reason: string, detail: string) =>
  new AppError("callback_refused", reason === "forbidden_address" ? `${detail}; ${LOCAL_CALLBACK_HINT}` : detail, { reason });

/** The URL as the identity uses it: WHATWG-normalised (host case, default port), fragment dropped. */
function canonicalUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    // WHATWG URLs have no IPv6 zone ids; a zone names an interface, so the address is never public.
    if (/^[a-z][a-z0-9+.-]*:\/\/(?:[^@/]*@)?\[[^\]]*%/i.test(raw)) {
      throw refused("forbidden_address", "an IPv6 address with a zone id is link-local, not a public address");
    }
    throw new AppError("bad_request", "invalid delivery.url: not an absolute URL");
  }
  u.hash = "";
  return u.href;
}

/** sha256 over canonical JSON (sorted argument keys), so key order in a request does not change identity. */
export function subscriptionKey(name: EventName, args: StoredArguments, url: string): string {
  const sorted = Object.fromEntries(Object.entries(args).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return createHash("sha256")
    .update(JSON.stringify([name, sorted, url]))
    .digest("hex");
}

export class SubscriptionService {
  constructor(private readonly o: SubscriptionServiceOptions) {}

  /** Creates or refreshes a subscription; verifies the callback first unless it passed within a day. */
  async subscribe(input: unknown): Promise<SubscribeResult> {
    const body = parse(SubscribeBody, input, "subscription");
    const url = canonicalUrl(body.delivery.url);
    if (!url.startsWith("https:")) throw refused("not_https", "callbacks must use https");
    const args = await this.storedArguments(body.name, body.arguments);
    const key = subscriptionKey(body.name, args, url);
    const existing = await this.o.store.getSubscriptionByKey(key);
    const id = existing?.id ?? newSubscriptionId();
    const now = this.o.now();

    // A new secret is proven by a fresh verification under it, however recently the URL passed: otherwise
    // anyone who knows the URL could swap in their own secret and the receiver's checks would fail.
    const newSecret = existing !== null && !sameText(existing.secret, body.delivery.secret);
    await this.verifyUnlessRecent(url, body.delivery.secret, id, now, newSecret);

    const ttl = Math.min(body.ttlMs ?? DEFAULT_TTL_MS, MAX_TTL_MS);
    const record = await this.o.store.upsertSubscription({
      id,
      name: body.name,
      key,
      arguments: args,
      url,
      secret: body.delivery.secret,
      expiresAt: new Date(now.getTime() + ttl).toISOString(),
      // Re-subscribing is a sign of life, so it also forgives earlier failures.
      failures: 0,
      cursor: existing?.cursor ?? null,
      createdAt: existing?.createdAt ?? now.toISOString(),
      updatedAt: now.toISOString(),
    });
    // The store keeps the first id of a key, so a concurrent subscribe of the same triple shows up here.
    const refreshed = existing !== null || record.id !== id;
    this.o.logger.info({ subscription: record.id, event: body.name, arguments: args, refreshed }, "event subscription saved");
    if (refreshed) {
      // A refresh neither fires again nor moves the cursor: the subscriber already had those events.
      return { id: record.id, refreshBefore: record.expiresAt, cursor: cursorText(record.cursor), truncated: false };
    }
    return this.start(record, args);
  }

  /**
   * Removes the subscription the triple names; succeeds whether or not it existed. An `id` or secret sent with
   * it is not checked: the triple alone names the subscription, as the interface specification has it.
   */
  async unsubscribe(input: unknown): Promise<UnsubscribeResult> {
    const body = parse(UnsubscribeBody, input, "unsubscribe request");
    const url = canonicalUrl(body.delivery.url);
    let args: StoredArguments;
    try {
      args = await this.storedArguments(body.name, body.arguments);
    } catch (e) {
      // No subscription can name a game that does not exist: nothing to remove.
      if (isAppError(e) && e.code === "not_found") return { ok: true, removed: false };
      throw e;
    }
    const removed = await this.o.store.deleteSubscriptionByKey(subscriptionKey(body.name, args, url));
    if (removed) this.o.logger.info({ event: body.name, arguments: args }, "event subscription removed");
    return { ok: true, removed };
  }

  /**
   * Validates the arguments of `name` and returns them as stored. game.turn's player token is exchanged for
   * its seat here and goes no further: it is not stored, keyed on, or logged.
   */
  private async storedArguments(name: EventName, raw: Record<string, unknown>): Promise<StoredArguments> {
    const args = parse(ARGUMENT_SCHEMAS[name] as z.ZodType<Record<string, string>>, raw, `arguments of ${name}`);
    if (!name.startsWith("game.")) return args;
    // not_found for a game the caller may not read (a private game's events are its seats' alone).
    const seat = await this.o.resolveSeat(args.game_id, args.player_token);
    if (name !== "game.turn") {
      if (args.player_token !== undefined && seat === null) throw new AppError("unauthorized", "player_token does not hold a seat in this game");
      return { game_id: args.game_id };
    }
    if (seat === null) throw new AppError("unauthorized", "player_token does not hold a seat in this game");
    return { game_id: args.game_id, seat };
  }

  private async verifyUnlessRecent(url: string, secret: string, id: string, now: Date, always: boolean): Promise<void> {
    const at = await this.o.store.urlVerifiedAt(url);
    if (!always && at && now.getTime() - Date.parse(at) < VERIFIED_URL_TTL_MS) return;
    const result = await verifyCallback(this.o.client, url, secret, id, now);
    if (!result.ok) {
      // Only the origin: a callback URL may carry the subscriber's own token in its path or query.
      this.o.logger.info({ origin: new URL(url).origin, reason: result.reason }, "callback verification failed");
      throw refused(result.reason, result.detail);
    }
    await this.o.store.markUrlVerified(url, now.toISOString());
  }

  /**
   * Sets the cursor of a new subscription and fires the events whose condition already holds. The state is
   * read after the record exists, so an event raised in between is delivered rather than missed.
   */
  private async start(record: SubscriptionRecord, args: StoredArguments): Promise<SubscribeResult> {
    let state;
    try {
      state = await this.o.currentState(record.name as EventName, args);
    } catch (e) {
      await this.o.store.deleteSubscription(record.id);
      throw e;
    }
    let cursor = record.cursor;
    if (state.cursor !== null) {
      const fresh = await this.o.store.getSubscriptionByKey(record.key);
      cursor = Math.max(fresh?.cursor ?? state.cursor, state.cursor);
      if (cursor !== fresh?.cursor) await this.o.store.updateSubscription(record.id, { cursor });
    }
    const started = { ...record, cursor };
    if (state.events.length > 0) this.o.dispatcher.deliver(started, state.events);
    return {
      id: record.id,
      refreshBefore: record.expiresAt,
      cursor: cursorText(cursor),
      truncated: state.cursor !== null && state.cursor > 0,
    };
  }
}

const cursorText = (c: number | null): string | null => (c === null ? null : String(c));

/** A random secret in the accepted format, for subscribers and tests. */
export const generateSecret = (bytes = 32): string => `whsec_${randomBytes(bytes).toString("base64")}`;
