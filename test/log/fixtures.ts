/** Finished games for the log's tests: played by the engine from a seed, as a room would store them. */
import { apply, commitmentOf, legalMoves, newGame, type Action } from "../../src/engine";
import type { GameRecord, StoredAction } from "../../src/store/port";

const T0 = Date.parse("2026-11-02T10:00:00.000Z");

/** A finished, public friend game (the n-th: its own seed, finish time and id), with its stored actions. */
export function playedGame(n: number, over: Partial<GameRecord> = {}): { record: GameRecord; actions: StoredAction[] } {
  const seed = 1000 + n * 7919;
  const salt = `salt-${n}`;
  let state = newGame({ ruleset: n % 2 ? "mutators" : "classic", rulesVersion: 3, champions: { A: "knight", B: "bastion" } }, seed, salt);
  const actions: Action[] = [];
  // Every fourth game ends by resignation, the rest on a full board; moves picked deterministically.
  for (let i = 0; state.status === "active"; i++) {
    const legal = legalMoves(state);
    const action: Action = n % 4 === 3 && i === 5 ? { kind: "resign", seat: state.turn } : { kind: "place", ...legal[(i * 5 + n) % legal.length] };
    const res = apply(state, action);
    if (!res.ok) throw new Error(res.detail);
    state = res.state;
    actions.push(action);
  }
  const at = (i: number) => new Date(T0 + n * 60_000 + i * 1000).toISOString();
  const record: GameRecord = {
    id: `G${String(n).padStart(5, "0")}`,
    ruleset: state.ruleset,
    rulesVersion: 3,
    opponent: "friend",
    public: true,
    turnSeconds: 60,
    seed,
    salt,
    commitment: commitmentOf(seed, salt),
    status: "finished",
    seats: { A: { playerId: "PA", name: "Ada", kind: "human", champion: "knight" }, B: { playerId: "PB", name: "Bo", kind: "bot", champion: "bastion" } },
    firstPlayer: state.firstPlayer,
    moveCount: state.moves.length,
    score: { ...state.score },
    winner: state.winner,
    decidedBy: state.decidedBy,
    createdAt: at(0),
    updatedAt: at(actions.length),
    finishedAt: at(actions.length),
    ...over,
  };
  return { record, actions: actions.map((action, index) => ({ gameId: record.id, index, action, at: at(index + 1) })) };
}
