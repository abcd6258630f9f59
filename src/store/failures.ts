/**
 * One answer for a failing store, whichever adapter: an operation that fails for a reason of the store's own
 * (a disk that refuses writes, deleted files, a database that does not answer) is an `unavailable` AppError
 * (503 with Retry-After, a WebSocket or MCP refusal), never an unexpected error (500). What callers handle
 * themselves passes through unchanged: a taken id, and refusals already phrased as AppErrors.
 */
import { AppError } from "../shared/errors";
import { isDuplicateKey } from "./duplicate";
import type { Store, StorePortName } from "./port";

/** Seconds a client is told to wait before retrying against a failing store. */
const RETRY_AFTER_S = 5;

/** Lifecycle methods report failures their own way (startup, shutdown, the health report). */
const LIFECYCLE = new Set<PropertyKey>(["init", "close", "health", "constructor"]);
const NOT_OPERATIONS = new Set<PropertyKey>(["constructor"]);

/** The Store's port members, each guarded in turn (every one listed: the type checks it). */
const PORT_MEMBERS: Record<StorePortName, true> = {
  games: true,
  players: true,
  ratings: true,
  subscriptions: true,
  processes: true,
  challenges: true,
  communities: true,
  bots: true,
  tournaments: true,
  leagues: true,
  log: true,
};
const isPort = (prop: PropertyKey): boolean => typeof prop === "string" && Object.hasOwn(PORT_MEMBERS, prop);

const passesThrough = (e: unknown): boolean => e instanceof AppError || isDuplicateKey(e);

/**
 * The store with every operation's store failures turned into `unavailable`: each port member's methods, and
 * the adapter's own methods besides the lifecycle. `onFailure` is told the original error and the method's
 * name (for the log: the client sees only that the store is unavailable).
 */
export function guardFailures<S extends Store>(store: S, onFailure: (err: unknown, operation: string) => void): S {
  const translate = (e: unknown, operation: string): Error => {
    if (passesThrough(e)) return e as Error;
    onFailure(e, operation);
    return new AppError("unavailable", "the store could not complete this request, so nothing was changed; retry later", { retryAfter: RETRY_AFTER_S });
  };
  /** `object` with its methods guarded, those named in `unguarded` excepted; `member` answers its other members. */
  const guard = <T extends object>(object: T, unguarded: ReadonlySet<PropertyKey>, member: (prop: PropertyKey, value: unknown) => unknown): T => {
    // Each method's wrapper, made once per function: one replaced on the store (a benchmark timing commitGames) is wrapped anew.
    const wrapped = new Map<PropertyKey, { of: unknown; fn: unknown }>();
    return new Proxy(object, {
      get(target, prop) {
        const value: unknown = Reflect.get(target, prop, target);
        if (typeof value !== "function") return member(prop, value);
        if (unguarded.has(prop)) return value;
        let fn = wrapped.get(prop)?.of === value ? wrapped.get(prop)!.fn : undefined;
        if (!fn) {
          const operation = String(prop);
          fn = (...args: unknown[]): unknown => {
            try {
              const out: unknown = (value as (...a: unknown[]) => unknown).apply(target, args);
              return out instanceof Promise ? out.catch((e: unknown) => Promise.reject(translate(e, operation))) : out;
            } catch (e) {
              throw translate(e, operation);
            }
          };
          wrapped.set(prop, { of: value, fn });
        }
        return fn;
      },
    });
  };
  // A port member's guard, made once per object the member is (SQLite's are made by init).
  const ports = new WeakMap<object, object>();
  const asIs = (_prop: PropertyKey, value: unknown) => value;
  return guard(store, LIFECYCLE, (prop, value) => {
    if (!isPort(prop) || typeof value !== "object" || value === null) return value;
    let guarded = ports.get(value);
    if (!guarded) ports.set(value, (guarded = guard(value, NOT_OPERATIONS, asIs)));
    return guarded;
  });
}
