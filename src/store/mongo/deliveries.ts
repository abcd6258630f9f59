/** Delivery leases on MongoDB: each claim is one conditional findOneAndUpdate, a single round trip. */
import { randomUUID } from "node:crypto";
import type { Model } from "mongoose";
import type { DeliveryRecord } from "../port";
import type { Doc } from "./models";
import { DURABLY } from "./writes";

/**
 * Leases up to `n` deliveries whose lease ended by `expiredBy`, oldest first. Each is taken by one atomic
 * update whose filter is the lease condition, so a delivery goes to one caller, without reading it first.
 * The call's own token marks what it took: a new lease may still end before `expiredBy`, and the call must
 * not take the same delivery twice. The token is never part of the record returned.
 */
export async function claimDeliveries(deliveries: Model<Doc>, expiredBy: string, leaseUntil: string, n: number, holder?: string): Promise<DeliveryRecord[]> {
  const claim = randomUUID();
  const taken = holder ? { leaseUntil, holder, claim } : { leaseUntil, claim };
  const claimed: DeliveryRecord[] = [];
  while (claimed.length < n) {
    const won = await deliveries
      .findOneAndUpdate(
        { leaseUntil: { $lte: expiredBy }, claim: { $ne: claim } },
        { $set: taken },
        { sort: { createdAt: 1, eventId: 1 }, returnDocument: "after", projection: { _id: 0, claim: 0 }, ...DURABLY },
      )
      .lean<DeliveryRecord>()
      .exec();
    if (!won) break;
    claimed.push(won);
  }
  return claimed;
}
