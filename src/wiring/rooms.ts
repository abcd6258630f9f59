/**
 * The rooms' side of the wiring: what a game room and a quick-match room are given (their deps, built from the
 * services), and the three room kinds defined on the Colyseus server.
 */
import type { Server } from "@colyseus/core";
import type { Config } from "../shared/config";
import { unwrap } from "../shared/errors";
import { AfterTurn } from "../services/games/actor/after-turn";
import type { QueueDeps } from "../services/games/actor/queue-actor";
import { changeChannel, type RoomDeps } from "../services/games/ports";
import { GAME_ROOM, QUEUE_ROOM } from "../services/games/room-access";
import { GroupCommit } from "../store/group-commit";
import { GameRoom } from "../../rooms/game-room";
import { QuickMatchRoom } from "../../rooms/quick-match-room";
import { TournamentRoom } from "../../rooms/tournament-room";
import type { Foundation } from "./foundation";
import type { StartOptions } from "./options";
import type { Services } from "./services";

function gameRoomDeps(config: Config, opts: StartOptions, f: Foundation, s: Services): RoomDeps {
  const { store, log, metrics, presence, ownership } = f;
  const { challenges, tournaments, leagues, subscriptionCache, ai } = s;
  // SQLite's writer thread groups the game writes itself, a batch closing when the previous one's fsync ends
  // (store/sqlite/writer.ts): a window before it would only delay them.
  const commits = new GroupCommit(store.games, { windowMs: config.mongodbUrl ? config.commitWindowMs : 0 });
  return {
    store: store.games,
    // A game's finish write also marks it for the public log, in the store's own commit (store/port.ts, commitGames).
    commit: (write) => commits.submit(write),
    released: (gameId) => subscriptionCache.forget(gameId),
    fence: ownership,
    events: s.events,
    listens: (gameId, name) => subscriptionCache.listens(gameId, name),
    players: s.players,
    decide: (view, level) => ai.decide(view, level),
    publishChange: (gameId, change) => void presence.publish(changeChannel(gameId), change),
    onFinished: async (record) => {
      // Independent hooks: a failing challenge settlement must not keep a tournament from counting the game.
      const failed = (await Promise.allSettled([challenges.onGameFinished(record), tournaments.onGameFinished(record), leagues.onGameFinished(record)])).find(
        (r) => r.status === "rejected",
      );
      if (failed) throw failed.reason;
    },
    rematches: s.rematches,
    log,
    metrics,
    baseUrl: s.baseUrl,
    houseDelayMs: config.houseDelayMs,
    afterTurn: new AfterTurn(),
    waitingGameTtlS: config.waitingGameTtlS,
    waitingRoomIdleMs: config.waitingRoomIdleMs,
    finishedGraceMs: opts.finishedGraceMs ?? 30_000,
    reconnectSeconds: 60,
  };
}

function queueDeps({ store, log }: Foundation, { players, gameCreation, rooms, quick }: Services): QueueDeps {
  return {
    players,
    createMatched: (ruleset, seats) => gameCreation.createMatched(ruleset, seats),
    reserveSeat: (gameId, token) => rooms.reserveSeat(gameId, token),
    ticketMatched: (ticket, match) => quick.matched(ticket, match),
    revokedBots: async (ids) => new Set((await Promise.all(ids.map((id) => store.bots.getBot(id)))).flatMap((b) => (b?.revokedAt ? [b.id] : []))),
    ticketWithdrawn: (ticket) => quick.withdrawn(ticket),
    abortMatched: async (gameId, playerId) => void unwrap(await rooms.game(gameId).withdraw(playerId)),
    log,
    restEntryTtlS: 90,
  };
}

/** The game, quick-match and tournament rooms, defined on the server. */
export function defineRooms(server: Server, config: Config, opts: StartOptions, f: Foundation, s: Services): void {
  const admission = { spectatorsPerGame: config.limits.spectatorsPerGame, spectatorsPerAddress: config.limits.spectatorsPerAddress };
  // The room's own count of its messages uses the transport's frame budget: one number for both.
  server.define(GAME_ROOM, GameRoom, { deps: gameRoomDeps(config, opts, f, s), admission, framesPerSecond: config.limits.framesPerSecond } as never);
  server.define(QUEUE_ROOM, QuickMatchRoom, { deps: queueDeps(f, s) } as never).filterBy(["ruleset"]);
  const tournamentDeps = { read: (id: string) => f.store.tournaments.getTournament(id), reconcile: (id: string) => s.tournaments.reconcile(id), log: f.log };
  server.define("tournament", TournamentRoom, { deps: tournamentDeps } as never).filterBy(["tournamentId"]);
}
