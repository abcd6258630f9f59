/**
 * The webhook collections of the MongoDB adapter (SubscriptionsPort): a subscription per document, unique by
 * its key; a delivery not finished yet per document, leased to a process (./deliveries.ts claims them); and
 * when each callback URL was last verified. Written durably (./writes.ts).
 */
import type { Model } from "mongoose";
import type { DeliveryRecord, SubscriptionRecord, SubscriptionsPort } from "../port";
import { copy, matchesArguments, pageSize } from "../shared";
import { claimDeliveries } from "./deliveries";
import type { Doc } from "./models";
import { findRecord, NO_ID, patchRecord } from "./records";
import { DURABLY, retryingUpsert } from "./writes";

export class MongoSubscriptions implements SubscriptionsPort {
  constructor(
    private readonly subscriptions: Model<Doc>,
    private readonly deliveries: Model<Doc>,
    private readonly verifiedUrls: Model<Doc>,
  ) {}

  // ---- subscriptions ----
  async upsertSubscription(s: SubscriptionRecord): Promise<SubscriptionRecord> {
    // Same key = same subscription: it keeps its id and creation time, everything else is replaced.
    const { id, createdAt, key, ...rest } = copy(s);
    // Two upserts of a new key may race; the loser's second run finds the winner's document and updates it.
    return (await retryingUpsert(() =>
      this.subscriptions
        .findOneAndUpdate({ key }, { $set: rest, $setOnInsert: { id, createdAt } }, { upsert: true, returnDocument: "after", projection: NO_ID, ...DURABLY })
        .lean<SubscriptionRecord>()
        .exec(),
    ))!;
  }
  async getSubscriptionByKey(key: string): Promise<SubscriptionRecord | null> {
    return findRecord<SubscriptionRecord>(this.subscriptions, { key });
  }
  async deleteSubscriptionByKey(key: string): Promise<boolean> {
    return (await this.subscriptions.deleteOne({ key }, DURABLY).exec()).deletedCount > 0;
  }
  async deleteSubscription(id: string): Promise<void> {
    await this.subscriptions.deleteOne({ id }, DURABLY).exec();
  }
  async updateSubscription(id: string, patch: Partial<SubscriptionRecord>): Promise<void> {
    await patchRecord(this.subscriptions, "id", id, patch);
  }
  async findSubscriptions(name: string, match: Record<string, unknown>, now: string): Promise<SubscriptionRecord[]> {
    const filter: Doc = { name, expiresAt: { $gt: now } };
    // Scalars on plain keys are pushed down to the index; the exact match below decides in every case.
    for (const [k, v] of Object.entries(match)) {
      if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(k) && (typeof v === "string" || typeof v === "number")) filter[`arguments.${k}`] = v;
    }
    const live = await this.subscriptions.find(filter, NO_ID).sort({ _id: 1 }).lean<SubscriptionRecord[]>().exec();
    return live.filter((s) => matchesArguments(s.arguments, match));
  }
  async findGameSubscriptions(gameId: string): Promise<SubscriptionRecord[]> {
    return this.subscriptions.find({ "arguments.game_id": gameId }, NO_ID).sort({ _id: 1 }).lean<SubscriptionRecord[]>().exec();
  }
  async deleteExpiredSubscriptions(now: string): Promise<number> {
    return (await this.subscriptions.deleteMany({ expiresAt: { $lte: now } }, DURABLY).exec()).deletedCount;
  }

  // ---- deliveries ----
  async saveDeliveries(d: DeliveryRecord[]): Promise<void> {
    if (d.length === 0) return;
    const replace = () =>
      this.deliveries.bulkWrite(
        d.map((row) => ({
          replaceOne: { filter: { eventId: row.eventId }, replacement: copy(row) as unknown as Doc, upsert: true },
        })),
        { ordered: false, ...DURABLY },
      );
    await retryingUpsert(replace);
  }
  async deleteDeliveries(eventIds: string[]): Promise<void> {
    if (eventIds.length === 0) return;
    await this.deliveries.deleteMany({ eventId: { $in: eventIds } }, DURABLY).exec();
  }
  async claimDeliveries(expiredBy: string, leaseUntil: string, limit: number, holder?: string): Promise<DeliveryRecord[]> {
    return claimDeliveries(this.deliveries, expiredBy, leaseUntil, pageSize(limit), holder);
  }
  async expireDeliveriesOf(holder: string, now: string): Promise<number> {
    return (await this.deliveries.updateMany({ holder, leaseUntil: { $gt: now } }, { $set: { leaseUntil: now } }, DURABLY).exec()).modifiedCount;
  }

  // ---- verified callback URLs ----
  async markUrlVerified(url: string, at: string): Promise<void> {
    await retryingUpsert(() => this.verifiedUrls.updateOne({ url }, { $set: { at } }, { upsert: true, ...DURABLY }).exec());
  }
  async urlVerifiedAt(url: string): Promise<string | null> {
    return (await findRecord<{ at: string }>(this.verifiedUrls, { url }))?.at ?? null;
  }
}
