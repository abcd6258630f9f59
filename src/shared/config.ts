/**
 * The one place that reads the environment. Every other module receives a Config (or a part of it) from
 * the composition root, so tests build their own Config without touching process.env.
 */
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import { z } from "zod";

const bool = z.enum(["true", "false", "1", "0", "yes", "no", ""]).transform((v) => v === "true" || v === "1" || v === "yes");

/**
 * Defaults that modules fall back to when built without a Config (a test's server, a room made without
 * options), and that requests fall back to (a game's turn clock): the settings below take theirs from here,
 * so each default is written once. `turnSeconds` is the turn clock of a game nobody set one for: a created
 * game's, a quick-match or bot challenge game's, and a tournament's (TOURNAMENT_TURN_SECONDS).
 */
const defaults = {
  turnSeconds: 120,
  tournamentMaxEntrants: 1000,
  streamHeartbeatS: 15,
  streamsPerKey: 2,
  streamsPerAddress: 40,
  webhookLeaseMs: 120_000,
  webhookSlowAfterMs: 1000,
  wsFramesPerSecond: 20,
  maxBodyBytes: 64 * 1024,
  spectatorsPerGame: 100,
  spectatorsPerAddress: 10,
  mcpMaxSessions: 5000,
  mcpSessionsPerAddress: 20,
  longPollsPerAddress: 20,
  mcpIdleS: 300,
  exportsPerAddress: 2,
  exportsInAll: 16,
  exportStallS: 30,
};
export const DEFAULTS: Readonly<typeof defaults> = Object.freeze(defaults);

