/**
 * The league collections of the MongoDB adapter: a league's head per document, replaced by compare-and-set on
 * its version; its schedule in a document of its own, written once; a document per counted game in
 * league_results. Written durably (./writes.ts).
 */
import type { Connection, Model } from "mongoose";
import { Schema } from "mongoose";
import type { LeagueDeal, LeagueRecord, LeagueResult, LeaguesPort } from "../port";
import { splitWholeLeague } from "../league-shape";
import { copy, pageSize } from "../shared";
import { DURABLY, INSERT_DURABLY } from "./writes";

type Doc = Record<string, unknown>;
const NO_ID = { _id: 0 } as const;

export interface LeagueModels {
  heads: Model<Doc>;
  schedules: Model<Doc>;
  results: Model<Doc>;
}

export function leagueModels(conn: Connection, bufferTimeoutMS: number): LeagueModels {
  // Like the other models (./models.ts): no declared paths, the record stored as the port defines it.
  const schema = () =>
    new Schema<Doc>({}, { bufferTimeoutMS, strict: false, strictQuery: false, minimize: false, versionKey: false, id: false, autoIndex: false });
  const heads = schema();
  heads.index({ id: 1 }, { unique: true });
  heads.index({ createdAt: -1, id: -1 });
  const schedules = schema();
  schedules.index({ leagueId: 1 }, { unique: true });
  const results = schema();
  results.index({ gameId: 1 }, { unique: true });
  results.index({ leagueId: 1, deal: 1 });
  return {
    heads: conn.model<Doc>("League", heads, "leagues"),
    schedules: conn.model<Doc>("LeagueSchedule", schedules, "league_schedules"),
    results: conn.model<Doc>("LeagueResult", results, "league_results"),
  };
}

const isDuplicateKey = (e: unknown): boolean => (e as { code?: number } | null)?.code === 11000;

export class MongoLeagues implements LeaguesPort {
  constructor(private readonly m: LeagueModels) {}

  /** Creates the indexes, then splits the leagues stored whole (their schedule and results inside the document). */
  async init(): Promise<void> {
    await Promise.all([this.m.heads.createIndexes(), this.m.schedules.createIndexes(), this.m.results.createIndexes()]);
    const whole = await this.m.heads
      .find({ schedule: { $exists: true } }, NO_ID)
      .lean<Doc[]>()
      .exec();
    for (const doc of whole) {
      const { head, schedule, results } = splitWholeLeague(doc);
      if (schedule) await this.putLeagueSchedule(head.id, schedule);
      for (const r of results) await this.addLeagueResult(r);
      // Replaced only if still stored whole: another process may have split it meanwhile.
      await this.m.heads.replaceOne({ id: head.id, schedule: { $exists: true } }, copy(head), DURABLY).exec();
    }
  }
  async createLeague(l: LeagueRecord): Promise<void> {
    // A copy: insertMany stamps an _id on the document it is given.
    await this.m.heads.insertMany([copy(l)], INSERT_DURABLY);
  }
  async getLeague(id: string): Promise<LeagueRecord | null> {
    return (await this.m.heads.findOne({ id }, NO_ID).lean<LeagueRecord>().exec()) ?? null;
  }
  async listLeagues(limit: number): Promise<LeagueRecord[]> {
    const n = pageSize(limit);
    if (n === 0) return [];
    return this.m.heads.find({}, NO_ID).sort({ createdAt: -1, id: -1 }).limit(n).lean<LeagueRecord[]>().exec();
  }
  async replaceLeagueIf(l: LeagueRecord): Promise<boolean> {
    const out = await this.m.heads.replaceOne({ id: l.id, version: l.version - 1 }, copy(l), DURABLY).exec();
    return out.matchedCount === 1;
  }
  async putLeagueSchedule(leagueId: string, schedule: LeagueDeal[]): Promise<LeagueDeal[]> {
    try {
      await this.m.schedules.updateOne({ leagueId }, { $setOnInsert: { leagueId, schedule: copy(schedule) } }, { upsert: true, ...DURABLY }).exec();
    } catch (e) {
      // Two first writes at once: the unique index kept one, which is answered below.
      if (!isDuplicateKey(e)) throw e;
    }
    return (await this.getLeagueSchedule(leagueId))!;
  }
  async getLeagueSchedule(leagueId: string): Promise<LeagueDeal[] | null> {
    const doc = await this.m.schedules.findOne({ leagueId }, NO_ID).lean<{ schedule: LeagueDeal[] }>().exec();
    return doc?.schedule ?? null;
  }
  async addLeagueResult(r: LeagueResult): Promise<boolean> {
    try {
      const out = await this.m.results.updateOne({ gameId: r.gameId }, { $setOnInsert: copy(r) }, { upsert: true, ...DURABLY }).exec();
      return out.upsertedCount === 1;
    } catch (e) {
      if (isDuplicateKey(e)) return false;
      throw e;
    }
  }
  async listLeagueResults(leagueId: string, deals?: readonly number[]): Promise<LeagueResult[]> {
    const filter = deals ? { leagueId, deal: { $in: [...deals] } } : { leagueId };
    return this.m.results.find(filter, NO_ID).lean<LeagueResult[]>().exec();
  }
}
