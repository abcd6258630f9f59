/**
 * Caps on tournament joins per minute: per address (TOURNAMENT_JOINS_PER_ADDRESS) and per player profile
 * (TOURNAMENT_JOINS_PER_PLAYER), scaled by RATE_LIMIT_SCALE. Counted by express-rate-limit in the request
 * policies' store (Redis when scaled out), one store per cap shared by REST (middleware, with its RateLimit
 * fields) and MCP's join tool (`admit`, which has no Express request of its own), so both count together. Only
 * joins that succeed count: a refused one is given back.
 */
import type { Request, RequestHandler } from "express";
import { ipKeyGenerator, MemoryStore, type Store } from "express-rate-limit";
import { actionLimiter, addressKey, type LimiterOptions } from "./edges";
import { AppError } from "../../shared/errors";

export interface JoinLimits extends Pick<LimiterOptions, "scale" | "store"> {
  perAddress: number;
  perPlayer: number;
}

interface Cap {
  limit: number;
  store: Store;
  refusal: string;
  handler: RequestHandler;
}

/** The profile a join names (`player.id`), if any: a guest join makes a new player, so only the address counts it. */
function profileKey(req: Request): string | undefined {
  const id = (req.body as { player?: { id?: unknown } } | undefined)?.player?.id;
  return typeof id === "string" ? playerKey(id) : undefined;
}
const playerKey = (id: string) => `player:${id}`;

export class JoinCaps {
  private readonly address: Cap;
  private readonly player: Cap;

  constructor(limits: JoinLimits) {
    const cap = (name: string, perMinute: number, key: (req: Request) => string | undefined, refusal: string): Cap => {
      const store = limits.store?.(name) ?? new MemoryStore();
      // The middleware initialises the store (its window), which `admit` then shares.
      const handler = actionLimiter(name, perMinute, { scale: limits.scale, store: () => store }, key, refusal);
      return { limit: Math.max(1, Math.round(perMinute * limits.scale)), store, refusal, handler };
    };
    this.address = cap("tournament-join", limits.perAddress, addressKey, `more than ${limits.perAddress} tournament joins per minute from this address`);
    this.player = cap("tournament-join-player", limits.perPlayer, profileKey, `more than ${limits.perPlayer} tournament joins per minute for this player`);
  }

  /** REST: the caps in front of POST /tournaments/{id}/join. */
  middleware(): RequestHandler[] {
    return [this.address.handler, this.player.handler];
  }

  /**
   * MCP: counts a join from `address` (by `playerId`, when it names a profile) before it is tried; refuses
   * with `rate_limited` past a cap. Answers what gives the join back when it is then refused.
   */
  async admit(address: string, playerId?: string): Promise<() => Promise<void>> {
    const counted: [Cap, string][] = [];
    const release = async () => {
      for (const [c, key] of counted) await c.store.decrement(key);
    };
    const keys: [Cap, string][] = [[this.address, ipKeyGenerator(address)], ...(playerId ? [[this.player, playerKey(playerId)] as [Cap, string]] : [])];
    for (const [c, key] of keys) {
      const { totalHits } = await c.store.increment(key);
      counted.push([c, key]);
      if (totalHits > c.limit) {
        await release();
        throw new AppError("rate_limited", c.refusal);
      }
    }
    return release;
  }
}