/** Every environment variable the service reads; `npm run env:example` writes them to .env.example with their comments. */
export const EnvSchema = z.object({
  /** HTTP and WebSocket port. */
  PORT: z.coerce.number().int().min(0).max(65535).default(2567),
  /** Bind address. */
  HOST: z.string().default("0.0.0.0"),
  /** SQLite file path (or ":memory:"); ignored when MONGODB_URL is set. */
  DATABASE: z.string().default("./data/arena.sqlite"),
  /** Use MongoDB (through mongoose) instead of SQLite. */
  MONGODB_URL: z.string().optional(),
  /** SQLite's fsync policy: FULL survives power loss (affordable with the group commit), NORMAL a process crash only. */
  SQLITE_SYNCHRONOUS: z.enum(["FULL", "NORMAL"]).default("FULL"),
  /**
   * With MongoDB, the shortest time between two commits of game writes, in milliseconds: what arrives sooner
   * waits, at most this long, and shares the next commit; 0 commits every event-loop turn's writes at once.
   * With SQLite and FULL, the shortest time between two WAL fsyncs, on each connection: the writer thread's
   * (game writes and new games; a batch waits out what is left of the window since its last fsync, so a move
   * after a quiet spell is not delayed) and the main thread's (profiles and the other rarer writes).
   */
  COMMIT_WINDOW_MS: z.coerce.number().min(0).max(50).default(4),
  /** Redis for presence, the matchmaking driver and rate-limit counters (several processes). Unset: in-process. */
  REDIS_URL: z.string().optional(),
  /** Origin used in links (watch, replay, invites); default http://localhost:$PORT. */
  PUBLIC_BASE_URL: z.string().optional(),
  /** Address other processes use to reach this one's rooms when scaled out (host:port). */
  PUBLIC_ADDRESS: z.string().optional(),
  /** Let webhook callbacks reach loopback and private addresses (tests and local development only). */
  WEBHOOK_ALLOW_PRIVATE: bool.default(false),
  /** Milliseconds the house opponent waits before moving (a human-like pace). */
  HOUSE_DELAY_MS: z.coerce.number().int().min(0).max(60000).default(800),
  /** Most entrants one tournament accepts (a round's pairing and its games' creation stay bounded). */
  TOURNAMENT_MAX_ENTRANTS: z.coerce.number().int().min(2).max(10000).default(DEFAULTS.tournamentMaxEntrants),
  /** Turn clock of tournament games, in seconds: a seat that does not move in time loses the game. */
  TOURNAMENT_TURN_SECONDS: z.coerce.number().int().min(1).max(86400).default(DEFAULTS.turnSeconds),
  /** Tournaments one address may join per minute (scaled by RATE_LIMIT_SCALE like every per-minute limit). */
  TOURNAMENT_JOINS_PER_ADDRESS: z.coerce.number().int().min(1).max(10000).default(20),
  /** Tournaments one player profile may join per minute (scaled by RATE_LIMIT_SCALE). */
  TOURNAMENT_JOINS_PER_PLAYER: z.coerce.number().int().min(1).max(10000).default(5),
  /** Seconds a waiting game (no second player) lives before it is aborted. */
  WAITING_GAME_TTL_S: z.coerce
    .number()
    .int()
    .min(1)
    .default(24 * 3600),
  /**
   * Seconds the room of a waiting game stays open with nobody connected before it closes (the game waits on
   * in the store, and its room opens again for the next claim or watcher). Above Colyseus' seat reservation
   * time (15 s), so a reserved seat is taken before its room closes.
   */
  WAITING_ROOM_IDLE_S: z.coerce.number().int().min(1).max(3600).default(30),
  /** pino log level. */
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Multiplies every per-minute rate limit (load tests raise it; keep 1 or more in production). */
  RATE_LIMIT_SCALE: z.coerce.number().positive().default(1),
  /** Seconds between heartbeats (an empty line) on the NDJSON streams of bots and games. */
  STREAM_HEARTBEAT_S: z.coerce.number().int().min(1).max(300).default(DEFAULTS.streamHeartbeatS),
  /** Event streams one bot key may hold open in one process. */
  STREAMS_PER_KEY: z.coerce.number().int().min(1).max(100).default(DEFAULTS.streamsPerKey),
  /**
   * NDJSON streams (bot event streams and game streams together) one client address may hold open in one
   * process (429 past it). Bot keys are free, so the bound per key alone would not bound an address.
   */
  STREAMS_PER_ADDRESS: z.coerce.number().int().min(1).max(10_000).default(DEFAULTS.streamsPerAddress),
  /** Bots one address may register per BOT_REGISTRATION_WINDOW_S (times RATE_LIMIT_SCALE; 429 past it). */
  BOT_REGISTRATIONS_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).default(20),
  /** The window BOT_REGISTRATIONS_PER_ADDRESS counts over, in seconds: 3600 for a rate per hour, 60 per minute. */
  BOT_REGISTRATION_WINDOW_S: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 3600)
    .default(3600),
  /** Set: GET /metrics asks for `Authorization: Bearer <METRICS_TOKEN>`. Unset: /metrics is open. */
  METRICS_TOKEN: z.string().min(16).optional(),
  /**
   * Mount Colyseus' monitor and playground under /colyseus, behind METRICS_TOKEN (which must then be set):
   * they can inspect and dispose live games' rooms.
   */
  OPERATOR_TOOLS: bool.default(false),
  /**
   * OpenTelemetry traces of the REST routes and of the move path go to this OTLP/HTTP endpoint (standard
   * variable); unset, with no other OTEL_ setting below, tracing is off. The exporter reads the rest of the
   * standard OTEL_EXPORTER_OTLP_* variables (headers, timeout, compression) itself.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().optional(),
  /** The endpoint for traces only; it takes precedence over OTEL_EXPORTER_OTLP_ENDPOINT. */
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.string().optional(),
  /**
   * `otlp` or `console` (spans printed on stdout, to try it) turns tracing on, `none` keeps it off; unset,
   * it is `otlp` when an endpoint is set and off otherwise.
   */
  OTEL_TRACES_EXPORTER: z.enum(["otlp", "console", "none"]).optional(),
  /** `true` turns tracing off whatever else is set. */
  OTEL_SDK_DISABLED: bool.default(false),
  /** The service name on every span. */
  OTEL_SERVICE_NAME: z.string().min(1).default("tile-arena"),
  /** Worker threads for the house opponent and reviews; 0 runs them on the event loop. Default: cores - 1, 1 to 4. */
  AI_THREADS: z.coerce.number().int().min(0).max(64).optional(),
  /** How often a process renews its heartbeat in the store and looks for dead peers. */
  CLUSTER_HEARTBEAT_MS: z.coerce.number().int().min(100).max(60000).default(1000),
  /** A process whose heartbeat is older than this is dead and its games are re-created elsewhere. */
  CLUSTER_DEAD_AFTER_MS: z.coerce.number().int().min(300).max(600000).default(3000),
  /** How long a process holds a webhook delivery before another may send it (a dead holder's run out after this). */
  WEBHOOK_LEASE_MS: z.coerce.number().int().min(20_000).max(3_600_000).default(DEFAULTS.webhookLeaseMs),
  /** Webhook POSTs the slow lane may hold (of 64 in all): slow or failing subscriptions share these, healthy ones keep the rest. */
  WEBHOOK_SLOW_SLOTS: z.coerce.number().int().min(1).max(32).default(16),
  /** A webhook answer later than this (ms), a POST unanswered by then, or a failed one moves its subscription to the slow lane. */
  WEBHOOK_SLOW_AFTER_MS: z.coerce.number().int().min(100).max(5000).default(DEFAULTS.webhookSlowAfterMs),
  /**
   * The public game log's Ed25519 signing key, PKCS#8 PEM (its newlines may be written as \n). Unset: the key in
   * LOG_KEY_FILE. Never kept in the store: only its public key is (docs/DEPLOY.md, "The public log's key").
   */
  LOG_SIGNING_KEY: z.string().optional(),
  /**
   * File holding the log's signing key (PKCS#8 PEM) when LOG_SIGNING_KEY is unset; generated (mode 0600) on the
   * first start. Default: log-signing.key beside the DATABASE file (none for an in-memory database: a key per
   * run). Processes sharing a MongoDB store need the same key: give each LOG_SIGNING_KEY or the same file.
   */
  LOG_KEY_FILE: z.string().optional(),
  /**
   * Rotates the log's signing key at start when set to the current key's id (GET /api/v1/log/key; 8 or more
   * leading hex digits do): a new key signs from the log's current size on, heads signed before still verify
   * with the old public key. Naming any other key rotates nothing, so the setting may stay until removed.
   */
  LOG_KEY_ROTATE: z
    .string()
    .regex(/^([0-9a-f]{8,64})?$/, "the current key's id, 8-64 lowercase hex digits")
    .optional(),
  /** The log's origin, the first line of its checkpoints (c2sp.org/tlog-checkpoint). Default: PUBLIC_BASE_URL's host and path, then /log. */
  LOG_ORIGIN: z
    .string()
    .regex(/^[^\s+]*$/, "one word, without spaces or '+'")
    .optional(),
  /** Longest wait between a game's finish and the public log's batch that appends it (one signed head per batch). */
  LOG_BATCH_MS: z.coerce.number().int().min(10).max(1000).default(1000),
  /** How long the process appending to the public log holds that role before another may take it over. */
  LOG_LEASE_MS: z.coerce.number().int().min(1000).max(600_000).default(10_000),
  /** Trust X-Forwarded-For from this many proxies in front of the service. */
  TRUST_PROXY: z.coerce.number().int().min(0).default(0),
  /** WebSocket frames (of any protocol type) one socket may send per second before it is closed. */
  WS_FRAMES_PER_SECOND: z.coerce.number().int().min(1).max(10_000).default(DEFAULTS.wsFramesPerSecond),
  /** Largest request body on any route, matchmaking included (bytes). */
  MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(16 * 1024 * 1024)
    .default(DEFAULTS.maxBodyBytes),
  /** Spectators one game's room admits; seats always get in. */
  SPECTATORS_PER_GAME: z.coerce.number().int().min(0).max(10_000).default(DEFAULTS.spectatorsPerGame),
  /** Spectators one address may have in one game. */
  SPECTATORS_PER_ADDRESS: z.coerce.number().int().min(0).max(10_000).default(DEFAULTS.spectatorsPerAddress),
  /** MCP sessions open at once in the process (503 past it). */
  MCP_MAX_SESSIONS: z.coerce.number().int().min(1).default(DEFAULTS.mcpMaxSessions),
  /** MCP sessions one client address may hold (429 past it). */
  MCP_SESSIONS_PER_ADDRESS: z.coerce.number().int().min(1).default(DEFAULTS.mcpSessionsPerAddress),
  /** Long-polls (sync or quick-match polls with a timeout) one address may have waiting at once, REST and MCP together. */
  LONG_POLLS_PER_ADDRESS: z.coerce.number().int().min(1).max(10_000).default(DEFAULTS.longPollsPerAddress),
  /** Seconds an MCP session may stay unused before it is ended. */
  MCP_IDLE_S: z.coerce
    .number()
    .int()
    .min(10)
    .max(24 * 3600)
    .default(DEFAULTS.mcpIdleS),
  /** Open exports (GET /api/v1/exports/games) one address may have running at once in the process (429 past it). */
  EXPORTS_PER_ADDRESS: z.coerce.number().int().min(1).max(1000).default(DEFAULTS.exportsPerAddress),
  /** Open exports running at once in the process, every address together (503 past it). */
  EXPORTS_IN_ALL: z.coerce.number().int().min(1).max(10_000).default(DEFAULTS.exportsInAll),
  /**
   * Seconds an export may go without its reader taking anything before it is cut, its slot given back: a reader
   * that stopped reading, or reads a byte at a time, cannot hold a slot for ever.
   */
  EXPORT_STALL_S: z.coerce.number().int().min(1).max(3600).default(DEFAULTS.exportStallS),
});

