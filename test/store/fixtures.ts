/**
 * Record builders for the store contract. Timestamps are fixed and in the past so that a bumped
 * updatedAt is always observably newer.
 */
import type { ChallengeRecord, CommunityRecord, GameRecord, PlayerRecord, SubscriptionRecord } from "../../src/store";

export const T0 = "2024-01-01T00:00:00.000Z";
/** The n-th minute after T0, for records that need a distinct creation order. */
export const at = (minute: number): string => new Date(Date.parse(T0) + minute * 60_000).toISOString();

export function game(id: string, over: Partial<GameRecord> = {}): GameRecord {
  return {
    id,
    ruleset: "classic",
    opponent: "friend",
    public: true,
    turnSeconds: 60,
    seed: 12345,
    salt: "salt",
    commitment: "c0ffee",
    status: "waiting",
    seats: { A: { playerId: "P1", name: "Ada", kind: "human", tokenHash: "aa", champion: "knight" } },
    moveCount: 0,
    score: { A: 5, B: 5 },
    winner: null,
    createdAt: T0,
    updatedAt: T0,
    ...over,
  };
}

export function player(id: string, rating: number, over: Partial<PlayerRecord> = {}): PlayerRecord {
  return {
    id,
    name: `name-${id}`,
    secretHash: "ff",
    rating,
    rd: 350,
    volatility: 0.06,
    games: 0,
    wins: 0,
    losses: 0,
    draws: 0,
    recentForm: "",
    champions: {},
    createdAt: T0,
    updatedAt: T0,
    ...over,
  };
}

export function subscription(id: string, key: string, over: Partial<SubscriptionRecord> = {}): SubscriptionRecord {
  return {
    id,
    name: "game.move",
    key,
    arguments: { game_id: "G1" },
    url: "https://agent.example/hook",
    secret: "whsec_x",
    expiresAt: "2030-01-01T00:00:00.000Z",
    failures: 0,
    cursor: null,
    createdAt: T0,
    updatedAt: T0,
    ...over,
  };
}

export function challenge(token: string, agent: string, over: Partial<ChallengeRecord> = {}): ChallengeRecord {
  return {
    token,
    agent: { name: agent, url: "https://agent.example" },
    level: "normal",
    ruleset: "classic",
    status: "open",
    expiresAt: "2030-01-01T00:00:00.000Z",
    createdAt: T0,
    updatedAt: T0,
    ...over,
  };
}

export function community(id: string, members: string[], over: Partial<CommunityRecord> = {}): CommunityRecord {
  return { id, kind: "club", name: `club-${id}`, members, createdAt: T0, ...over };
}
