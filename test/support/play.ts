/** Helpers for clients that play through the public interface only. */
import { bearer, http } from "./server";

export const SQUARES = ["a1", "b1", "c1", "d1", "a2", "b2", "c2", "d2", "a3", "b3", "c3", "d3", "a4", "b4", "c4", "d4"];

/** A legal placement from a seat's view: a card from its hand onto the first empty square. */
export function pickMove(state: { hand: Array<{ id: string }>; board: Array<{ square: string }> }, k = 0) {
  const taken = new Set(state.board.map((c) => c.square));
  const empty = SQUARES.filter((s) => !taken.has(s));
  return { card: state.hand[k % state.hand.length].id, square: empty[k % empty.length] };
}

/**
 * Plays a seat to the end using only sync (long-poll) and moves, as a REST agent would.
 * `observe` sees every sync body the agent received.
 */
export async function playRest(base: string, gameId: string, token: string, observe: (body: any) => void = () => undefined) {
  let since = 0;
  for (let guard = 0; guard < 200; guard++) {
    const r = await http(base, "GET", `/api/v1/games/${gameId}/sync?since=${since}&timeout=10`, undefined, bearer(token));
    if (r.status !== 200) throw new Error(`sync ${r.status}: ${r.text}`);
    observe(r.json);
    since = r.json.moveCount;
    if (r.json.status === "finished") return r.json;
    if (r.json.status !== "active" || !r.json.yourTurn) continue;
    const m = await http(base, "POST", `/api/v1/games/${gameId}/moves`, pickMove(r.json.state), bearer(token));
    if (m.status !== 200) throw new Error(`move ${m.status}: ${m.text}`);
  }
  throw new Error("game did not finish");
}
