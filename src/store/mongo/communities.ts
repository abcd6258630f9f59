/**
 * Communities on MongoDB: the community's record in one document, each membership in a document of its own
 * (`community_members`, unique on community and player), so a community of any size stays far below the
 * 16 MiB document cap and a join or a leave writes one small document.
 *
 * Communities stored before (members as an array inside the community's document) are read in both
 * layouts: the array's members first, in their order, then the member documents; a removal clears both.
 */
import type { Model } from "mongoose";
import type { CommunitiesPort, CommunityRecord } from "../port";
import { copy, nowIso } from "../shared";
import type { Doc } from "./models";
import { DURABLY, INSERT_DURABLY, retryingUpsert } from "./writes";

type Stored = Omit<CommunityRecord, "members"> & { members?: string[] };
interface Membership {
  communityId: string;
  playerId: string;
}

const FIELDS = { _id: 0 } as const;
/** Join order: the time of joining, then the insertion order of the member documents. */
const JOIN_ORDER = { joinedAt: 1, _id: 1 } as const;

export class MongoCommunities implements CommunitiesPort {
  constructor(
    private readonly communities: Model<Doc>,
    private readonly members: Model<Doc>,
  ) {}

  async createCommunity(c: CommunityRecord): Promise<void> {
    const { members, ...record } = copy(c);
    // The record first: a second community with the same id fails here, before it could add members to
    // the first. Its members follow in order (their documents' order is the join order).
    await this.communities.insertMany([record], INSERT_DURABLY);
    const joinedAt = nowIso();
    const docs = [...new Set(members)].map((playerId) => ({ communityId: c.id, playerId, joinedAt }));
    if (docs.length > 0) await this.members.insertMany(docs, { ...INSERT_DURABLY, ordered: true });
  }

  async getCommunity(id: string): Promise<CommunityRecord | null> {
    const [c] = await this.find({ id });
    return c ?? null;
  }

  async listCommunities(kind?: CommunityRecord["kind"]): Promise<CommunityRecord[]> {
    return this.find(kind ? { kind } : {});
  }

  /** Oldest first, each with its members in join order. */
  private async find(filter: Doc): Promise<CommunityRecord[]> {
    const stored = await this.communities.find(filter, FIELDS).sort({ createdAt: 1, id: 1 }).lean<Stored[]>().exec();
    if (stored.length === 0) return [];
    const rows = await this.members
      .find({ communityId: { $in: stored.map((c) => c.id) } }, { _id: 0, communityId: 1, playerId: 1 })
      .sort(JOIN_ORDER)
      .lean<Membership[]>()
      .exec();
    return stored.map((c) => {
      const joined = rows.filter((r) => r.communityId === c.id).map((r) => r.playerId);
      return { ...c, members: [...new Set([...(c.members ?? []), ...joined])] };
    });
  }

  /** Idempotent; ignored when the community does not exist. */
  async addMember(id: string, playerId: string): Promise<void> {
    if (!(await this.communities.exists({ id }))) return;
    const stored = await this.communities.exists({ id, members: playerId });
    if (stored) return; // a member of the earlier layout already
    await retryingUpsert(() =>
      this.members.updateOne({ communityId: id, playerId }, { $setOnInsert: { joinedAt: nowIso() } }, { upsert: true, ...DURABLY }).exec(),
    );
  }

  async removeMember(id: string, playerId: string): Promise<void> {
    await this.members.deleteOne({ communityId: id, playerId }, DURABLY).exec();
    await this.communities.updateOne({ id, members: playerId }, { $pull: { members: playerId } }, DURABLY).exec();
  }

  async communitiesOf(playerId: string): Promise<CommunityRecord[]> {
    const rows = await this.members.find({ playerId }, { _id: 0, communityId: 1 }).lean<Membership[]>().exec();
    return this.find({ $or: [{ id: { $in: rows.map((r) => r.communityId) } }, { members: playerId }] });
  }
}
