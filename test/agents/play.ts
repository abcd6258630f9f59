/**
 * Plays a seat of a real game over HTTP to its end, the way a thin game client does: long-poll
 * /games/{id}/sync with the seat's token and post a legal move whenever it is the seat's turn.
 */
import { bearer, http } from "../support/server";

const SQUARES = ["a", "b", "c", "d"].flatMap((f) => [1, 2, 3, 4].map((r) => `${f}${r}`));

/** Plays until the game is finished; returns the final sync body. */
export async function playToEnd(base: string, gameId: string, token: string, deadlineMs = 30_000) {
  const until = Date.now() + deadlineMs;
  let since = 0;
  while (Date.now() < until) {
    const s = await http(base, "GET", `/api/v1/games/${gameId}/sync?since=${since}&timeout=5`, undefined, bearer(token));
    if (s.status !== 200) throw new Error(`sync ${s.status}: ${s.text}`);
    since = s.json.moveCount;
    if (s.json.status === "finished") return s.json;
    if (!s.json.yourTurn) continue;
    const taken = new Set((s.json.state.board as Array<{ square: string }>).map((c) => c.square));
    const square = SQUARES.find((q) => !taken.has(q))!;
    const card = s.json.state.hand[0].id as string;
    const m = await http(base, "POST", `/api/v1/games/${gameId}/moves`, { move: `${card}@${square}` }, bearer(token));
    if (m.status !== 200) throw new Error(`move ${m.status}: ${m.text}`);
  }
  throw new Error(`game ${gameId} did not finish in time`);
}

/** Polls until `check` holds for a GET of `path` (the finish hook runs just after the game is stored). */
export async function waitForJson(base: string, path: string, check: (json: any) => boolean, timeoutMs = 5000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await http(base, "GET", path);
    if (r.status === 200 && check(r.json)) return r.json;
    if (Date.now() > until) throw new Error(`timed out waiting on ${path}: ${r.text}`);
    await new Promise((res) => setTimeout(res, 25));
  }
}
