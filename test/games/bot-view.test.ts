/**
 * What a bot reads: legal moves in its notation, the result from its own side, how the game was decided
 * (a tied full board named as such), the rules as data agreeing with the engine's deal, and the links.
 */
import { strict as assert } from "node:assert";
import { apply, decisionOf, legalMoves, legalMovesFor, legalNotationsFor, newGame, resultFor, rulesData, SQUARES, type GameState } from "../../src/engine";
import { finishedEvent } from "../../src/services/games/game-events";
import { syncBody } from "../../src/services/games/views";
import type { GameContext } from "../../src/services/games/context";
import type { GameRecord } from "../../src/store/port";
import { position } from "../game/helpers";

const strong = "S5:A";
/** 15 cards, A 8 and B 7, B to place the last card on d4, where it can flip nothing: the board ends 8-8. */
function tiedAtTheEnd(): GameState {
  const board: Record<string, string> = {};
  const squares = ["a1", "b1", "c1", "d1", "a2", "b2", "c2", "d2", "a3", "b3", "c3", "d3", "a4", "b4", "c4"];
  squares.forEach((sq, i) => (board[sq] = i < 7 ? "S1:B" : strong));
  return { ...position({ board, hands: { A: [], B: ["S1"] }, turn: "B" }), firstPlayer: "A" };
}

function contextOf(engine: GameState): GameContext {
  const at = new Date(0).toISOString();
  const record: GameRecord = {
    id: "g_test",
    ruleset: "classic",
    rulesVersion: engine.rulesVersion,
    opponent: "friend",
    public: true,
    turnSeconds: 60,
    seed: 1,
    salt: "s",
    commitment: engine.commitment,
    status: engine.status,
    firstPlayer: engine.firstPlayer,
    moveCount: engine.moves.length,
    score: engine.score,
    winner: engine.winner,
    createdAt: at,
    updatedAt: at,
    startedAt: at,
    seats: { A: { playerId: "P-A", name: "Ann", kind: "human", tokenHash: "a" }, B: { playerId: "P-B", name: "Bot", kind: "human", tokenHash: "b" } },
  };
  return { record, engine, timeline: [], endEvents: [] };
}

