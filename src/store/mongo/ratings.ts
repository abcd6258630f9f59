/**
 * The rating history collection of the MongoDB adapter: one document per rated game per player, added right
 * after the profile write that carries it (PlayerRecord.lastRated); written durably (./writes.ts).
 */
import type { Connection, Model } from "mongoose";
import { Schema } from "mongoose";
import type { PlayerRecord, RatingPoint, RatingsPort } from "../port";
import { isDuplicateKey } from "../duplicate";
import { pageSize } from "../shared";
import { DURABLY } from "./writes";

type Doc = Record<string, unknown>;
const FIELDS = { _id: 0, playerId: 1, gameId: 1, at: 1, n: 1, rating: 1, rd: 1, step: 1 } as const;

export function ratingsModel(conn: Connection, bufferTimeoutMS: number): Model<Doc> {
  // Like the other models (./models.ts): no declared paths, the point stored as the port defines it.
  const s = new Schema<Doc>({}, { bufferTimeoutMS, strict: false, strictQuery: false, minimize: false, versionKey: false, id: false, autoIndex: false });
  s.index({ playerId: 1, n: 1 }, { unique: true });
  // A game's points (the public log's entry of a rated game carries them).
  s.index({ playerId: 1, gameId: 1 });
  return conn.model<Doc>("RatingPoint", s, "rating_history");
}

export class MongoRatings implements RatingsPort {
  constructor(private readonly model: Model<Doc>) {}

  async init(): Promise<void> {
    await this.model.createIndexes();
  }
  /** Adds the point a written profile carries; a point already held stays as it is. */
  async addFrom(p: Pick<PlayerRecord, "id" | "lastRated">): Promise<void> {
    if (!p.lastRated) return;
    const point: RatingPoint = { playerId: p.id, ...p.lastRated };
    try {
      await this.model.updateOne({ playerId: p.id, n: point.n }, { $setOnInsert: point }, { ...DURABLY, upsert: true }).exec();
    } catch (e) {
      // Two upserts of the same point at once: one inserts it, the other meets the unique index.
      if (!isDuplicateKey(e)) throw e;
    }
  }
  async ratingHistory(playerId: string, after: number, limit: number): Promise<RatingPoint[]> {
    const n = pageSize(limit);
    if (n === 0) return [];
    return this.model
      .find({ playerId, n: { $gt: Math.max(0, Math.floor(after)) } }, FIELDS)
      .sort({ n: 1 })
      .limit(n)
      .lean<RatingPoint[]>()
      .exec();
  }

  async ratingChanges(gameId: string, playerIds: readonly string[]): Promise<{ after: RatingPoint; before: RatingPoint | null }[]> {
    const afters = await this.model
      .find({ playerId: { $in: [...new Set(playerIds)] }, gameId }, FIELDS)
      .lean<RatingPoint[]>()
      .exec();
    return Promise.all(
      afters.map(async (after) => ({
        after,
        before: await this.model
          .findOne({ playerId: after.playerId, n: { $lt: after.n } }, FIELDS)
          .sort({ n: -1 })
          .lean<RatingPoint>()
          .exec(),
      })),
    );
  }
}
