/**
 * Community leaderboards (clubs and chat-server communities): read-only over the API, ranked by rating.
 * Membership is managed by operators through the CLI (scripts/communities.ts) with the same store.
 */
import { randomBytes } from "node:crypto";
import { AppError } from "../../shared/errors";
import { HOUSE_RATING, rankOf } from "../players/rating";
import type { PlayerService } from "../players/service";
import type { CommunitiesPort, CommunityRecord, PlayerRecord, PlayersPort } from "../../store/port";
import { nameSchema, parse } from "../../shared/validation";

export type CommunityKind = CommunityRecord["kind"];
export interface Page {
  limit: number;
  offset: number;
}

const CommunityName = nameSchema(80);

/** How many leaders a listing shows per community. */
const LEADERS_IN_LIST = 3;

export const newCommunityId = (kind: CommunityKind): string => `${kind === "club" ? "club" : "cm"}_${randomBytes(12).toString("base64url")}`;

export class CommunityService {
  constructor(
    private readonly store: { communities: CommunitiesPort; players: Pick<PlayersPort, "rankPlayers" | "getPlayer"> },
    private readonly players: Pick<PlayerService, "publicPlayer">,
    private readonly baseUrl: string,
  ) {}

  /** Communities of a kind, oldest first, each with its member count and current leaders. */
  async list(kind: CommunityKind, page: Page) {
    const all = await this.store.communities.listCommunities(kind);
    const slice = all.slice(page.offset, page.offset + page.limit);
    const items = await Promise.all(slice.map(async (c) => ({ ...this.summary(c), leaders: await this.standings(c, { limit: LEADERS_IN_LIST, offset: 0 }) })));
    const head = { kind, total: all.length, limit: page.limit, offset: page.offset };
    // Spelled out per kind (as plural() names them) so the answer's type names its list: ClubList or CommunityList.
    return kind === "club" ? { ...head, clubs: items } : { ...head, communities: items };
  }

  /** One community's leaderboard: members ranked by rating, with games played and recent form. */
  async leaderboard(kind: CommunityKind, id: string, page: Page) {
    const c = await this.store.communities.getCommunity(id);
    if (!c || c.kind !== kind) throw new AppError("not_found", `no ${kind} with id ${id}`);
    return { ...this.summary(c), total: c.members.length, limit: page.limit, offset: page.offset, standings: await this.standings(c, page) };
  }

  /**
   * Every player ranked by rating, apart from the house: the standings are the profiles with at least one
   * rated game (a guest that moved to an account is listed once, as the account), each with its kind (person,
   * or bot for a bot account); `bots` are the house opponent's levels at their fixed ratings. The store filters
   * the unlisted profiles out before it pages, so a page is full while more players follow and `offset` counts
   * listed players: places run on from one page to the next.
   */
  async playerLeaderboard(page: Page) {
    const people = await this.store.players.rankPlayers(undefined, page.limit, page.offset, { listed: true });
    return {
      limit: page.limit,
      offset: page.offset,
      standings: people.map((p, i) => this.standing(p, page.offset + i + 1)),
      bots: (Object.entries(HOUSE_RATING) as Array<[keyof typeof HOUSE_RATING, number]>).map(([level, rating]) => ({
        kind: "bot" as const,
        name: `House (${level})`,
        level,
        rating,
        rank: rankOf(rating),
        provisional: false as const,
      })),
    };
  }

  private summary(c: CommunityRecord) {
    return { id: c.id, kind: c.kind, name: c.name, members: c.members.length, createdAt: c.createdAt, url: `${this.baseUrl}/api/v1/${plural(c.kind)}/${c.id}` };
  }

  private async standings(c: CommunityRecord, page: Page) {
    const ranked = await this.store.players.rankPlayers(c.members, page.limit, page.offset);
    return ranked.map((p, i) => this.standing(p, page.offset + i + 1));
  }

  private standing(p: PlayerRecord, place: number) {
    const pub = this.players.publicPlayer(p);
    return {
      place,
      // The profile's own kind: a bot account is ranked with people, and marked as a bot.
      kind: p.kind === "bot" ? ("bot" as const) : ("person" as const),
      player: { id: pub.id, name: pub.name, url: pub.url },
      rating: pub.rating,
      rank: pub.rank,
      provisional: pub.provisional,
      games: p.games,
      wins: p.wins,
      losses: p.losses,
      draws: p.draws,
      recentForm: p.recentForm,
    };
  }
}

export const plural = (kind: CommunityKind): "clubs" | "communities" => (kind === "club" ? "clubs" : "communities");

/** Operator commands behind the CLI; kept here so the CLI stays a thin argument parser. */
export class CommunityAdmin {
  constructor(
    private readonly store: { communities: CommunitiesPort; players: Pick<PlayersPort, "rankPlayers" | "getPlayer"> },
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Refuses a name as every name is refused (bad_request): empty, over 80 characters, or holding control characters. */
  async create(kind: CommunityKind, name: string): Promise<CommunityRecord> {
    const c: CommunityRecord = { id: newCommunityId(kind), kind, name: parse(CommunityName, name, "name"), members: [], createdAt: this.now().toISOString() };
    await this.store.communities.createCommunity(c);
    return c;
  }

  /** Adds a player by friend code; a guest that moved to an account is added as the account. */
  async add(id: string, friendCode: string): Promise<string> {
    await this.community(id);
    const p = await this.store.players.getPlayer(friendCode);
    if (!p) throw new AppError("not_found", `no player with id ${friendCode}`);
    const member = p.movedTo ?? p.id;
    await this.store.communities.addMember(id, member);
    return member;
  }

  async remove(id: string, friendCode: string): Promise<void> {
    await this.community(id);
    await this.store.communities.removeMember(id, friendCode);
  }

  list(kind?: CommunityKind): Promise<CommunityRecord[]> {
    return this.store.communities.listCommunities(kind);
  }

  private async community(id: string): Promise<CommunityRecord> {
    const c = await this.store.communities.getCommunity(id);
    if (!c) throw new AppError("not_found", `no club or community with id ${id}`);
    return c;
  }
}