/**
 * What one client may cost the process. The per-minute request policies (spec section 8) live beside the
 * limiter in src/edges/api/edges.ts; everything sized per socket, body, room or session is here.
 */
export interface Limits {
  framesPerSecond: number;
  maxBodyBytes: number;
  spectatorsPerGame: number;
  spectatorsPerAddress: number;
  mcpSessions: number;
  mcpSessionsPerAddress: number;
  longPollsPerAddress: number;
  mcpIdleMs: number;
}

export type Config = {
  port: number;
  host: string;
  database: string;
  sqliteSynchronous: "FULL" | "NORMAL";
  /** COMMIT_WINDOW_MS: with MongoDB the shortest time between two commits of game writes; with SQLite, two WAL fsyncs of one connection. */
  commitWindowMs: number;
  mongodbUrl?: string;
  redisUrl?: string;
  publicBaseUrl: string;
  publicAddress?: string;
  webhookAllowPrivate: boolean;
  houseDelayMs: number;
  waitingGameTtlS: number;
  tournamentMaxEntrants: number;
  tournamentTurnSeconds: number;
  tournamentJoinsPerAddress: number;
  tournamentJoinsPerPlayer: number;
  /** WAITING_ROOM_IDLE_S in milliseconds. */
  waitingRoomIdleMs: number;
  logLevel: z.infer<typeof EnvSchema>["LOG_LEVEL"];
  rateLimitScale: number;
  streamHeartbeatS: number;
  streamsPerKey: number;
  streamsPerAddress: number;
  /** BOT_REGISTRATIONS_PER_ADDRESS per BOT_REGISTRATION_WINDOW_S (in milliseconds). */
  botRegistrations: { perAddress: number; windowMs: number };
  trustProxy: number;
  metricsToken?: string;
  /** OTEL_*: where a request's and a move's spans go ("off": nowhere, at next to no cost). */
  tracing: "off" | "otlp" | "console";
  /** OTEL_SERVICE_NAME. */
  serviceName: string;
  /** OPERATOR_TOOLS: the Colyseus monitor and playground under /colyseus (needs metricsToken). */
  operatorTools: boolean;
  aiThreads: number;
  limits: Limits;
  clusterHeartbeatMs: number;
  clusterDeadAfterMs: number;
  webhookLeaseMs: number;
  webhookSlowSlots: number;
  webhookSlowAfterMs: number;
  /** PKCS#8 PEM of the public log's signing key; absent: the one in logKeyFile (src/services/log/keys.ts). */
  logSigningKey?: string;
  /** LOG_KEY_FILE; absent: the default beside the database (logKeyFileOf). */
  logKeyFile?: string;
  /** LOG_KEY_ROTATE: the id (or a prefix) of the key to retire at start. */
  logKeyRotate?: string;
  /** LOG_ORIGIN, or derived from publicBaseUrl. */
  logOrigin: string;
  logBatchMs: number;
  logLeaseMs: number;
  /** EXPORTS_PER_ADDRESS, EXPORTS_IN_ALL and EXPORT_STALL_S (in milliseconds): what open exports may hold. */
  exports: ExportLimits;
};

