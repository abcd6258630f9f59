import assert from "node:assert/strict";
import { apply, buildReplay, newGame, seatView } from "../../src/engine";
import type { GameState } from "../../src/engine/types";
import { decide, reviewGame } from "../../src/services/ai";
import { createAiPool, type AiPool } from "../../src/services/ai/pool";
import { leagueTable } from "../../src/shared/standings/league-table";

/** A position a few plies in, where the hard search has real work to do. */
function midGame(seed: number): GameState {
  let state = newGame({ ruleset: "mutators" }, seed, "pool");
  for (let i = 0; i < 3; i++) {
    const m = decide(seatView(state, state.turn), "easy", { seed: i });
    const r = apply(state, { kind: "place", ...m });
    assert.ok(r.ok);
    state = r.state;
  }
  return state;
}

/** Counts how often the event loop turns while `work` is pending. */
async function loopTurnsDuring<T>(work: () => Promise<T>): Promise<{ value: T; turns: number }> {
  let turns = 0;
  const timer = setInterval(() => turns++, 1);
  try {
    return { value: await work(), turns };
  } finally {
    clearInterval(timer);
  }
}

describe("Unit: the AI pool runs searches on worker threads", function () {
  this.timeout(60_000);
  let pool: AiPool;
  before(() => {
    pool = createAiPool(2, { onError: (err) => assert.fail(`a worker task failed: ${String(err)}`) });
  });
  after(() => pool.close());

  it("decides exactly as the engine does inline, while the event loop keeps turning", async () => {
    const state = midGame(11);
    const view = seatView(state, state.turn);
    const { value, turns } = await loopTurnsDuring(() => pool.decide(view, "hard"));
    assert.deepEqual(value, decide(view, "hard"));
    assert.ok(turns > 0, "the event loop was blocked during the search");
  });

  it("blocks the event loop when run inline (0 threads), which is what the pool avoids", async () => {
    const inline = createAiPool(0);
    const state = midGame(11);
    const { turns } = await loopTurnsDuring(() => inline.decide(seatView(state, state.turn), "hard"));
    assert.equal(turns, 0);
  });

  it("computes a league's standings table exactly as leagueTable does, while the event loop keeps turning", async () => {
    const entrants = Array.from({ length: 12 }, (_, i) => `BOT-${i}`);
    const outcomes = ["first", "second", "draw"] as const;
    const deals = entrants.flatMap((a, i) =>
      entrants.slice(i + 1).map((b, j) => ({
        games: [
          { first: a, second: b, outcome: outcomes[(i + j) % 3] },
          { first: b, second: a, outcome: outcomes[(i * j) % 3] },
        ],
      })),
    );
    const task = { entrants, deals, leagueId: "l_pooltable" };
    const { value, turns } = await loopTurnsDuring(() => pool.leagueTable(task));
    assert.deepEqual(value, leagueTable(entrants, deals, "l_pooltable"));
    assert.ok(turns > 0, "the event loop was blocked while the table was computed");
  });

  it("reviews a finished game exactly as reviewGame does, and runs tasks side by side", async () => {
    let state = midGame(5);
    while (state.status === "active") {
      const r = apply(state, { kind: "place", ...decide(seatView(state, state.turn), "easy", { seed: 1 }) });
      assert.ok(r.ok);
      state = r.state;
    }
    const replay = buildReplay(state, { id: "g_pool", players: { A: "a", B: "b" }, replayUrl: "" });
    const [review, again] = await Promise.all([pool.review(replay), pool.review(replay)]);
    assert.deepEqual(review, reviewGame(replay));
    assert.deepEqual(again, review);
  });
});
