/**
 * Several real server processes on one store (a SQLite file, or MongoDB: MONGODB_URL or a private CongoDB)
 * and a private Redis, as an operator runs them.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "redis";
import { startCongo, type CongoHandle } from "../../src/services/cluster/congodb";
import type { Store } from "../../src/store";
import { MongoStore } from "../../src/store/mongo";
import { SqliteStore } from "../../src/store/sqlite";
import { pickMove, seatedFriendGame } from "../support/play";
import { spawnServer, type ServerProcess } from "../support/process";
import { startRedis, type RedisHandle } from "../support/redis";
import { bearer, freePort, http } from "../support/server";

/** Short heartbeats so a dead process is noticed within about 1.5 s. */
export const FAST_CLUSTER = { CLUSTER_HEARTBEAT_MS: "300", CLUSTER_DEAD_AFTER_MS: "1500" };

export interface Cluster {
  redis: RedisHandle;
  procs: ServerProcess[];
  dir: string;
  database: string;
  /** A store on the processes' data, for reading what they wrote. */
  store: Store;
  /** Room listings in Redis (Colyseus roomcaches): room id -> processId. */
  listings(): Promise<Map<string, string>>;
  /** The process (index) whose Colyseus processId is given. */
  indexOf(processId: string): number;
  processIds: string[];
  stop(): Promise<void>;
}

export type ClusterStore = "sqlite" | "mongodb";

let clusters = 0;
/** The database the processes share on MongoDB: a new one on MONGODB_URL's server, or a private CongoDB. */
async function mongoDatabase(): Promise<{ url: string; congo: CongoHandle | null }> {
  const congo = process.env.MONGODB_URL ? null : await startCongo();
  const u = new URL(process.env.MONGODB_URL ?? congo!.url);
  u.pathname = `/cluster_${process.pid}_${clusters++}`;
  return { url: u.toString(), congo };
}

export async function startCluster(n: number, extraEnv: Record<string, string> = {}, kind: ClusterStore = "sqlite"): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), "arena-cluster-"));
  const database = join(dir, "shared.sqlite");
  const mongo = kind === "mongodb" ? await mongoDatabase() : null;
  const redis = await startRedis();
  const procs: ServerProcess[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const port = await freePort();
      // Empty means SQLite, whatever MONGODB_URL the test run itself was given.
      const storeEnv = { MONGODB_URL: mongo ? mongo.url : "" };
      procs.push(
        await spawnServer({ REDIS_URL: redis.url, DATABASE: database, ...storeEnv, PUBLIC_ADDRESS: `127.0.0.1:${port}`, ...FAST_CLUSTER, ...extraEnv }, port),
      );
    }
  } catch (e) {
    // A process that did not start: what was started is stopped, as stop() would, before the test fails.
    for (const p of procs) await p.stop("SIGKILL");
    await mongo?.congo?.stop();
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  const processIds = await Promise.all(procs.map(async (p) => (await http(p.url, "GET", "/healthz")).json.processId as string));
  const store: Store = mongo ? new MongoStore({ url: mongo.url }) : new SqliteStore({ path: database });
  await store.init();
  const redisClient = createClient({ url: redis.url });
  await redisClient.connect();
  return {
    redis,
    procs,
    dir,
    database,
    store,
    processIds,
    indexOf: (id) => processIds.indexOf(id),
    listings: async () => {
      const all = await redisClient.hGetAll("roomcaches");
      return new Map(Object.entries(all).map(([roomId, raw]) => [roomId, (JSON.parse(raw) as { processId: string }).processId]));
    },
    stop: async () => {
      for (const p of procs) {
        if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill("SIGCONT");
        await p.stop("SIGKILL");
      }
      await redisClient.quit().catch(() => undefined);
      if (mongo && !mongo.congo) await (store as MongoStore).dropDatabase();
      await store.close();
      await mongo?.congo?.stop();
      await redis.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface TwoSeatGame {
  id: string;
  tokens: Record<"A" | "B", string>;
}

/** A friend game created through one process and joined through another: both seats are REST agents. */
export async function friendGame(create: string, join: string): Promise<TwoSeatGame> {
  const { id, tokens } = await seatedFriendGame(create, { create: { turnSeconds: 600 }, joinBase: join });
  return { id, tokens };
}

/** `unanswered`: a move refused because its room's process stopped answering while it was under way (it may yet be kept). */
export type MoveOutcome = { status: number; retryAfter: string | null; moveCount?: number; finished?: boolean; unanswered?: boolean };

/** One move by whichever seat is to play, through `base`; the status says whether it was acknowledged. */
export async function playOne(base: string, g: TwoSeatGame): Promise<MoveOutcome> {
  const rec = await http(base, "GET", `/api/v1/games/${g.id}`);
  if (rec.status !== 200) return { status: rec.status, retryAfter: rec.headers.get("retry-after") };
  if (rec.json.status === "finished") return { status: 200, retryAfter: null, moveCount: rec.json.moveCount, finished: true };
  const seat = rec.json.turn as "A" | "B";
  const view = await http(base, "GET", `/api/v1/games/${g.id}/sync`, undefined, bearer(g.tokens[seat]));
  if (view.status !== 200) return { status: view.status, retryAfter: view.headers.get("retry-after") };
  if (!view.json.yourTurn) return { status: 409, retryAfter: null };
  const m = await http(base, "POST", `/api/v1/games/${g.id}/moves`, pickMove(view.json.state), bearer(g.tokens[seat]));
  const unanswered = m.status === 503 && /did not answer/.test(m.json?.detail ?? "");
  return {
    status: m.status,
    retryAfter: m.headers.get("retry-after"),
    moveCount: m.status === 200 ? m.json.move.n : undefined,
    finished: m.json?.status === "finished",
    unanswered,
  };
}

/** Retries `playOne` until a move is acknowledged; resolves with how long that took and what was refused. */
export async function playUntilAcknowledged(base: string, g: TwoSeatGame, giveUpMs = 30_000) {
  const started = Date.now();
  const refusals: MoveOutcome[] = [];
  for (;;) {
    const out = await playOne(base, g);
    if (out.status === 200) return { ms: Date.now() - started, refusals, out };
    refusals.push(out);
    if (Date.now() - started > giveUpMs) throw new Error(`game ${g.id} not playable after ${giveUpMs} ms: ${JSON.stringify(refusals.slice(-3))}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
