/** The communities port: clubs and communities with their members (src/services/communities). */

export interface CommunityRecord {
  id: string;
  kind: "club" | "community";
  name: string;
  members: string[];
  createdAt: string;
}

/** Clubs and communities with their members. */
export interface CommunitiesPort {
  createCommunity(c: CommunityRecord): Promise<void>;
  getCommunity(id: string): Promise<CommunityRecord | null>;
  /** Oldest first; members in the order they joined. */
  listCommunities(kind?: CommunityRecord["kind"]): Promise<CommunityRecord[]>;
  /** Idempotent; ignored when the community does not exist. */
  addMember(id: string, playerId: string): Promise<void>;
  removeMember(id: string, playerId: string): Promise<void>;
  communitiesOf(playerId: string): Promise<CommunityRecord[]>;
}
