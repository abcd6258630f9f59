/**
 * The composition root: builds every dependency from one Config and wires them together. Nothing else
 * constructs services; tests call `startServer(testConfig(...))` to get a real server on a free port.
 */
import { WebSocket as WsWebSocket } from "ws";
// Colyseus 0.18's reconnection path expects a global WebSocket (Node 22 has one; Node 20 does not).
(globalThis as { WebSocket?: unknown }).WebSocket ??= WsWebSocket;

import { Server } from "@colyseus/core";
import type { Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Config } from "./shared/config";
import type { Logger } from "./shared/logger";
import { startTracing } from "./shared/tracing";
import type { BotStreamHub } from "./services/bots";
import type { Events } from "./services/events";
import { guardMatchmaking } from "./services/games/matchmaking-guard";
import type { GameCreation } from "./services/games/creation";
import type { LeagueService } from "./services/leagues";
import type { TournamentService } from "./services/tournaments";
import type { Store } from "./store";
import { gateMatchmaking } from "./edges/api/matchmake-gate";
import { colyseusLogger, GuardedTransport } from "./edges/transport";
import { startBackground } from "./wiring/background";
import { openFoundation } from "./wiring/foundation";
import { quietPm2Agent } from "./wiring/pm2-agent";
import { buildHttp, corsHeaders, useCorsHeaders } from "./wiring/http";
import type { StartOptions } from "./wiring/options";
import { defineRooms } from "./wiring/rooms";
import { buildServices } from "./wiring/services";

export type { StartOptions } from "./wiring/options";

export interface RunningServer {
  port: number;
  url: string;
  config: Config;
  store: Store;
  events: Events;
  /** Creates games (tests create a rematch's, a league's, or build a tournament over it). */
  gameCreation: GameCreation;
  /** The bot event hub (its size shows what idle streams hold). */
  botStreams: BotStreamHub;
  tournaments: TournamentService;
  leagues: LeagueService;
  log: Logger;
  /** Graceful stop: rooms closed, in-flight requests finished, deliveries drained, store closed. */
  close(): Promise<void>;
}

/**
 * Starts the server: the foundation (logger, metrics, store, Redis), the services over it, the HTTP edges and
 * the rooms on one Colyseus server, then what runs beside the requests. Each part is built in src/wiring/.
 */
export async function startServer(config: Config, opts: StartOptions = {}): Promise<RunningServer> {
  const foundation = await openFoundation(config, opts);
  const { log, store, infra } = foundation;
  quietPm2Agent(log); // before the matchmaker starts (new Server below), which loads PM2's agent
  const services = await buildServices(config, opts, foundation);
  const { gameReads, rooms, events, tournaments, leagues, botStreams, subscriptionCache, ai } = services;

  guardMatchmaking(
    (roomId) => rooms.openForJoin(roomId),
    (roomId, options) => gameReads.admitsJoin(roomId, (options as { playerToken?: unknown } | undefined)?.playerToken),
  );
  useCorsHeaders();
  const tracing = startTracing(config.tracing, config.serviceName, opts.spanExporter);
  const http = buildHttp(config, foundation, services, config.tracing !== "off" || Boolean(opts.spanExporter));
  const transport = new GuardedTransport({
    framesPerSecond: config.limits.framesPerSecond,
    maxPayload: 16 * 1024,
    log,
    baseUrl: services.baseUrl,
    trustProxy: config.trustProxy,
  });
  const server = new Server({
    transport,
    logger: colyseusLogger(log, transport.scope),
    presence: foundation.presence,
    driver: foundation.driver,
    publicAddress: config.publicAddress,
    gracefullyShutdown: false,
    greet: false,
    express: http.mount,
  });
  defineRooms(server, config, opts, foundation, services);

  await server.listen(config.port, config.host);
  const httpServer = (server.transport as unknown as { server: HttpServer }).server;
  gateMatchmaking(httpServer, {
    limits: { scale: config.rateLimitScale, store: infra?.rateLimitStore },
    trustProxy: config.trustProxy,
    log,
    baseUrl: services.baseUrl,
    maxBodyBytes: config.limits.maxBodyBytes,
    corsHeaders,
  });
  const port = (httpServer.address() as AddressInfo).port;
  const background = await startBackground(config, foundation, services);
  log.info(
    { port, baseUrl: services.baseUrl, store: config.mongodbUrl ? "mongodb" : config.database, scaled: Boolean(infra), aiThreads: ai.threads },
    "tile arena listening",
  );

  let closing: Promise<void> | undefined;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    config,
    store,
    events,
    gameCreation: services.gameCreation,
    botStreams,
    tournaments,
    leagues,
    log,
    close: () =>
      (closing ??= (async () => {
        await http.close();
        background.quiet();
        botStreams.stop();
        subscriptionCache.stop();
        await server.gracefullyShutdown(false);
        await background.stop();
        await ai.close();
        await events.close();
        await infra?.close();
        await store.close();
        await tracing.shutdown();
      })()),
  };
}