describe("Unit: what a bot reads", () => {
  it("lists every legal placement in notation on the seat's turn, and none for the other seat", () => {
    const g = newGame({ ruleset: "classic" }, 42, "salt");
    const mine = legalMovesFor(g, g.turn);
    assert.equal(mine.length, legalMoves(g).length);
    assert.equal(mine.length, new Set(g.hands[g.turn]).size * 16);
    for (const m of mine) {
      assert.equal(m.move, `${m.card}@${m.square}`);
      assert.ok(apply(g, { kind: "place", card: m.card, square: m.square }).ok, `${m.move} is accepted`);
    }
    assert.deepEqual(legalMovesFor(g, g.turn === "A" ? "B" : "A"), []);
  });

  it("gives the room's hand message the same legal list, in the same order, at every turn of seeded games", () => {
    for (const ruleset of ["classic", "mutators"] as const) {
      for (let seed = 1; seed <= 6; seed++) {
        let g = newGame({ ruleset }, seed, "salt");
        let turns = 0;
        while (g.status === "active") {
          for (const seat of ["A", "B"] as const) {
            // Written out from the engine's own list (not from the shared notation rows both lists read).
            const expected = seat === g.turn ? legalMoves(g).map((m) => `${m.card}@${m.square}`) : [];
            const where = `${ruleset} seed ${seed}, turn ${turns}, seat ${seat}`;
            assert.deepEqual(legalNotationsFor(g, seat), expected, where);
            assert.deepEqual(
              legalMovesFor(g, seat).map((m) => m.move),
              expected,
              where,
            );
          }
          const moves = legalMovesFor(g, g.turn);
          const next = apply(g, {
            kind: "place",
            card: moves[(seed * 7 + turns) % moves.length].card,
            square: moves[(seed * 7 + turns) % moves.length].square,
          });
          assert.ok(next.ok);
          g = next.state;
          turns++;
        }
        assert.deepEqual(legalNotationsFor(g, "A"), []);
        assert.ok(turns > 0);
      }
    }
    // Two copies of one card in a hand are one card's placements, listed at the first copy's place.
    const twice = position({ board: { a1: strong }, hands: { A: ["S1", "S2", "S1"], B: [] }, turn: "A" });
    const onePerCard = ["S1", "S2"].flatMap((card) => SQUARES.filter((sq) => sq !== "a1").map((sq) => `${card}@${sq}`));
    assert.deepEqual(legalNotationsFor(twice, "A"), onePerCard);
    assert.deepEqual(
      legalMovesFor(twice, "A").map((m) => m.move),
      onePerCard,
    );
  });

  it("says a tied full board is a first-mover win from rules version 2 and a draw in version 1", () => {
    const before = tiedAtTheEnd();
    const done = apply(before, { kind: "place", card: "S1", square: "d4" });
    assert.ok(done.ok);
    assert.deepEqual(done.state.score, { A: 8, B: 8 });
    assert.equal(done.state.winner, "A");
    const d = decisionOf({ winner: "A", decidedBy: "board_full", score: done.state.score, firstPlayer: "A", rulesVersion: 3 });
    assert.deepEqual({ tied: d.tiedBoard, rule: d.tieRule }, { tied: true, rule: "first_mover" });
    assert.match(d.summary, /tie goes to the first mover, seat A/);
    const v1 = decisionOf({ winner: "draw", decidedBy: "board_full", score: done.state.score, firstPlayer: "A", rulesVersion: 1 });
    assert.equal(v1.tieRule, "draw");
    assert.equal(resultFor("A", "A"), "win");
    assert.equal(resultFor("A", "B"), "loss");
    assert.equal(resultFor("draw", "B"), "draw");
    assert.equal(resultFor(null, "A"), null);
  });

  it("answers each seat's result and the decision in the sync view and in game.finished", () => {
    const done = apply(tiedAtTheEnd(), { kind: "place", card: "S1", square: "d4" });
    assert.ok(done.ok);
    const ctx = contextOf(done.state);
    const forB = syncBody(ctx, "B", 1, "http://x");
    assert.equal(forB.result, "loss");
    assert.equal(syncBody(ctx, "A", 1, "http://x").result, "win");
    assert.equal(syncBody(ctx, null, 1, "http://x").result, undefined, "a spectator has no side");
    assert.equal(forB.decision?.tieRule, "first_mover");
    assert.deepEqual(forB.legalMoves, []);
    assert.equal(forB.urls.replayPage, "http://x/replay/g_test");
    assert.equal(forB.urls.reviewPage, "http://x/review/g_test");
    const event = finishedEvent(ctx, "http://x");
    assert.deepEqual(event.data.results, { A: "win", B: "loss" });
    assert.deepEqual({ tied: event.data.decision.tied_board, rule: event.data.decision.tie_rule }, { tied: true, rule: "first_mover" });
    assert.equal(event.data.replay_page, "http://x/replay/g_test");
  });

  it("publishes hand sizes and orientation that match the engine's deal and geometry", () => {
    for (const version of [1, 2, 3] as const) {
      const rules = rulesData(version);
      for (const ruleset of ["classic", "mutators"] as const) {
        const g = newGame({ ruleset, rulesVersion: version }, 7, "salt");
        const second = g.firstPlayer === "A" ? "B" : "A";
        assert.deepEqual(rules.hands[ruleset], { firstMover: g.hands[g.firstPlayer].length, secondMover: g.hands[second].length }, `v${version} ${ruleset}`);
      }
    }
    // n faces rank + 1: a card on b1 attacks b2 with its n edge (the basic rule's example in docs/RULES.md).
    const flipped = apply(position({ board: { b2: "S1:B" }, hands: { A: ["E9"] } }), { kind: "place", card: "E9", square: "b1" });
    assert.ok(flipped.ok && flipped.move?.captures === 1);
    assert.deepEqual(rulesData(3).board.edges.n, { fileStep: 0, rankStep: 1 });
    assert.deepEqual(rulesData(3).captureOrder, ["same", "plus", "basic", "chess", "knight", "combo"]);
  });
});
