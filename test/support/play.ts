/** Helpers for clients that play through the public interface only. */
import { strict as assert } from "node:assert";
import { spawnServer } from "./process";
import { bearer, http } from "./server";
import { joinWs, type WsPlayer } from "./ws";

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

/** Values by seat, A and B, which a seat read from an answer (a string) indexes too. */
type Seats<T> = Record<"A" | "B", T> & Record<string, T>;

/** A friend game with both seats taken over REST. */
export interface FriendGame {
  id: string;
  /** The seats' player tokens, by seat (also under a seat name read from an answer, typed as a string). */
  tokens: Seats<string>;
  /** The seats' player ids, by seat. */
  players: Seats<string>;
  /** The create answer's body (the inviting seat's), and the join answer's (the invited seat's). */
  created: any;
  joined: any;
}

/**
 * A friend game over REST with both seats taken: `create` is merged into the create request (`{ opponent:
 * "friend" }`), `join` into the join request (`{ code }`), which goes to `joinBase` (another process) when given.
 * Throws unless the create answers 201 and the join 200.
 */
export async function seatedFriendGame(
  base: string,
  options: { create?: Record<string, unknown>; join?: Record<string, unknown>; joinBase?: string } = {},
): Promise<FriendGame> {
  const a = await http(base, "POST", "/api/v1/games", { opponent: "friend", ...options.create });
  if (a.status !== 201) throw new Error(`create ${a.status}: ${a.text}`);
  const b = await http(options.joinBase ?? base, "POST", "/api/v1/games/join", { code: a.json.code, ...options.join });
  if (b.status !== 200) throw new Error(`join ${b.status}: ${b.text}`);
  const bySeat = <T>(x: T, y: T) => ({ [a.json.seat]: x, [b.json.seat]: y }) as Seats<T>;
  return {
    id: a.json.game.id as string,
    tokens: bySeat<string>(a.json.playerToken, b.json.playerToken),
    players: bySeat<string>(a.json.player.id, b.json.player.id),
    created: a.json,
    joined: b.json,
  };
}

/** Both seats of a game connected over WebSocket through the SDK, A first. */
export async function connectSeats(base: string, game: Pick<FriendGame, "id" | "tokens">): Promise<Record<"A" | "B", WsPlayer>> {
  const A = await joinWs(base, game.id, game.tokens.A);
  const B = await joinWs(base, game.id, game.tokens.B);
  return { A, B };
}

/** Plays the first legal move of the seat to move; the answer of the move request. */
export async function playNext(base: string, id: string, tokens: Record<string, string>) {
  const turn = (await http(base, "GET", `/api/v1/games/${id}`)).json.turn as string;
  const view = (await http(base, "GET", `/api/v1/games/${id}/sync`, undefined, bearer(tokens[turn]))).json;
  return http(base, "POST", `/api/v1/games/${id}/moves`, pickMove(view.state), bearer(tokens[turn]));
}

/**
 * Plays `games` at once over REST, each seat to move in turn, until `stop` or until a game has its 16 moves;
 * a request that fails (the server died) ends that game's player. `acked` holds, by game, the notation of every
 * move answered 200, in order; `inFlight` counts the move requests sent and not yet answered.
 */
export function playConcurrently(base: string, games: ReadonlyArray<Pick<FriendGame, "id" | "tokens">>) {
  const acked = new Map<string, string[]>(games.map((g) => [g.id, []]));
  let total = 0;
  let inFlight = 0;
  let stopped = false;
  const players = games.map(async (g) => {
    while (!stopped && acked.get(g.id)!.length < 16) {
      try {
        inFlight++;
        const r = await playNext(base, g.id, g.tokens).finally(() => inFlight--);
        if (r.status === 200) {
          acked.get(g.id)!.push(r.json.move.notation as string);
          total++;
        }
      } catch {
        return; // the connection died with the process
      }
    }
  });
  return {
    acked,
    /** Resolves once `n` moves of all the games together have been answered 200. */
    acknowledged: async (n: number) => {
      while (total < n) await new Promise((r) => setTimeout(r, 5));
    },
    inFlight: () => inFlight,
    /** Stops every game's player at once, after its request under way; resolves when all have stopped. */
    stop: () => {
      stopped = true;
      return Promise.all(players).then(() => undefined);
    },
  };
}

/**
 * After a server process was killed amid the moves of `acked`'s games: starts it again on the same
 * environment (its database) and port, and checks that every move answered 200 before the kill is stored, in
 * order, with at most the one move of each game whose answer died with the process stored besides.
 */
export async function assertAckedMovesKeptAfterRestart(env: Record<string, string>, port: number, acked: ReadonlyMap<string, readonly string[]>) {
  const second = await spawnServer(env, port);
  try {
    for (const [id, mine] of acked) {
      const stored = (await http(second.url, "GET", `/api/v1/games/${id}`)).json.moves as string[];
      assert.deepEqual(stored.slice(0, mine.length), mine, `game ${id}: every acknowledged move is kept, in order`);
      assert.ok(stored.length <= mine.length + 1, "at most the one unanswered move of the game was stored besides");
    }
  } finally {
    await second.stop();
  }
}
