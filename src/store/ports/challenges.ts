/** The challenges port: agent challenges (src/services/agents). */
import type { DecidedBy, Level, Ruleset, Seat, Winner } from "../../engine/types";

export interface ChallengeRecord {
  token: string;
  agent: { name: string; url?: string };
  level: Exclude<Level, "random">;
  ruleset: Ruleset;
  status: "open" | "playing" | "played" | "expired";
  expiresAt: string;
  gameId?: string;
  humanPlayerId?: string;
  /** The agent's own bot that plays the human (src/services/bots), instead of the house at `level`. */
  botId?: string;
  result?: { winner: Winner; score: Record<Seat, number>; humanSeat: Seat; decidedBy?: DecidedBy };
  reportedAt?: string;
  createdAt: string;
  updatedAt: string;
}

/** The scalar members a conditional challenge update can check. */
export type ChallengeExpectation = Partial<Pick<ChallengeRecord, "status" | "gameId" | "reportedAt">>;

/** Agent challenges. */
export interface ChallengesPort {
  createChallenge(c: ChallengeRecord): Promise<void>;
  getChallenge(token: string): Promise<ChallengeRecord | null>;
  updateChallenge(token: string, patch: Partial<ChallengeRecord>): Promise<void>;
  /**
   * Like updateChallenge, but only when every member of `expected` equals the stored one (undefined: the
   * member is absent). Check and write are atomic, across processes too; resolves with whether it wrote.
   */
  updateChallengeIf(token: string, expected: ChallengeExpectation, patch: Partial<ChallengeRecord>): Promise<boolean>;
  /** Newest first. */
  listChallenges(agentName: string, limit: number): Promise<ChallengeRecord[]>;
}
