/**
 * The players collection of the MongoDB adapter: a profile per document, ranked by its rating. A profile write
 * that carries a rated game's point adds it to the rating history right after it (./ratings.ts).
 */
import type { Model } from "mongoose";
import type { PlayerExpectation, PlayerRecord, PlayersPort, PlayerUpdate, RankOptions } from "../port";
import { pageSize } from "../shared";
import type { Doc } from "./models";
import type { MongoRatings } from "./ratings";
import { findRecord, insertRecord, NO_ID, patchRecord, patchRecordIf } from "./records";
import { isDuplicateKey } from "./writes";

export class MongoPlayers implements PlayersPort {
  constructor(
    private readonly players: Model<Doc>,
    private readonly ratings: MongoRatings,
  ) {}

  async createPlayer(p: PlayerRecord): Promise<void> {
    await insertRecord(this.players, p);
  }
  async getPlayer(id: string): Promise<PlayerRecord | null> {
    return findRecord<PlayerRecord>(this.players, { id });
  }
  async updatePlayer(id: string, patch: Partial<PlayerRecord>): Promise<void> {
    await patchRecord(this.players, "id", id, patch);
    await this.ratings.addFrom({ id, lastRated: patch.lastRated });
  }
  /** Every conditional profile write, alone or for a game's write (games.ts): the point it carries joins the history. */
  async updatePlayerIf(id: string, expected: PlayerExpectation, patch: Partial<PlayerRecord>): Promise<boolean> {
    const wrote = await patchRecordIf(this.players, "id", id, expected, patch);
    if (wrote) await this.ratings.addFrom({ id, lastRated: patch.lastRated });
    return wrote;
  }
  async updatePlayersIf(updates: readonly PlayerUpdate[]): Promise<boolean[]> {
    // In order, each atomic on its own, as the port asks: no multi-document transaction (that needs a replica set).
    const wrote: boolean[] = [];
    for (const u of updates) wrote.push(await this.updatePlayerIf(u.id, u.expected, u.patch));
    return wrote;
  }
  async rankPlayers(ids: string[] | undefined, limit: number, offset: number, options: RankOptions = {}): Promise<PlayerRecord[]> {
    const n = pageSize(limit);
    if (n === 0) return []; // Mongo reads limit(0) as "no limit"
    // listed: in the filter, so skip and limit count listed profiles only; movedTo null also matches an absent one.
    const filter = { ...(ids === undefined ? {} : { id: { $in: ids } }), ...(options.listed ? { games: { $gt: 0 }, movedTo: null } : {}) };
    return this.players.find(filter, NO_ID).sort({ rating: -1, id: 1 }).skip(pageSize(offset)).limit(n).lean<PlayerRecord[]>().exec();
  }

  /** A new profile for a game's write (GameWrite.guests): false when its id is taken. */
  async insertGuest(p: PlayerRecord): Promise<boolean> {
    try {
      await insertRecord(this.players, p);
      return true;
    } catch (e) {
      if (isDuplicateKey(e)) return false;
      throw e;
    }
  }
}
