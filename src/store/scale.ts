/**
 * Infrastructure for several processes: Redis presence (pub/sub and shared keys), the Redis matchmaking
 * driver, and a Redis store for rate-limit counters so limits hold across processes.
 */
import { RedisDriver } from "@colyseus/redis-driver";
import { RedisPresence } from "@colyseus/redis-presence";
import type { Store as RateStore } from "express-rate-limit";
import { RedisStore } from "rate-limit-redis";
import { createClient } from "redis";

export async function scaledInfra(redisUrl: string) {
  const presence = new RedisPresence(redisUrl);
  const driver = new RedisDriver(redisUrl);
  const client = createClient({ url: redisUrl });
  await client.connect();
  return {
    presence,
    driver,
    rateLimitStore: (policy: string): RateStore => new RedisStore({ prefix: `rl:${policy}:`, sendCommand: (...args: string[]) => client.sendCommand(args) }),
    close: async () => {
      await client.quit().catch(() => undefined);
    },
  };
}