/** What the open exports of the public log may hold at once in one process (src/edges/api/export-slots.ts). */
export interface ExportLimits {
  perAddress: number;
  inAll: number;
  stallMs: number;
}

/** Builds the Config from an environment (process.env by default); throws a readable error on bad values. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new Error(`invalid configuration:\n  ${lines.join("\n  ")}`);
  }
  const e = parsed.data;
  const publicBaseUrl = (e.PUBLIC_BASE_URL || `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  if (e.OPERATOR_TOOLS && !e.METRICS_TOKEN) throw new Error("invalid configuration:\n  OPERATOR_TOOLS: needs METRICS_TOKEN, the token that guards the tools");
  return {
    port: e.PORT,
    host: e.HOST,
    database: e.DATABASE,
    sqliteSynchronous: e.SQLITE_SYNCHRONOUS,
    commitWindowMs: e.COMMIT_WINDOW_MS,
    mongodbUrl: e.MONGODB_URL || undefined,
    redisUrl: e.REDIS_URL || undefined,
    publicBaseUrl,
    publicAddress: e.PUBLIC_ADDRESS || undefined,
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
    houseDelayMs: e.HOUSE_DELAY_MS,
    waitingGameTtlS: e.WAITING_GAME_TTL_S,
    tournamentMaxEntrants: e.TOURNAMENT_MAX_ENTRANTS,
    tournamentTurnSeconds: e.TOURNAMENT_TURN_SECONDS,
    tournamentJoinsPerAddress: e.TOURNAMENT_JOINS_PER_ADDRESS,
    tournamentJoinsPerPlayer: e.TOURNAMENT_JOINS_PER_PLAYER,
    waitingRoomIdleMs: e.WAITING_ROOM_IDLE_S * 1000,
    logLevel: e.LOG_LEVEL,
    rateLimitScale: e.RATE_LIMIT_SCALE,
    streamHeartbeatS: e.STREAM_HEARTBEAT_S,
    streamsPerKey: e.STREAMS_PER_KEY,
    streamsPerAddress: e.STREAMS_PER_ADDRESS,
    botRegistrations: { perAddress: e.BOT_REGISTRATIONS_PER_ADDRESS, windowMs: e.BOT_REGISTRATION_WINDOW_S * 1000 },
    trustProxy: e.TRUST_PROXY,
    metricsToken: e.METRICS_TOKEN || undefined,
    operatorTools: e.OPERATOR_TOOLS,
    tracing: tracingMode(e),
    serviceName: e.OTEL_SERVICE_NAME,
    aiThreads: e.AI_THREADS ?? Math.min(4, Math.max(1, availableParallelism() - 1)),
    limits: {
      framesPerSecond: e.WS_FRAMES_PER_SECOND,
      maxBodyBytes: e.MAX_BODY_BYTES,
      spectatorsPerGame: e.SPECTATORS_PER_GAME,
      spectatorsPerAddress: e.SPECTATORS_PER_ADDRESS,
      mcpSessions: e.MCP_MAX_SESSIONS,
      mcpSessionsPerAddress: e.MCP_SESSIONS_PER_ADDRESS,
      longPollsPerAddress: e.LONG_POLLS_PER_ADDRESS,
      mcpIdleMs: e.MCP_IDLE_S * 1000,
    },
    clusterHeartbeatMs: e.CLUSTER_HEARTBEAT_MS,
    clusterDeadAfterMs: Math.max(e.CLUSTER_DEAD_AFTER_MS, 2 * e.CLUSTER_HEARTBEAT_MS),
    webhookLeaseMs: e.WEBHOOK_LEASE_MS,
    webhookSlowSlots: e.WEBHOOK_SLOW_SLOTS,
    webhookSlowAfterMs: e.WEBHOOK_SLOW_AFTER_MS,
    logSigningKey: e.LOG_SIGNING_KEY ? e.LOG_SIGNING_KEY.replaceAll("\\n", "\n") : undefined,
    logKeyFile: e.LOG_KEY_FILE || undefined,
    logKeyRotate: e.LOG_KEY_ROTATE || undefined,
    logOrigin: e.LOG_ORIGIN || originOf(publicBaseUrl),
    logBatchMs: e.LOG_BATCH_MS,
    logLeaseMs: e.LOG_LEASE_MS,
    exports: { perAddress: e.EXPORTS_PER_ADDRESS, inAll: e.EXPORTS_IN_ALL, stallMs: e.EXPORT_STALL_S * 1000 },
  };
}

/** The log's key file: LOG_KEY_FILE, else log-signing.key beside the SQLite file; none for an in-memory database (a key per run). */
export function logKeyFileOf(config: Pick<Config, "logKeyFile" | "database">): string | undefined {
  if (config.logKeyFile) return config.logKeyFile;
  return config.database === ":memory:" || config.database === "" ? undefined : join(dirname(config.database), "log-signing.key");
}

/** A log origin from the public URL: its host and path with /log ("arena.example.com/log"), as C2SP origins are written. */
function originOf(publicBaseUrl: string): string {
  try {
    const u = new URL(publicBaseUrl);
    return `${u.host}${u.pathname.replace(/\/+$/, "")}/log`;
  } catch {
    return "localhost/log";
  }
}

/** Tracing is off unless an OTLP endpoint or an exporter is named, and never with OTEL_SDK_DISABLED. */
function tracingMode(e: z.infer<typeof EnvSchema>): Config["tracing"] {
  if (e.OTEL_SDK_DISABLED || e.OTEL_TRACES_EXPORTER === "none") return "off";
  if (e.OTEL_TRACES_EXPORTER) return e.OTEL_TRACES_EXPORTER;
  return e.OTEL_EXPORTER_OTLP_ENDPOINT || e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ? "otlp" : "off";
}

/** A Config for tests: embedded defaults with the given overrides. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...loadConfig({ DATABASE: ":memory:", LOG_LEVEL: "silent", HOUSE_DELAY_MS: "0", PORT: "0" }), ...overrides };
}
