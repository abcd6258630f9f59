/** The challenges collection of the MongoDB adapter: an agent challenge per document, listed by its agent's name. */
import type { Model } from "mongoose";
import type { ChallengeExpectation, ChallengeRecord, ChallengesPort } from "../port";
import { pageSize } from "../shared";
import type { Doc } from "./models";
import { findRecord, insertRecord, NO_ID, patchRecord, patchRecordIf } from "./records";

export class MongoChallenges implements ChallengesPort {
  constructor(private readonly challenges: Model<Doc>) {}

  async createChallenge(c: ChallengeRecord): Promise<void> {
    await insertRecord(this.challenges, c);
  }
  async getChallenge(token: string): Promise<ChallengeRecord | null> {
    return findRecord<ChallengeRecord>(this.challenges, { token });
  }
  async updateChallenge(token: string, patch: Partial<ChallengeRecord>): Promise<void> {
    await patchRecord(this.challenges, "token", token, patch);
  }
  async updateChallengeIf(token: string, expected: ChallengeExpectation, patch: Partial<ChallengeRecord>): Promise<boolean> {
    return patchRecordIf(this.challenges, "token", token, expected, patch);
  }
  async listChallenges(agentName: string, limit: number): Promise<ChallengeRecord[]> {
    const n = pageSize(limit);
    if (n === 0) return [];
    return this.challenges.find({ "agent.name": agentName }, NO_ID).sort({ createdAt: -1, token: -1 }).limit(n).lean<ChallengeRecord[]>().exec();
  }
}
