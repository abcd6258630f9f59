// What the tournament pages share: the tokens this browser holds for a tournament (the director's, and the
// entrant's, which is also the seat token of every game the tournament pairs the entrant in), the REST
// view, and the standings' columns per format.
import type { TournamentRoomState } from "../../../rooms/tournament-state";
import { loadSeat, saveSeat, api, ApiError } from "./api";
import type { GameRecord } from "./api-types";

/** GET /api/v1/tournaments/{id}. `format` is kept open: a page shows formats it was not written for. */
export interface TournamentView {
  id: string;
  name: string;
  format: string;
  ruleset: string;
  rounds: number;
  round: number;
  status: string;
  createdAt: string;
  entrants: Array<{ playerId: string; name: string; rating: number; withdrawn: boolean }>;
  urls: { self: string; standings: string; games: string; trf: string };
}

export interface StoredTournament {
  /** The director token `POST /tournaments` answered: it starts the tournament. */
  director?: string;
  /** The entrant's token and player id from `POST /tournaments/{id}/join`. */
  entrant?: { token: string; playerId: string };
}

const key = (id: string) => `arena.tournament.${id}`;

export function loadTournament(id: string): StoredTournament {
  try {
    const s = JSON.parse(localStorage.getItem(key(id)) || "null") as StoredTournament | null;
    return s && typeof s === "object" ? s : {};
  } catch {
    return {};
  }
}

export function saveTournament(id: string, patch: StoredTournament): StoredTournament {
  const next = { ...loadTournament(id), ...patch };
  localStorage.setItem(key(id), JSON.stringify(next));
  return next;
}

export const FORMAT_NAMES: Record<string, string> = { swiss: "Swiss", arena: "Arena" };
export const formatName = (f: string): string => FORMAT_NAMES[f] ?? f;
export const STATUS_NAMES: Record<string, string> = { open: "Open for entries", running: "Running", finished: "Finished" };
export const statusName = (s: string): string => STATUS_NAMES[s] ?? s;

/** A standings row as the room sends it, read as plain data (so fields a format adds show up too). */
export type StandingRow = Record<string, unknown> & { rank: number; playerId: string; name: string; withdrawn: boolean };

const LABELS: Record<string, { label: string; title?: string }> = {
  score: { label: "Score" },
  buchholz: { label: "Buchholz", title: "The sum of the opponents' scores" },
  sonnebornBerger: { label: "S-B", title: "Sonneborn-Berger: the scores of the opponents beaten, plus half those of the opponents drawn" },
};

/** "winStreak" -> "Win streak": the label of a column no page was written for. */
const humanize = (k: string): string => {
  const words = k.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/**
 * The score columns of a format: swiss has its tie-breaks in order; any other format shows every numeric
 * field its rows carry besides the rank, in the order they come.
 */
export function scoreColumns(format: string, rows: readonly StandingRow[]): Array<{ key: string; label: string; title?: string }> {
  const keys =
    format === "swiss"
      ? ["score", "buchholz", "sonnebornBerger"]
      : Object.keys(rows[0] ?? { score: 0 }).filter((k) => k !== "rank" && typeof (rows[0] ?? { score: 0 })[k as "rank"] === "number");
  return keys.map((k) => ({ key: k, ...(LABELS[k] ?? { label: humanize(k) }) }));
}

/** A score as people write it: 1½, ½, 2.75. */
export function scoreText(v: unknown): string {
  // A standing's cell is a number, or absent (shown empty); anything else is shown as String shows it.
  // eslint-disable-next-line @typescript-eslint/no-base-to-string
  if (typeof v !== "number") return String(v ?? "");
  const whole = Math.floor(v);
  if (v - whole === 0.5) return whole ? `${whole}½` : "½";
  return String(Math.round(v * 100) / 100);
}

/** The room's state as plain rows, including fields a newer room adds. */
export function plainState(s: TournamentRoomState): {
  standings: StandingRow[];
  pairings: Array<{ first: string; second: string; gameId: string; outcome: string }>;
  format?: string;
} {
  const json = (s as unknown as { toJSON(): Record<string, unknown> }).toJSON();
  return {
    standings: (json.standings as StandingRow[] | undefined) ?? [],
    pairings: (json.pairings as Array<{ first: string; second: string; gameId: string; outcome: string }> | undefined) ?? [],
    format: typeof json.format === "string" ? json.format : undefined,
  };
}

/**
 * Hands the entrant's token to the game page the way every seat is kept (`arena.seat.<gameId>`, see
 * api.ts): the seat letter is the one the game's record gives the entrant's player id. A game is created
 * just after its pairing is stored, so a 404 is retried a few times.
 */
export async function handOverSeat(gameId: string, entrant: { token: string; playerId: string }): Promise<boolean> {
  if (loadSeat(gameId)?.token === entrant.token) return true;
  for (let attempt = 0; attempt < 6; attempt++) {
    try {
      const record = (await api<GameRecord>("GET", `/games/${encodeURIComponent(gameId)}`)).body;
      const seat = (["A", "B"] as const).find((s) => record.players[s]?.id === entrant.playerId);
      if (!seat) return false;
      saveSeat(gameId, { token: entrant.token, seat });
      return true;
    } catch (e) {
      if (!(e instanceof ApiError) || e.code !== "not_found") throw e;
      await new Promise((r) => setTimeout(r, 300 * (attempt + 1)));
    }
  }
  return false;
}
