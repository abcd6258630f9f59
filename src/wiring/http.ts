/**
 * The HTTP side of the wiring: the REST facade's routers, MCP, the docs and pages on the Express app, and
 * the CORS headers Colyseus answers with.
 */
import { matchMaker } from "@colyseus/core";
import type { Application } from "express";
import type { Config } from "../shared/config";
import { tracingMiddleware } from "../shared/tracing";
import { BotRevocation } from "../services/bots";
import { metricsHandler } from "../services/metrics";
import { finishApp, mountApi } from "../edges/api";
import { EXPOSED_HEADERS } from "../edges/api/edges";
import { ExportSlots } from "../edges/api/export-slots";
import { JoinCaps } from "../edges/api/join-caps";
import { LongPolls } from "../edges/api/long-polls";
import { agentsRouter } from "../edges/api/routes/agents";
import { assetsRouter } from "../edges/api/routes/assets";
import { botBucket } from "../edges/api/routes/bots";
import { communitiesRouter } from "../edges/api/routes/communities";
import { eventsRouter } from "../edges/api/routes/events";
import { leaguesRouter } from "../edges/api/routes/leagues";
import { logRouter } from "../edges/api/routes/log";
import { operatorTools } from "../edges/api/routes/operator";
import { streamsRouter } from "../edges/api/routes/streams";
import { tournamentsRouter } from "../edges/api/routes/tournaments";
import { docsRouter } from "../edges/docs";
import { createMcpRouter } from "../edges/mcp";
import { webRouter } from "../edges/web";
import type { Foundation } from "./foundation";
import type { Services } from "./services";

/**
 * Colyseus answers CORS for every route before Express; expose the headers clients need to read. Any origin
 * may call the API, never with credentials: callers authenticate with bearer tokens, not cookies, and
 * browsers refuse `Allow-Origin: *` together with `Allow-Credentials: true`, which Colyseus sends by default.
 * A fixed `*` rather than the caller's origin echoed back also keeps responses cacheable.
 */
export function corsHeaders() {
  return {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Headers":
      "Origin, X-Requested-With, Content-Type, Accept, Authorization, mcp-session-id, mcp-protocol-version, Last-Event-ID, If-None-Match",
    "Access-Control-Expose-Headers": EXPOSED_HEADERS.join(", "),
  };
}

export function useCorsHeaders(): void {
  delete (matchMaker.controller.DEFAULT_CORS_HEADERS as Partial<Record<string, string>>)["Access-Control-Allow-Credentials"];
  matchMaker.controller.getCorsHeaders = corsHeaders;
}

/** The HTTP edges over the services: `mount` puts them on Colyseus's Express app; `close` ends MCP and the streams. */
export function buildHttp(config: Config, { store, infra, log, metrics, presence }: Foundation, s: Services, traceRequests: boolean) {
  const limits = { scale: config.rateLimitScale, store: infra?.rateLimitStore };
  const longPolls = new LongPolls(config.limits.longPollsPerAddress);
  // One set of join counters for REST and MCP (Redis when scaled out).
  const tournamentJoins = new JoinCaps({
    perAddress: config.tournamentJoinsPerAddress,
    perPlayer: config.tournamentJoinsPerPlayer,
    scale: config.rateLimitScale,
    store: infra?.rateLimitStore,
  });
  const streams = streamsRouter(
    { hub: s.botStreams, games: s.gameReads, presence },
    { heartbeatS: config.streamHeartbeatS, perKey: config.streamsPerKey, perAddress: config.streamsPerAddress },
  );
  const mcp = createMcpRouter({
    gameCreation: s.gameCreation,
    gamePlay: s.gamePlay,
    gameReads: s.gameReads,
    quick: s.quick,
    players: s.players,
    tournaments: s.tournaments,
    tournamentJoins,
    leagues: s.leagues,
    bots: s.botDirectory,
    publicLog: s.publicLog,
    events: s.events,
    log,
    limits,
    idleMs: config.limits.mcpIdleMs,
    maxSessions: config.limits.mcpSessions,
    sessionsPerAddress: config.limits.mcpSessionsPerAddress,
    maxBodyBytes: config.limits.maxBodyBytes,
    longPolls,
  });
  const tools = config.operatorTools && config.metricsToken ? operatorTools(config.metricsToken) : null;
  const routers = [
    streams,
    eventsRouter({ subscriptions: s.events.subscriptions }),
    agentsRouter(s.challenges),
    communitiesRouter(s.communities),
    tournamentsRouter(s.tournaments, tournamentJoins),
    leaguesRouter(s.leagues),
    assetsRouter(s.assets, s.baseUrl),
    logRouter(s.publicLog, new ExportSlots(config.exports)),
  ];
  const mount = (app: Application) => {
    if (traceRequests) app.use(tracingMiddleware());
    // The address of a request that makes a profile is kept with it (rating integrity).
    app.use(s.origins.middleware());
    mountApi(app, {
      gameCreation: s.gameCreation,
      gamePlay: s.gamePlay,
      gameReads: s.gameReads,
      quick: s.quick,
      players: s.players,
      bots: s.bots,
      botStreams: s.botStreams,
      revocation: new BotRevocation({ quick: s.quick, leagues: s.leagues, tournaments: s.tournaments, games: s.gameCreation, log }),
      botDirectory: s.botDirectory,
      extraRouters: routers,
      log,
      baseUrl: s.baseUrl,
      limits: { ...limits, keyOf: botBucket(s.bots) },
      botRegistrations: config.botRegistrations,
      trustProxy: config.trustProxy,
      maxBodyBytes: config.limits.maxBodyBytes,
      longPolls,
      logIndexOf: (gameId) => s.publicLog.indexOf(gameId),
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
    app.use(webRouter({ playerExists: async (id) => (await store.players.getPlayer(id)) !== null }));
    finishApp(app, { log, baseUrl: s.baseUrl });
  };
  return {
    mount,
    close: async () => {
      await mcp.close();
      streams.close();
    },
  };
}
