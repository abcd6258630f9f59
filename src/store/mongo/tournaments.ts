/** The tournaments collection of the MongoDB adapter: a tournament per document, replaced by compare-and-set on its version. */
import type { Model } from "mongoose";
import type { TournamentRecord, TournamentsPort } from "../port";
import { copy, pageSize } from "../shared";
import type { Doc } from "./models";
import { NO_ID } from "./records";
import { DURABLY, INSERT_DURABLY } from "./writes";

export class MongoTournaments implements TournamentsPort {
  constructor(private readonly tournaments: Model<Doc>) {}

  async createTournament(t: TournamentRecord): Promise<void> {
    await this.tournaments.insertMany([copy(t)], INSERT_DURABLY);
  }
  async getTournament(id: string): Promise<TournamentRecord | null> {
    return this.tournaments.findOne({ id }, NO_ID).lean<TournamentRecord>().exec();
  }
  async listTournaments(limit: number): Promise<TournamentRecord[]> {
    const n = pageSize(limit);
    if (n === 0) return [];
    return this.tournaments.find({}, NO_ID).sort({ createdAt: -1, id: -1 }).limit(n).lean<TournamentRecord[]>().exec();
  }
  async replaceTournamentIf(t: TournamentRecord): Promise<boolean> {
    const out = await this.tournaments.replaceOne({ id: t.id, version: t.version - 1 }, copy(t), DURABLY).exec();
    return out.matchedCount === 1;
  }
}
