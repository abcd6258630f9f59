/**
 * The composition root: builds every dependency from one Config and wires them together. Nothing else
 * constructs services; tests call `startServer(testConfig(...))` to get a real server on a free port.
 */
import { WebSocket as WsWebSocket } from "ws";
// Colyseus 0.18's reconnection path expects a global WebSocket (Node 22 has one; Node 20 does not).
(globalThis as { WebSocket?: unknown }).WebSocket ??= WsWebSocket;

import { LocalPresence, matchMaker, Server, type MatchMakerDriver, type Presence } from "@colyseus/core";
import type { Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { SpanExporter } from "@opentelemetry/sdk-trace";
import { ChallengeService } from "./services/agents";
import { agentsRouter } from "./edges/api/routes/agents";
import { createAiPool } from "./services/ai/pool";
import { finishApp, mountApi } from "./edges/api";
import { BotDirectory, BotRevocation, BotService, BotStreamHub } from "./services/bots";
import { unwrap } from "./shared/errors";
import { botBucket, botDirectoryRouter } from "./edges/api/routes/bots";
import { streamsRouter } from "./edges/api/routes/streams";
import { EXPOSED_HEADERS } from "./edges/api/edges";
import { LongPolls } from "./edges/api/long-polls";
import { gateMatchmaking } from "./edges/api/matchmake-gate";
import { eventsRouter } from "./edges/api/routes/events";
import { loadAssets } from "./services/assets";
import { assetsRouter } from "./edges/api/routes/assets";
import { CommunityService } from "./services/communities";
import { communitiesRouter } from "./edges/api/routes/communities";
import { TournamentService, tournamentChannel } from "./services/tournaments";
import { tournamentsRouter } from "./edges/api/routes/tournaments";
import { JoinCaps } from "./edges/api/join-caps";
import { TournamentRoom } from "../rooms/tournament-room";
import { LeagueService } from "./services/leagues";
import { leaguesRouter } from "./edges/api/routes/leagues";
import { logKeyFileOf, type Config } from "./shared/config";
import { createEvents, type Events } from "./services/events";
import { assertCanJoin, dropListings, Failover, Ownership, ProcessRegistry, relist, type ClusterTiming } from "./services/cluster";
import { GameService } from "./services/games/service";
import { changeChannel, type RoomDeps } from "./services/games/ports";
import { QuickMatch } from "./services/games/quick-match";
import { AfterTurn } from "./services/games/actor/after-turn";
import { guardMatchmaking } from "./services/games/matchmaking-guard";
import { GAME_ROOM, QUEUE_ROOM, RoomAccess } from "./services/games/room-access";
import { SubscriptionCache } from "./services/games/subscription-cache";
import { WaitingSweep } from "./services/games/waiting-sweep";
import { docsRouter } from "./edges/docs";
import { LogSequencer, LogService, openLogKeys } from "./services/log";
import { logRouter } from "./edges/api/routes/log";
import { ExportSlots } from "./edges/api/export-slots";
import { createLogger, type Logger } from "./shared/logger";
import { createMetrics, metricsHandler } from "./services/metrics";
import { operatorTools } from "./edges/api/routes/operator";
import { startTracing, tracingMiddleware } from "./shared/tracing";
import { createMcpRouter } from "./edges/mcp";
import { RequestOrigins } from "./services/players/origin";
import { PlayerService } from "./services/players/service";
import { openStore, type Store } from "./store";
import { GroupCommit } from "./store/group-commit";
import { GameRoom } from "../rooms/game-room";
import { QuickMatchRoom, type QueueDeps } from "../rooms/quick-match-room";
import { scaledInfra } from "./store/scale";
import { colyseusLogger, GuardedTransport, IndexedLocalDriver } from "./edges/transport";
import { webRouter } from "./edges/web";

export interface RunningServer {
  port: number;
  url: string;
  config: Config;
  store: Store;
  events: Events;
  games: GameService;
  /** The bot event hub (its size shows what idle streams hold). */
  botStreams: BotStreamHub;
  tournaments: TournamentService;
  leagues: LeagueService;
  log: Logger;
  /** Graceful stop: rooms closed, in-flight requests finished, deliveries drained, store closed. */
  close(): Promise<void>;
}

export interface StartOptions {
  /** Extra CA certificates trusted for webhook callbacks (tests' self-signed receivers). */
  webhookCa?: string | Buffer;
  /** Webhook retry waits (tests shorten them). */
  webhookRetryDelaysMs?: number[];
  finishedGraceMs?: number;
  /** The structured logger (tests capture what is logged); default: pino at config.logLevel on stdout. */
  log?: Logger;
  /** Told each SQLite WAL fsync's duration in seconds besides the metrics (the room benchmark's capacity table). */
  onFsync?: (seconds: number) => void;
  /** Where spans go, whatever config.tracing says (tests read them from an in-memory exporter). */
  spanExporter?: SpanExporter;
}

export async function startServer(config: Config, opts: StartOptions = {}): Promise<RunningServer> {
  const log = opts.log ?? createLogger(config.logLevel);
  const metrics = createMetrics();
  const store = await openStore({
    database: config.database,
    mongodbUrl: config.mongodbUrl,
    synchronous: config.sqliteSynchronous,
    commitWindowMs: config.commitWindowMs,
    onState: (state, err) => (err ? log.error({ err, state }, "store connection error") : log.info({ state }, "store connection state")),
    onFailure: (err, operation) => log.error({ err, operation }, "store operation failed; answered unavailable"),
    onFsync: (seconds) => {
      metrics.walFsyncSeconds.observe(seconds);
      opts.onFsync?.(seconds);
    },
  });
  const infra = config.redisUrl ? await scaledInfra(config.redisUrl) : null;
  const presence: Presence = infra?.presence ?? new LocalPresence();
  const driver: MatchMakerDriver = infra?.driver ?? new IndexedLocalDriver();
  presence.setMaxListeners(0);
  const timing: ClusterTiming = { heartbeatMs: config.clusterHeartbeatMs, deadAfterMs: config.clusterDeadAfterMs };
  try {
    await assertCanJoin(store, Boolean(infra), timing);
  } catch (e) {
    await infra?.close();
    await store.close();
    throw e;
  }
  // Without shared presence the matchmaker knows no other process: every room is created here.
  const ownership = new Ownership(store, () => matchMaker.processId, log, !infra);
  // The public game log: every process marks its finished games pending; the lease holder appends them.
  // Its private key is LOG_SIGNING_KEY or the key file, never the store (an older store's is moved out here).
  const logKeys = await openLogKeys(store, { signingKey: config.logSigningKey, keyFile: logKeyFileOf(config), rotate: config.logKeyRotate, origin: config.logOrigin }, (m) => log.warn(m));
  const gameLog = new LogSequencer(store, logKeys.current, () => matchMaker.processId, { batchMs: config.logBatchMs, leaseMs: config.logLeaseMs }, log);

  const baseUrl = config.publicBaseUrl;
  const origins = new RequestOrigins();
  const players = new PlayerService(store, baseUrl, undefined, undefined, () => origins.current());
  const bots = new BotService(store, players, baseUrl, undefined, () => origins.current());
  const botDirectory = new BotDirectory(store, bots);
  const rooms = new RoomAccess(store, log);
  const ai = createAiPool(config.aiThreads, {
    onError: (err, task) => log.error({ err, task }, "AI worker thread failed; ran the task inline"),
    onDone: (task, seconds) => metrics.aiSeconds.observe({ task }, seconds),
  });
  const games = new GameService(store, rooms, players, presence, baseUrl, ai, metrics, ownership);
  // A game's proof is a read of the game: a private one's only for its seats (GameService.readable).
  const publicLog = new LogService(store, logKeys, undefined, (gameId, token) => games.canRead(gameId, token));
  const botStreams = new BotStreamHub(presence, games, log);
  await botStreams.start();
  const quick = new QuickMatch(presence, rooms, players, games, (botId, gameId, seat, playerToken) => botStreams.announce({ kind: "seat", botId, gameId, seat, playerToken }));
  const streams = streamsRouter({ hub: botStreams, games, presence }, { heartbeatS: config.streamHeartbeatS, perKey: config.streamsPerKey, perAddress: config.streamsPerAddress });
  // `events` is built next; emit is only called once a game finishes, long after this function returns.
  const challenges = new ChallengeService({
    store, games, players, emit: (e) => events.emit(e), baseUrl,
    hosting: { games, players, seatBot: (botId, gameId, seat, playerToken) => botStreams.announce({ kind: "seat", botId, gameId, seat, playerToken }) },
  });
  const tournaments = new TournamentService(store, games, players, baseUrl, (e) => events.emit(e), (id) => void presence.publish(tournamentChannel(id), 1), config.tournamentMaxEntrants, config.tournamentTurnSeconds);
  // One set of join counters for REST and MCP (Redis when scaled out).
  const tournamentJoins = new JoinCaps({ perAddress: config.tournamentJoinsPerAddress, perPlayer: config.tournamentJoinsPerPlayer, scale: config.rateLimitScale, store: infra?.rateLimitStore });
  const leagues = new LeagueService(store, games, baseUrl, (botId, gameId, seat) => botStreams.announce({ kind: "seat", botId, gameId, seat }), (e) => events.emit(e), (task) => ai.leagueTable(task));
  const communities = new CommunityService(store, players, baseUrl);
  const assets = await loadAssets();
  // A live game's subscriptions are looked up once per room, not once per event (invalidated through presence).
  const subscriptionCache = new SubscriptionCache(store, presence, (gameId) => rooms.localGame(gameId) !== undefined);
  await subscriptionCache.start();
  const events = createEvents({
    store: subscriptionCache,
    logger: log,
    config,
    ca: opts.webhookCa,
    retryDelaysMs: opts.webhookRetryDelaysMs,
    leaseMs: config.webhookLeaseMs,
    slowSlots: config.webhookSlowSlots,
    slowAfterMs: config.webhookSlowAfterMs,
    holder: () => matchMaker.processId,
    // Scaled out, other processes may be delivering from the same store: take over only expired leases.
    exclusive: !infra,
    resolveSeat: (gameId, token) => games.seatOf(gameId, token),
    currentState: async (name, args) => {
      if (name === "challenge.played") return { cursor: null, events: await challenges.eventsNow(String(args.token)) };
      // Tournament and league events are told as they happen; the current state is on their REST reads.
      if (name.startsWith("tournament.") || name.startsWith("league.")) return { cursor: null, events: [] };
      const now = await games.eventsNow(String(args.game_id), name, args);
      const streamed = name === "game.move" || name === "game.turn";
      return { cursor: streamed ? now.moveCount : null, events: now.events.map((e) => ({ data: e.data, sequence: e.sequence })) };
    },
  });

  metrics.deliveries.source = () => events.dispatcher.stats();

  // SQLite's writer thread groups the game writes itself, a batch closing when the previous one's fsync ends
  // (store/sqlite/writer.ts): a window before it would only delay them.
  const commits = new GroupCommit(store, { windowMs: config.mongodbUrl ? config.commitWindowMs : 0 });
  const roomDeps: RoomDeps = {
    store,
    // A game's finish write also marks it for the public log, in the store's own commit (store/port.ts, commitGames).
    commit: (write) => commits.submit(write),
    released: (gameId) => subscriptionCache.forget(gameId),
    fence: ownership,
    events,
    listens: (gameId, name) => subscriptionCache.listens(gameId, name),
    players,
    decide: (view, level) => ai.decide(view, level),
    publishChange: (gameId, change) => void presence.publish(changeChannel(gameId), change),
    onFinished: async (record) => {
      // Independent hooks: a failing challenge settlement must not keep a tournament from counting the game.
      const failed = (await Promise.allSettled([challenges.onGameFinished(record), tournaments.onGameFinished(record), leagues.onGameFinished(record)]))
        .find((r) => r.status === "rejected");
      if (failed) throw failed.reason;
    },
    rematches: games.rematches,
    log,
    metrics,
    baseUrl,
    houseDelayMs: config.houseDelayMs,
    afterTurn: new AfterTurn(),
    waitingGameTtlS: config.waitingGameTtlS,
    waitingRoomIdleMs: config.waitingRoomIdleMs,
    finishedGraceMs: opts.finishedGraceMs ?? 30_000,
    reconnectSeconds: 60,
  };
  const queueDeps: QueueDeps = {
    players,
    createMatched: (ruleset, seats) => games.createMatched(ruleset, seats),
    reserveSeat: (gameId, token) => rooms.reserveSeat(gameId, token),
    ticketMatched: (ticket, match) => quick.matched(ticket, match),
    revokedBots: async (ids) => new Set((await Promise.all(ids.map((id) => store.getBot(id)))).flatMap((b) => (b?.revokedAt ? [b.id] : []))),
    ticketWithdrawn: (ticket) => quick.withdrawn(ticket),
    abortMatched: async (gameId, playerId) => void unwrap(await rooms.game(gameId).withdraw(playerId)),
    log,
    restEntryTtlS: 90,
  };

  // Colyseus answers CORS for every route before Express; expose the headers clients need to read. Any
  // origin may call the API, never with credentials: callers authenticate with bearer tokens, not cookies,
  // and browsers refuse `Allow-Origin: *` together with `Allow-Credentials: true`, which Colyseus sends by
  // default. A fixed `*` rather than the caller's origin echoed back also keeps responses cacheable.
  guardMatchmaking(
    (roomId) => rooms.openForJoin(roomId),
    (roomId, options) => games.admitsJoin(roomId, (options as { playerToken?: unknown } | undefined)?.playerToken),
  );
  delete (matchMaker.controller.DEFAULT_CORS_HEADERS as Partial<Record<string, string>>)["Access-Control-Allow-Credentials"];
  const cors = () => ({
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Headers": "Origin, X-Requested-With, Content-Type, Accept, Authorization, mcp-session-id, mcp-protocol-version, Last-Event-ID, If-None-Match",
    "Access-Control-Expose-Headers": EXPOSED_HEADERS.join(", "),
  });
  matchMaker.controller.getCorsHeaders = cors;

  const longPolls = new LongPolls(config.limits.longPollsPerAddress);
  const mcp = createMcpRouter({
    games,
    quick,
    players,
    tournaments,
    tournamentJoins,
    leagues,
    bots: botDirectory,
    publicLog,
    events,
    log,
    limits: { scale: config.rateLimitScale, store: infra?.rateLimitStore },
    idleMs: config.limits.mcpIdleMs,
    maxSessions: config.limits.mcpSessions,
    sessionsPerAddress: config.limits.mcpSessionsPerAddress,
    maxBodyBytes: config.limits.maxBodyBytes,
    longPolls,
  });

  const transport = new GuardedTransport({ framesPerSecond: config.limits.framesPerSecond, maxPayload: 16 * 1024, log, baseUrl, trustProxy: config.trustProxy });
  const tracing = startTracing(config.tracing, config.serviceName, opts.spanExporter);
  const traceRequests = config.tracing !== "off" || Boolean(opts.spanExporter);
  const tools = config.operatorTools && config.metricsToken ? operatorTools(config.metricsToken) : null;
  const server = new Server({
    transport,
    logger: colyseusLogger(log, transport.scope),
    presence,
    driver,
    publicAddress: config.publicAddress,
    gracefullyShutdown: false,
    greet: false,
    express: (app) => {
      if (traceRequests) app.use(tracingMiddleware());
      // The address of a request that makes a profile is kept with it (rating integrity).
      app.use(origins.middleware());
      mountApi(app, {
        games,
        quick,
        players,
        bots,
        botStreams,
        revocation: new BotRevocation({ quick, leagues, tournaments, games, log }),
        extraRouters: [streams, eventsRouter({ subscriptions: events.subscriptions }), agentsRouter(challenges), communitiesRouter(communities), tournamentsRouter(tournaments, tournamentJoins), leaguesRouter(leagues), botDirectoryRouter(botDirectory), assetsRouter(assets, baseUrl), logRouter(publicLog, new ExportSlots(config.exports))],
        log,
        baseUrl,
        limits: { scale: config.rateLimitScale, store: infra?.rateLimitStore, keyOf: botBucket(bots) },
        botRegistrations: config.botRegistrations,
        trustProxy: config.trustProxy,
        maxBodyBytes: config.limits.maxBodyBytes,
        longPolls,
        logIndexOf: (gameId) => publicLog.indexOf(gameId),
        health: async () => {
          const storeHealth = await store.health();
          return { ok: storeHealth.ok, processId: matchMaker.processId, store: storeHealth };
        },
      });
      // After mountApi, whose app-wide edges (API-Version) it then carries too.
      app.get("/metrics", metricsHandler(metrics, config.metricsToken));
      if (tools) app.use("/colyseus", tools);
      app.use("/mcp", mcp);
      app.use(docsRouter());
      app.use(webRouter({ playerExists: async (id) => (await store.getPlayer(id)) !== null }));
      finishApp(app, { log, baseUrl });
    },
  });
  const admission = { spectatorsPerGame: config.limits.spectatorsPerGame, spectatorsPerAddress: config.limits.spectatorsPerAddress };
  // The room's own count of its messages uses the transport's frame budget: one number for both.
  server.define(GAME_ROOM, GameRoom, { deps: roomDeps, admission, framesPerSecond: config.limits.framesPerSecond } as never);
  server.define(QUEUE_ROOM, QuickMatchRoom, { deps: queueDeps } as never).filterBy(["ruleset"]);
  server.define("tournament", TournamentRoom, { deps: { read: (id: string) => store.getTournament(id), reconcile: (id: string) => tournaments.reconcile(id), log } } as never).filterBy(["tournamentId"]);

  await server.listen(config.port, config.host);
  const httpServer = (server.transport as unknown as { server: HttpServer }).server;
  gateMatchmaking(httpServer, {
    limits: { scale: config.rateLimitScale, store: infra?.rateLimitStore },
    trustProxy: config.trustProxy,
    log,
    baseUrl,
    maxBodyBytes: config.limits.maxBodyBytes,
    corsHeaders: cors,
  });
  const port = (httpServer.address() as AddressInfo).port;
  const registry: ProcessRegistry = new ProcessRegistry(
    store,
    { id: matchMaker.processId, sharedPresence: Boolean(infra), publicAddress: config.publicAddress },
    timing,
    log,
    async () => {
      for (const room of await ownership.verifyAll()) await relist(room as GameRoom);
    },
    (peers) => failover?.onPeers(peers) ?? Promise.resolve(),
  );
  ownership.setLiveness((id) => registry.isLive(id));
  // Alone on the store (no Redis) there is nobody to take over from: a restart resumes every game.
  const failover: Failover | null = infra ? new Failover({
        store,
        registry,
        dropListings,
        ensure: (id) => rooms.ensure(id),
        releaseDeliveries: async (id) => {
          if ((await store.expireDeliveriesOf(id, new Date().toISOString())) > 0) await events.dispatcher.recover();
        },
        // Tournaments and leagues alike: a result the dead process stored but did not count is counted now.
        reconcile: async () => {
          const failed = (await Promise.allSettled([tournaments.reconcileRunning(), leagues.reconcileRunning()])).find((r) => r.status === "rejected");
          if (failed) throw failed.reason;
        },
        log,
      }) : null;
  await registry.start();
  events.startSweep();
  await events.startRecovery();
  await resumeGames(store, rooms, log);
  gameLog.start();
  // Results whose finish hook a crash cut off are counted now; a slow store must not hold up the start.
  void tournaments.reconcileRunning().catch((err: unknown) => log.warn({ err }, "tournament reconciliation failed"));
  void leagues.reconcileRunning().catch((err: unknown) => log.warn({ err }, "league reconciliation failed"));
  const sweep = new WaitingSweep(store, (id) => rooms.ensure(id), config.waitingGameTtlS, log);
  sweep.start();
  log.info({ port, baseUrl, store: config.mongodbUrl ? "mongodb" : config.database, scaled: Boolean(infra), aiThreads: ai.threads }, "tile arena listening");

  let closing: Promise<void> | undefined;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    config,
    store,
    events,
    games,
    botStreams,
    tournaments,
    leagues,
    log,
    close: () =>
      (closing ??= (async () => {
        await mcp.close();
        sweep.stop();
        tournaments.stop();
        streams.close();
        botStreams.stop();
        subscriptionCache.stop();
        await server.gracefullyShutdown(false);
        // After the rooms closed: peers see this process leave and re-create its unfinished games.
        await registry.stop();
        await gameLog.stop();
        await ai.close();
        await events.close();
        await infra?.close();
        await store.close();
        await tracing.shutdown();
      })()),
  };
}

/** Rooms re-created at once while resuming: their store reads and claims overlap, and claims share fsyncs. */
const RESUME_WIDTH = 16;

/**
 * Re-creates the rooms of the active games, so clocks and house moves go on after a restart, RESUME_WIDTH at
 * a time. Waiting games have no room until someone arrives (GameService.open), so none is made for them; the
 * waiting sweep aborts those whose time ran out meanwhile.
 */
async function resumeGames(store: Store, rooms: RoomAccess, log: Logger): Promise<void> {
  const started = Date.now();
  const active = await store.listGamesWithStatus("active");
  let next = 0;
  const worker = async () => {
    while (next < active.length) {
      const { id } = active[next++];
      await rooms.ensure(id).catch((err) => log.error({ err, gameId: id }, "could not resume game"));
    }
  };
  await Promise.all(Array.from({ length: Math.min(RESUME_WIDTH, active.length) }, worker));
  if (active.length) log.info({ count: active.length, ms: Date.now() - started }, "resumed active games");
}
