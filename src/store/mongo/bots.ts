/** The bots collection of the MongoDB adapter: a record per bot, found by id or by its key's hash; written durably, like every write (./writes.ts). */
import type { Connection, Model } from "mongoose";
import { Schema } from "mongoose";
import type { BotRecord, BotsPort } from "../port";
import { pageSize } from "../shared";
import { DURABLY, INSERT_DURABLY } from "./writes";

type Doc = Record<string, unknown>;
const NO_ID = { _id: 0 } as const;

export function botsModel(conn: Connection, bufferTimeoutMS: number): Model<Doc> {
  // Like the other models (./models.ts): no declared paths, the record stored as the port defines it.
  const s = new Schema<Doc>({}, { bufferTimeoutMS, strict: false, strictQuery: false, minimize: false, versionKey: false, id: false, autoIndex: false });
  s.index({ id: 1 }, { unique: true });
  s.index({ keyHash: 1 }, { unique: true });
  s.index({ createdAt: -1, id: -1 });
  return conn.model<Doc>("Bot", s, "bots");
}

export class MongoBots implements BotsPort {
  constructor(private readonly model: Model<Doc>) {}

  async init(): Promise<void> {
    await this.model.createIndexes();
  }
  async createBot(b: BotRecord): Promise<void> {
    // A copy: insertMany stamps an _id on the document it is given.
    await this.model.insertMany([{ ...b }], INSERT_DURABLY);
  }
  async getBot(id: string): Promise<BotRecord | null> {
    return (await this.model.findOne({ id }, NO_ID).lean<BotRecord>().exec()) ?? null;
  }
  async findBotByKey(keyHash: string): Promise<BotRecord | null> {
    return (await this.model.findOne({ keyHash }, NO_ID).lean<BotRecord>().exec()) ?? null;
  }
  async listBots(limit: number, offset: number): Promise<BotRecord[]> {
    const n = pageSize(limit);
    if (n === 0) return []; // Mongo reads limit(0) as "no limit"
    return this.model.find({}, NO_ID).sort({ createdAt: -1, id: -1 }).skip(pageSize(offset)).limit(n).lean<BotRecord[]>().exec();
  }
  async updateBot(id: string, patch: Partial<Omit<BotRecord, "id">>): Promise<void> {
    await this.model.updateOne({ id }, { $set: patch }, DURABLY).exec();
  }
}
