/**
 * A league's games played over REST as scripted bots play them, and the command-line checks run as child
 * processes: shared by the tests that play a league on a real server (leagues, the public log, the pages).
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Policy, SeatSync } from "../../clients/typescript/client";
import { bearer, http } from "../support/server";

/** A game of a deal, as GET /api/v1/leagues/{id}/games lists it. */
export interface GameRow {
  gameId: string;
  first: string;
  second: string;
  outcome: string | null;
}

/** A deal of a league, as GET /api/v1/leagues/{id}/games lists it. */
export interface DealRow {
  index: number;
  a: string;
  b: string;
  released: boolean;
  games: GameRow[];
}

/** The first legal move in the list: a weak but legal player. */
export const firstMove: Policy = (v) => v.legalMoves[0];

/** Plays one seat of a game to its end with `policy`, long-polling the seat's view. */
export async function playSeat(base: string, gameId: string, token: string, policy: Policy = firstMove): Promise<void> {
  let since = 0;
  for (let i = 0; i < 400; i++) {
    const s = await http(base, "GET", `/api/v1/games/${gameId}/sync?since=${since}&timeout=5`, undefined, bearer(token));
    // A deal is listed as released by the write that releases it, and its games are created just after that
    // write: a poll of the list can see a game a moment before it exists.
    if (s.status === 404 && since === 0 && i < 20) {
      await new Promise((r) => setTimeout(r, 50));
      continue;
    }
    if (s.status !== 200) throw new Error(`sync ${s.status}: ${s.text}`);
    since = s.json.moveCount;
    if (s.json.status === "finished") return;
    if (!s.json.yourTurn) continue;
    const move = await policy(s.json as SeatSync);
    const m = await http(base, "POST", `/api/v1/games/${gameId}/moves`, { move: move.move }, bearer(token));
    if (m.status !== 200) throw new Error(`move ${m.status}: ${m.text}`);
  }
  throw new Error(`game ${gameId} did not finish`);
}

/** Runs a command-line script of src/cli (as its npm script does: tsx) as a child process, with `args`. */
export async function runCli(script: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const root = join(__dirname, "..", "..");
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ["--import", "tsx", join(root, "src/cli", script), ...args], { cwd: root });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}
