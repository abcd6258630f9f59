/**
 * What every response carries: `API-Version: 1`, open CORS (exposing our headers), the IETF RateLimit
 * fields; and the deprecation signals (RFC 9745 Deprecation, RFC 8594 Sunset, a Link to migration notes)
 * for routes that are superseded.
 */
import type { Request, RequestHandler, Response } from "express";
import { ipKeyGenerator, rateLimit, type Store as RateStore } from "express-rate-limit";
import { AppError } from "../errors";

export const EXPOSED_HEADERS = ["RateLimit", "RateLimit-Policy", "Retry-After", "API-Version", "Deprecation", "Sunset", "Link", "mcp-session-id", "Location", "ETag"];

export const apiVersion: RequestHandler = (_req, res, next) => {
  res.setHeader("API-Version", "1");
  next();
};

/** The spec's per-IP limits (section 8), per minute. */
export const POLICIES = { reads: 120, writes: 120, challenge: 30, result: 60, mcp: 120, matchmake: 120 } as const;
export type PolicyName = keyof typeof POLICIES;

export interface LimiterOptions {
  scale: number;
  store?: (policy: PolicyName) => RateStore;
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
      next(new AppError("rate_limited", `more than ${POLICIES[policy]} ${policy} requests per minute ${res.locals.bot ? "for this bot key" : "from this address"}`)),
  });
}

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
