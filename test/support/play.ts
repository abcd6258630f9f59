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

/**
 * Plays a game's opening over REST until both seats have placed a card, so that a resignation from then on
 * is a rated loss (before it, a resignation aborts the game). `tokens` are the seats played here; a house
 * seat answers by itself.
 */
export async function playOpening(base: string, gameId: string, tokens: readonly string[]): Promise<void> {
  for (let guard = 0; guard < 50; guard++) {
    const views = await Promise.all(tokens.map((t) => http(base, "GET", `/api/v1/games/${gameId}/sync`, undefined, bearer(t))));
    const view = views[0].json;
    if (view.status === "finished" || view.moveCount >= 2) return;
    const mover = views.findIndex((r) => r.json.status === "active" && r.json.yourTurn);
    if (mover < 0) {
      await http(base, "GET", `/api/v1/games/${gameId}/sync?since=${view.moveCount}&timeout=5`, undefined, bearer(tokens[0]));
      continue;
    }
    const m = await http(base, "POST", `/api/v1/games/${gameId}/moves`, pickMove(views[mover].json.state), bearer(tokens[mover]));
    if (m.status !== 200) throw new Error(`move ${m.status}: ${m.text}`);
  }
  throw new Error("the opening was not played");
}

/** A friend game over REST with both seats taken: its id and the seats' tokens by seat. */
export async function seatedFriendGame(base: string): Promise<{ id: string; tokens: Record<string, string> }> {
  const a = await http(base, "POST", "/api/v1/games", { opponent: "friend" });
  if (a.status !== 201) throw new Error(`create ${a.status}: ${a.text}`);
  const b = await http(base, "POST", "/api/v1/games/join", { code: a.json.code });
  if (b.status !== 200) throw new Error(`join ${b.status}: ${b.text}`);
  return { id: a.json.game.id as string, tokens: { [a.json.seat]: a.json.playerToken, [b.json.seat]: b.json.playerToken } };
}

/** Plays the first legal move of the seat to move; the answer of the move request. */
export async function playNext(base: string, id: string, tokens: Record<string, string>) {
  const turn = (await http(base, "GET", `/api/v1/games/${id}`)).json.turn as string;
  const view = (await http(base, "GET", `/api/v1/games/${id}/sync`, undefined, bearer(tokens[turn]))).json;
  return http(base, "POST", `/api/v1/games/${id}/moves`, pickMove(view.state), bearer(tokens[turn]));
}
