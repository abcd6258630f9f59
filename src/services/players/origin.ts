/**
 * The address a request came from, for the profile it creates: two profiles made from one address within a
 * short time are presumed one person's, and their games together are not rated (integrity.ts). The address
 * is kept only as a hash. The profile is made deep inside the games service (REST and MCP alike), so the
 * address travels in the request's async context, set by one middleware in front of every route. On Node 22
 * an AsyncLocalStorage costs every promise of the process a hook unless node runs with
 * --experimental-async-context-frame, which `npm start` and the room benchmark pass (docs/DEPLOY.md).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { RequestHandler } from "express";
import { sha256Hex } from "../../shared/secrets";

export class RequestOrigins {
  private readonly context = new AsyncLocalStorage<string>();

  /** Puts the request's address (Express' `req.ip`, which honours TRUST_PROXY) in its async context. */
  middleware(): RequestHandler {
    return (req, _res, next) => {
      const ip = req.ip;
      if (!ip) return next();
      this.context.run(originOf(ip), next);
    };
  }

  /** The hashed address of the request being served, if any. */
  current(): string | undefined {
    return this.context.getStore();
  }
}

/** A stable hash of an address (IPv4-mapped IPv6 read as the IPv4 address it is). */
export const originOf = (ip: string): string => sha256Hex(`origin:${ip.replace(/^::ffff:/, "")}`).slice(0, 32);
