/**
 * Replays: the record of a finished game, and the check anyone can run on one. A replay carries everything
 * needed to re-simulate (seed, salt, ruleset, champions, the ending actions) and everything a viewer wants
 * (each move's board and score); verifyReplay re-derives the second from the first and names the first
 * field that disagrees. `id`, `players` and `replayUrl` describe where the game was played and cannot be
 * derived, so they are only checked for shape.
 */
import { apply, shownMove } from "./apply";
import { ROSTER } from "./champions";
import { seedProblem } from "./seed";
import { commitmentOf, newGame } from "./setup";
import { isRulesVersion, UNVERSIONED } from "./versions";
import type { Action, ApplyResult, Cell, ChampionId, GameEvent, GameOptions, GameState, Replay, Ruleset, Seat, Seed } from "./types";

type Ending = Replay["endings"][number];

/**
 * Re-simulates a game from scratch: the final state, or the first refusal. Events are those of every action.
 * The rules version comes from `init.options` (absent: the current version).
 */
export function rebuild(init: { ruleset: Ruleset; seed: Seed; salt: string; options: GameOptions }, actions: Action[]): ApplyResult {
  let state = newGame({ ...init.options, ruleset: init.ruleset }, init.seed, init.salt);
  const events: GameEvent[] = [];
  let last: ApplyResult = { ok: true, state, events };
  for (const action of actions) {
    const res = apply(state, action);
    if (!res.ok) return res;
    state = res.state;
    events.push(...res.events);
    last = res;
  }
  return { ok: true, state, events, ...(last.ok && last.move ? { move: last.move } : {}) };
}

/** The replay of a finished game. Throws when the game is still active: asking for it is a programming error. */
/**
 * The board after each placement of a state, rebuilt from its actions: the engine keeps no board per
 * placement, so the rare reads that show past placements (a replay, a sync since a move) derive them.
 */
export function boardsAfterMoves(state: GameState): (readonly Cell[])[] {
  let s = newGame({ ...state.options, ruleset: state.ruleset }, state.seed, state.salt);
  const boards: (readonly Cell[])[] = [];
  for (const a of state.actions) {
    if (boards.length === state.moves.length) break;
    const r = apply(s, a);
    if (!r.ok) throw new Error(`an action of the state does not replay: ${r.detail}`);
    s = r.state;
    if (r.move) boards.push(s.board);
  }
  return boards;
}

export function buildReplay(state: GameState, meta: { id: string; players: Record<Seat, string>; replayUrl: string }): Replay {
  if (state.status !== "finished" || !state.decidedBy) throw new Error("buildReplay: the game has not finished");
  const endings: Ending[] = [];
  let placed = 0;
  for (const a of state.actions) {
    if (a.kind === "place") placed++;
    else endings.push({ after: placed, action: { ...a } });
  }
  return {
    id: meta.id,
    ruleset: state.ruleset,
    rulesVersion: state.rulesVersion,
    players: { A: meta.players.A, B: meta.players.B },
    seed: state.seed,
    firstPlayer: state.firstPlayer,
    score: { ...state.score },
    moveCount: state.moves.length,
    moves: ((boards) => state.moves.map((m, i) => shownMove(m, boards[i])))(boardsAfterMoves(state)),
    winner: state.winner,
    chessTiles: state.chessTiles.map((t) => ({ ...t })),
    replayUrl: meta.replayUrl,
    decidedBy: state.decidedBy,
    salt: state.salt,
    commitment: state.commitment,
    champions: { ...state.champions },
    mutators: [...state.mutators],
    squareElements: state.squareElements.map((e) => ({ ...e })),
    endings,
    finalHands: { A: [...state.hands.A], B: [...state.hands.B] },
  };
}

export type VerifyResult = { ok: true } | { ok: false; move: number | null; field: string; detail: string };

