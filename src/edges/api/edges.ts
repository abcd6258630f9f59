/**
 * What every response carries: `API-Version: 1`, open CORS (exposing our headers), the IETF RateLimit
 * fields; and the deprecation signals (RFC 9745 Deprecation, RFC 8594 Sunset, a Link to migration notes)
 * for routes that are superseded.
 */
import type { Request, RequestHandler, Response } from "express";
import { ipKeyGenerator, rateLimit, type Store as RateStore } from "express-rate-limit";
import { AppError } from "../../shared/errors";

export const EXPOSED_HEADERS = [
  "RateLimit",
  "RateLimit-Policy",
  "Retry-After",
  "API-Version",
  "Deprecation",
  "Sunset",
  "Link",
  "mcp-session-id",
  "Location",
  "ETag",
];

export const apiVersion: RequestHandler = (_req, res, next) => {
  res.setHeader("API-Version", "1");
  next();
};

/** The spec's per-IP limits (section 8), per minute. */
export const POLICIES = { reads: 120, writes: 120, challenge: 30, result: 60, mcp: 120, matchmake: 120 } as const;
export type PolicyName = keyof typeof POLICIES;

export interface LimiterOptions {
  scale: number;
  /** The counters' store for a policy or an action cap (Redis when scaled out, so limits hold across processes). */
  store?: (policy: string) => RateStore;
  /**
   * The bucket of a request that carries a valid credential (a bot key: `bot:<id>`), counted instead of its
   * address, so bots behind one address do not share a limit; undefined falls back to the address. Only a
   * valid credential gets its own bucket: made-up keys would otherwise each get a fresh one.
   */
  keyOf?: (req: Request, res: Response) => Promise<string | undefined>;
}

/** One express-rate-limit instance per policy, with draft-8 `RateLimit`/`RateLimit-Policy` fields. */
export function limiter(policy: PolicyName, opts: LimiterOptions): RequestHandler {
  return rateLimit({
    windowMs: 60_000,
    limit: Math.max(1, Math.round(POLICIES[policy] * opts.scale)),
    standardHeaders: "draft-8",
    legacyHeaders: false,
    identifier: policy,
    store: opts.store?.(policy),
    keyGenerator: async (req, res) => (await opts.keyOf?.(req, res)) ?? ipKeyGenerator(req.ip ?? ""),
    handler: (_req, res, next) =>
      next(
        new AppError(
          "rate_limited",
          `more than ${POLICIES[policy]} ${policy} requests per minute ${res.locals.bot ? "for this bot key" : "from this address"}`,
        ),
      ),
  });
}

/**
 * A cap on one action (joining a tournament, registering a bot) per window (a minute unless `windowMs` says
 * otherwise), on top of the request policy the request already counts against: counted per key (`key` answers
 * it; undefined leaves the request uncounted), with its own draft-8 `RateLimit` fields named `name`. Only
 * requests that succeed count, so a refused attempt (a wrong secret, a full tournament) neither spends the
 * budget nor lets anyone spend another's.
 */
export function actionLimiter(
  name: string,
  perWindow: number,
  opts: Pick<LimiterOptions, "scale" | "store">,
  key: (req: Request) => string | undefined,
  refusal: string,
  windowMs = 60_000,
): RequestHandler {
  return rateLimit({
    windowMs,
    limit: Math.max(1, Math.round(perWindow * opts.scale)),
    standardHeaders: "draft-8",
    legacyHeaders: false,
    identifier: name,
    store: opts.store?.(name),
    skipFailedRequests: true,
    skip: (req) => key(req) === undefined,
    keyGenerator: (req) => key(req)!,
    // The request policy already counted this request; this cap answers with the same problem type.
    validate: { singleCount: false },
    handler: (_req, _res, next) => next(new AppError("rate_limited", refusal)),
  });
}

/** The key of a request's address, as the request policies count it. */
export const addressKey = (req: Request): string => ipKeyGenerator(req.ip ?? "");

/** Marks a route as superseded: clients see when it goes away and where to read about the move. */
export function deprecated(opts: { since: Date; sunset: Date; link: string }): RequestHandler {
  const deprecation = `@${Math.floor(opts.since.getTime() / 1000)}`;
  return (_req, res, next) => {
    res.setHeader("Deprecation", deprecation);
    res.setHeader("Sunset", opts.sunset.toUTCString());
    res.append("Link", `<${opts.link}>; rel="deprecation"; type="text/html"`);
    next();
  };
}
