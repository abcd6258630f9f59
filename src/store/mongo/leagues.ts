/** The leagues collection of the MongoDB adapter: a document per league, replaced by compare-and-set on its version; written durably (./writes.ts). */
import type { Connection, Model } from "mongoose";
import { Schema } from "mongoose";
import type { LeagueRecord } from "../port";
import { copy, pageSize } from "../shared";
import { DURABLY, INSERT_DURABLY } from "./writes";

type Doc = Record<string, unknown>;
const NO_ID = { _id: 0 } as const;

export function leaguesModel(conn: Connection, bufferTimeoutMS: number): Model<Doc> {
  // Like the other models (./models.ts): no declared paths, the record stored as the port defines it.
  const s = new Schema<Doc>({}, { bufferTimeoutMS, strict: false, strictQuery: false, minimize: false, versionKey: false, id: false, autoIndex: false });
  s.index({ id: 1 }, { unique: true });
  s.index({ createdAt: -1, id: -1 });
  return conn.model<Doc>("League", s, "leagues");
}

export class MongoLeagues {
  constructor(private readonly model: Model<Doc>) {}

  async init(): Promise<void> {
    await this.model.createIndexes();
  }
  async create(l: LeagueRecord): Promise<void> {
    // A copy: insertMany stamps an _id on the document it is given.
    await this.model.insertMany([copy(l)], INSERT_DURABLY);
  }
  async get(id: string): Promise<LeagueRecord | null> {
    return (await this.model.findOne({ id }, NO_ID).lean<LeagueRecord>().exec()) ?? null;
  }
  async list(limit: number): Promise<LeagueRecord[]> {
    const n = pageSize(limit);
    if (n === 0) return [];
    return this.model.find({}, NO_ID).sort({ createdAt: -1, id: -1 }).limit(n).lean<LeagueRecord[]>().exec();
  }
  async replaceIf(l: LeagueRecord): Promise<boolean> {
    const out = await this.model.replaceOne({ id: l.id, version: l.version - 1 }, copy(l), DURABLY).exec();
    return out.matchedCount === 1;
  }
}
