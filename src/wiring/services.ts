/**
 * The services, one per bounded context, built over the foundation. Some hold each other (a tournament emits
 * events whose current state the games give); those late references go through `emit`, called only once a
 * game finishes, long after this returns.
 */
import { matchMaker } from "@colyseus/core";
import type { Seat } from "../engine";
import { logKeyFileOf, type Config } from "../shared/config";
import { ChallengeService } from "../services/agents";
import { createAiPool } from "../services/ai/pool";
import { loadAssets } from "../services/assets";
import { BotDirectory, BotService, BotStreamHub } from "../services/bots";
import { CommunityService } from "../services/communities";
import { createEvents, type EmittedEvent, type Events } from "../services/events";
import { QuickMatch } from "../services/games/quick-match";
import { RoomAccess } from "../services/games/room-access";
import { GameCreation } from "../services/games/creation";
import { GamePlay } from "../services/games/play";
import { GameReads } from "../services/games/reads";
import { Rematches } from "../services/games/rematch";
import { SubscriptionCache } from "../services/games/subscription-cache";
import { LeagueService, type LeagueGames } from "../services/leagues";
import { LogSequencer, LogService, openLogKeys } from "../services/log";
import { RequestOrigins } from "../services/players/origin";
import { PlayerService } from "../services/players/service";
import { TournamentService, tournamentChannel } from "../services/tournaments";
import type { Foundation } from "./foundation";
import type { StartOptions } from "./options";

export type Services = Awaited<ReturnType<typeof buildServices>>;

export async function buildServices(config: Config, opts: StartOptions, { store, presence, infra, log, metrics, ownership }: Foundation) {
  const baseUrl = config.publicBaseUrl;
  const emit = (e: EmittedEvent) => events.emit(e);
  // The address of a request that makes a profile is kept with it (rating integrity).
  const origins = new RequestOrigins();
  const players = new PlayerService(store, baseUrl, undefined, undefined, () => origins.current());
  const bots = new BotService(store, players, baseUrl, undefined, () => origins.current());
  const botDirectory = new BotDirectory(store, bots);
  const rooms = new RoomAccess(store.games, log);
  const ai = createAiPool(config.aiThreads, {
    onError: (err, task) => log.error({ err, task }, "AI worker thread failed; ran the task inline"),
    onDone: (task, seconds) => metrics.aiSeconds.observe({ task }, seconds),
  });
  // The games, by what is asked of them: reads, creation (answered as read back) and play. A rematch is stored
  // state its finished game's rooms share (RoomDeps.rematches); accepting one creates its game.
  const gameReads = new GameReads(store, rooms, players, presence, baseUrl, ai);
  const gameCreation = new GameCreation(store.games, rooms, players, gameReads, baseUrl, metrics, ownership);
  const rematches = new Rematches({
    store: store.games,
    createMatched: (ruleset, seats, fixed) => gameCreation.createMatched(ruleset, seats, fixed),
    reserveSeat: (gameId, token) => rooms.reserveSeat(gameId, token),
    presence,
  });
  const gamePlay = new GamePlay(store.games, rooms, rematches, baseUrl);
  // The public game log: every process marks its finished games pending; the lease holder appends them.
  // Its private key is LOG_SIGNING_KEY or the key file, never the store (an older store's is moved out here).
  const logKeys = await openLogKeys(
    store.log,
    { signingKey: config.logSigningKey, keyFile: logKeyFileOf(config), rotate: config.logKeyRotate, origin: config.logOrigin },
    (m) => log.warn(m),
  );
  const gameLog = new LogSequencer(store, logKeys.current, () => matchMaker.processId, { batchMs: config.logBatchMs, leaseMs: config.logLeaseMs }, log);
  // A game's proof is a read of the game: a private one's only for its seats (GameReads.readable).
  const publicLog = new LogService(store.log, logKeys, undefined, (gameId, token) => gameReads.canRead(gameId, token));
  const botStreams = new BotStreamHub(presence, gameReads, log);
  await botStreams.start();
  const seatBot = (botId: string, gameId: string, seat: Seat, playerToken?: string) => botStreams.announce({ kind: "seat", botId, gameId, seat, playerToken });
  const quick = new QuickMatch(presence, rooms, players, gameReads, seatBot);
  const challenges = new ChallengeService({
    store,
    games: gameCreation,
    players,
    emit,
    baseUrl,
    hosting: { games: gameCreation, reads: gameReads, players, seatBot },
  });
  const tournaments = new TournamentService(
    store,
    gameCreation,
    players,
    baseUrl,
    emit,
    (id) => void presence.publish(tournamentChannel(id), 1),
    config.tournamentMaxEntrants,
    config.tournamentTurnSeconds,
  );
  const leagueGames: LeagueGames = {
    createForLeague: (id, league, first, second) => gameCreation.createForLeague(id, league, first, second),
    unseal: (gameIds) => gameReads.unseal(gameIds),
  };
  const leagues = new LeagueService(store, leagueGames, baseUrl, seatBot, emit, (task) => ai.leagueTable(task));
  const communities = new CommunityService(store, players, baseUrl);
  const assets = await loadAssets();
  // A live game's subscriptions are looked up once per room, not once per event (invalidated through presence).
  const subscriptionCache = new SubscriptionCache(store.subscriptions, presence, (gameId) => rooms.localGame(gameId) !== undefined);
  await subscriptionCache.start();
  const events: Events = createEvents({
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
    resolveSeat: (gameId, token) => gameReads.seatOf(gameId, token),
    currentState: async (name, args) => {
      if (name === "challenge.played") return { cursor: null, events: await challenges.eventsNow(String(args.token)) };
      // Tournament and league events are told as they happen; the current state is on their REST reads.
      if (name.startsWith("tournament.") || name.startsWith("league.")) return { cursor: null, events: [] };
      const now = await gameReads.eventsNow(String(args.game_id), name, args);
      const streamed = name === "game.move" || name === "game.turn";
      return { cursor: streamed ? now.moveCount : null, events: now.events.map((e) => ({ data: e.data, sequence: e.sequence })) };
    },
  });
  metrics.deliveries.source = () => events.dispatcher.stats();
  return {
    baseUrl,
    origins,
    players,
    bots,
    botDirectory,
    rooms,
    ai,
    gameReads,
    gameCreation,
    gamePlay,
    rematches,
    gameLog,
    publicLog,
    botStreams,
    quick,
    challenges,
    tournaments,
    leagues,
    communities,
    assets,
    subscriptionCache,
    events,
  };
}
