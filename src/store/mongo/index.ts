/**
 * Store adapter on MongoDB through mongoose. It owns its connection (mongoose.createConnection), so it
 * never touches, nor depends on, mongoose's global default connection.
 *
 * This class holds the connection, its models and their indexes, and composes the collections: each port is
 * a class of its own in its own file, over its collections (a game's document and the players it writes with
 * it, the webhooks' three, ...), exposed as the port's member (store.games, store.players, ...).
 */
import mongoose, { type Connection } from "mongoose";
import type { Store, StoreHealth } from "../port";
import { botsModel, MongoBots } from "./bots";
import { MongoChallenges } from "./challenges";
import { MongoCommunities } from "./communities";
import { MongoGames } from "./games";
import { leagueModels, MongoLeagues } from "./leagues";
import { logModels, MongoLog } from "./log";
import { createModels, type Models } from "./models";
import { MongoPlayers } from "./players";
import { MongoProcesses } from "./processes";
import { MongoRatings, ratingsModel } from "./ratings";
import { MongoSubscriptions } from "./subscriptions";
import { MongoTournaments } from "./tournaments";

export interface MongoStoreOptions {
  url: string;
  /**
   * Bound on server selection, connecting and waiting for a connection (default 5000 ms); a socket read
   * waits four times as long. Without bounds every call hangs 10-30 s during an outage.
   */
  timeoutMs?: number;
  /** Told every change of the connection's state (connected, disconnected, reconnected, error). */
  onState?: (state: string, err?: unknown) => void;
}

export class MongoStore implements Store {
  private readonly conn: Connection;
  private readonly m: Models;
  readonly games: MongoGames;
  readonly players: MongoPlayers;
  readonly ratings: MongoRatings;
  readonly subscriptions: MongoSubscriptions;
  readonly processes: MongoProcesses;
  readonly challenges: MongoChallenges;
  readonly communities: MongoCommunities;
  readonly bots: MongoBots;
  readonly tournaments: MongoTournaments;
  readonly leagues: MongoLeagues;
  readonly log: MongoLog;
  private state = "connecting";

  constructor(options: MongoStoreOptions) {
    const timeoutMs = options.timeoutMs ?? 5000;
    this.conn = mongoose.createConnection(options.url, {
      autoIndex: false,
      serverSelectionTimeoutMS: timeoutMs,
      connectTimeoutMS: timeoutMs,
      socketTimeoutMS: timeoutMs * 4,
      waitQueueTimeoutMS: timeoutMs,
    });
    for (const state of ["connected", "disconnected", "reconnected", "close"] as const) {
      this.conn.on(state, () => {
        this.state = state;
        options.onState?.(state);
      });
    }
    this.conn.on("error", (err: unknown) => {
      this.state = "error";
      options.onState?.("error", err);
    });
    this.m = createModels(this.conn, timeoutMs);
    const m = this.m;
    this.log = new MongoLog(logModels(this.conn, timeoutMs), m.games);
    this.ratings = new MongoRatings(ratingsModel(this.conn, timeoutMs));
    this.players = new MongoPlayers(m.players, this.ratings);
    this.games = new MongoGames(m.games, m.actions, this.players, (gameId) => this.log.addLogPending([gameId]));
    this.subscriptions = new MongoSubscriptions(m.subscriptions, m.deliveries, m.verifiedUrls);
    this.processes = new MongoProcesses(m.processes);
    this.challenges = new MongoChallenges(m.challenges);
    this.communities = new MongoCommunities(m.communities, m.members);
    this.bots = new MongoBots(botsModel(this.conn, timeoutMs));
    this.tournaments = new MongoTournaments(m.tournaments);
    this.leagues = new MongoLeagues(leagueModels(this.conn, timeoutMs));
  }

  async health(): Promise<StoreHealth> {
    try {
      // A ping through the driver: bounded by server selection, so an outage answers within the timeout.
      await this.conn.db!.admin().ping();
      return { ok: true, adapter: "mongodb", state: this.state };
    } catch {
      return { ok: false, adapter: "mongodb", state: this.state };
    }
  }

  async init(): Promise<void> {
    await this.conn.asPromise();
    await Promise.all([
      ...Object.values(this.m).map((model) => model.createIndexes()),
      this.bots.init(),
      this.leagues.init(),
      this.ratings.init(),
      this.log.init(),
    ]);
  }

  async close(): Promise<void> {
    await this.conn.close();
  }

  /** Drops the whole database this store points at; for tests that give every store its own database. */
  async dropDatabase(): Promise<void> {
    await this.conn.asPromise();
    await this.conn.dropDatabase();
  }
}
