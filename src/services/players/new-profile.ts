/**
 * A profile as it is first stored, whoever makes it (a guest's seat, a registered bot): unrated, no games,
 * the address it was made from when known (integrity.ts reads it).
 */
import type { PlayerRecord } from "../../store/port";
import { DEFAULT_RATING } from "./rating";

export function newProfile(
  fields: Pick<PlayerRecord, "id" | "name" | "secretHash"> & Partial<Pick<PlayerRecord, "kind" | "isAccount">>,
  at: string,
  createdFrom: string | undefined,
): PlayerRecord {
  return {
    ...fields,
    rating: DEFAULT_RATING.rating,
    rd: DEFAULT_RATING.rd,
    volatility: DEFAULT_RATING.volatility,
    games: 0,
    wins: 0,
    losses: 0,
    draws: 0,
    recentForm: "",
    champions: {},
    ...(createdFrom ? { createdFrom } : {}),
    createdAt: at,
    updatedAt: at,
  };
}