/** JSON with object keys sorted, so that a stored replay whose keys were reordered still compares equal. */
function canon(x: unknown): string {
  if (Array.isArray(x)) return `[${x.map(canon).join(",")}]`;
  if (typeof x === "object" && x !== null) {
    const o = x as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canon(o[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(x) ?? "undefined";
}
const same = (a: unknown, b: unknown) => canon(a) === canon(b);
const fail = (move: number | null, field: string, detail: string): VerifyResult => ({ ok: false, move, field, detail });
const isObj = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);
const isSeat = (x: unknown): x is Seat => x === "A" || x === "B";

/** Shape checks of the fields the simulation starts from; the first problem found, or null. */
function shapeError(r: Record<string, unknown>): VerifyResult | null {
  if (typeof r.id !== "string") return fail(null, "id", "must be a string");
  if (typeof r.replayUrl !== "string") return fail(null, "replayUrl", "must be a string");
  if (!isObj(r.players) || typeof r.players.A !== "string" || typeof r.players.B !== "string") return fail(null, "players", "must name seats A and B");
  if (r.ruleset !== "classic" && r.ruleset !== "mutators") return fail(null, "ruleset", "must be classic or mutators");
  if (r.rulesVersion !== undefined && !isRulesVersion(r.rulesVersion)) return fail(null, "rulesVersion", "is not a known rules version");
  // The seed's form follows the game's version: an integer before version 4, 32 hex digits from it.
  const seedBad = seedProblem(r.rulesVersion ?? UNVERSIONED, r.seed);
  if (seedBad) return fail(null, "seed", seedBad);
  if (typeof r.salt !== "string") return fail(null, "salt", "must be a string");
  if (typeof r.commitment !== "string") return fail(null, "commitment", "must be a string");
  const ch = r.champions;
  if (!isObj(ch) || !ROSTER.includes(ch.A as ChampionId) || !ROSTER.includes(ch.B as ChampionId))
    return fail(null, "champions", "must name a champion for A and B");
  if (!Array.isArray(r.moves) || !r.moves.every(isObj)) return fail(null, "moves", "must be an array of moves");
  if (!Array.isArray(r.endings) || !r.endings.every((e) => isObj(e) && Number.isInteger(e.after) && isObj(e.action))) {
    return fail(null, "endings", "must be an array of {after, action}");
  }
  return null;
}

/** Checks a replay by re-simulating it from its seed; names the first move (n) and field that disagree. */
export function verifyReplay(replay: unknown): VerifyResult {
  if (!isObj(replay)) return fail(null, "replay", "must be an object");
  const bad = shapeError(replay);
  if (bad) return bad;
  const r = replay as unknown as Replay;
  if (commitmentOf(r.seed, r.salt) !== r.commitment) return fail(null, "commitment", "sha256 of seed:salt does not match the commitment");
  const rulesVersion = r.rulesVersion ?? UNVERSIONED;
  let state = newGame({ ruleset: r.ruleset, rulesVersion, champions: { A: r.champions.A, B: r.champions.B } }, r.seed, r.salt);
  for (const field of ["firstPlayer", "chessTiles", "mutators", "squareElements"] as const) {
    if (!same(state[field], r[field])) return fail(null, field, `does not follow from the seed (expected ${JSON.stringify(state[field])})`);
  }
  const endings = r.endings;
  for (let k = 1; k < endings.length; k++) {
    if (endings[k].after < endings[k - 1].after) return fail(null, "endings", "must be in order");
  }
  let e = 0;
  const runEndings = (after: number): VerifyResult | null => {
    for (; e < endings.length && endings[e].after === after; e++) {
      const action = endings[e].action as Action;
      if (action.kind === "place") return fail(null, "endings", "an ending cannot be a placement");
      const res = apply(state, action);
      if (!res.ok) return fail(null, "endings", `${action.kind} after ${after} moves refused: ${res.detail}`);
      state = res.state;
    }
    return null;
  };
  for (let i = 0; i < r.moves.length; i++) {
    const endBad = runEndings(i);
    if (endBad) return endBad;
    const m = r.moves[i];
    const n = i + 1;
    if (m.n !== n) return fail(n, "n", `move ${n} is numbered ${String(m.n)}`);
    if (state.status !== "active") return fail(n, "moves", "a move after the game ended");
    if (m.seat !== state.turn) return fail(n, "seat", `seat ${state.turn} was to move`);
    const res = apply(state, { kind: "place", card: m.card, square: m.square });
    if (!res.ok) return fail(n, typeof m.card === "string" && state.hands[state.turn].includes(m.card) ? "square" : "card", res.detail);
    const got = shownMove(res.move!, res.state.board);
    for (const field of ["card", "square", "notation", "name", "captures", "score", "board"] as const) {
      if (!same(got[field], m[field])) return fail(n, field, `expected ${JSON.stringify(got[field]).slice(0, 200)}`);
    }
    state = res.state;
  }
  const endBad = runEndings(r.moves.length);
  if (endBad) return endBad;
  if (e < endings.length) return fail(null, "endings", "an ending refers to a move that is not in the replay");
  if (state.status !== "finished") return fail(null, "decidedBy", "the moves and endings do not finish the game");
  if (!isSeat(r.firstPlayer)) return fail(null, "firstPlayer", "must be A or B");
  if (r.moveCount !== state.moves.length) return fail(null, "moveCount", `expected ${state.moves.length}`);
  if (!same(r.score, state.score)) return fail(null, "score", `expected ${JSON.stringify(state.score)}`);
  if (r.winner !== state.winner) return fail(null, "winner", `expected ${JSON.stringify(state.winner)}`);
  if (r.decidedBy !== state.decidedBy) return fail(null, "decidedBy", `expected ${state.decidedBy}`);
  if (!same(r.finalHands, state.hands)) return fail(null, "finalHands", "the hands left at the end do not match");
  return { ok: true };
}
