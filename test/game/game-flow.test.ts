import { strict as assert } from "node:assert";
import { apply, boardCells, newGame, commitmentOf, legalMoves, numberedSeed, CHAMPIONS, type Action, type GameState } from "../../src/engine";
import { play, playOut, position } from "./helpers";

const fresh = () => newGame({ ruleset: "classic", champions: { A: "herald", B: "reaver" } }, 4242, "s4lt");

function refusedUnchanged(state: GameState, action: unknown, code: string): void {
  const before = structuredClone(state);
  const res = apply(state, action as Action);
  assert.equal(res.ok, false);
  if (!res.ok) assert.equal(res.code, code, res.detail);
  assert.deepEqual(state, before);
}

describe("Unit: setup", () => {
  it("deals 4 cards plus the champion to each seat and keeps 32 in the pile under rules version 1", () => {
    const s = newGame({ ruleset: "classic", rulesVersion: 1, champions: { A: "herald", B: "reaver" } }, 4242, "s4lt");
    assert.equal(s.hands.A.length, 5);
    assert.equal(s.hands.B.length, 5);
    assert.equal(s.hands.A[4], CHAMPIONS.herald.id);
    assert.equal(s.hands.B[4], CHAMPIONS.reaver.id);
    assert.equal(s.pile.length, 32);
    assert.equal(new Set([...s.hands.A, ...s.hands.B, ...s.pile]).size, 42);
  });

  it("deals the first mover one card more from version 2, the next card of the same shuffled pile", () => {
    const v1 = newGame({ ruleset: "classic", rulesVersion: 1, champions: { A: "herald", B: "reaver" } }, 4242, "s4lt");
    // Version 3 deals from the same generator as version 1; version 4 deals the same hand sizes from another.
    const s = newGame({ ruleset: "classic", rulesVersion: 3, champions: { A: "herald", B: "reaver" } }, 4242, "s4lt");
    assert.deepEqual([fresh().hands[fresh().firstPlayer].length, fresh().hands[fresh().firstPlayer === "A" ? "B" : "A"].length], [6, 5]);
    const first = s.firstPlayer,
      second = first === "A" ? "B" : "A";
    assert.equal(s.hands[first].length, 6);
    assert.equal(s.hands[second].length, 5);
    assert.deepEqual(s.hands[second], v1.hands[second]);
    assert.deepEqual(s.hands[first], [...v1.hands[first].slice(0, 4), v1.pile[0], v1.hands[first][4]]);
    assert.deepEqual(s.pile, v1.pile.slice(1));
    assert.equal(new Set([...s.hands.A, ...s.hands.B, ...s.pile]).size, 42);
  });

  it("deals the first mover two cards more in mutators from version 2", () => {
    const v1 = newGame({ ruleset: "mutators", rulesVersion: 1 }, 77, "m");
    const s = newGame({ ruleset: "mutators", rulesVersion: 3 }, 77, "m");
    assert.equal(newGame({ ruleset: "mutators" }, 77, "m").pile.length, 30);
    const first = s.firstPlayer,
      second = first === "A" ? "B" : "A";
    assert.equal(s.hands[first].length, 7);
    assert.equal(s.hands[second].length, 5);
    assert.deepEqual(s.hands[first].slice(4, 6), v1.pile.slice(0, 2));
    assert.equal(s.pile.length, 30);
  });

  it("derives everything from the seed: same seed same game, and a published commitment", () => {
    assert.deepEqual(fresh(), fresh());
    // Under version 4 the number 4242 stands for the 128-bit seed derived from it, which the game records.
    assert.equal(fresh().seed, numberedSeed(4242));
    assert.equal(fresh().commitment, commitmentOf(numberedSeed(4242), "s4lt"));
    assert.match(commitmentOf(1, "x"), /^[0-9a-f]{64}$/);
    assert.notDeepEqual(newGame({ ruleset: "classic" }, 1, "x").pile, newGame({ ruleset: "classic" }, 2, "x").pile);
  });

  it("marks 2 distinct chess tiles and draws 2 distinct mutators only in the mutators ruleset", () => {
    for (let seed = 0; seed < 200; seed++) {
      const s = newGame({ ruleset: "mutators" }, seed, "m");
      assert.equal(new Set(s.chessTiles.map((t) => t.square)).size, 2);
      assert.equal(new Set(s.mutators).size, 2);
      assert.equal(s.squareElements.length, s.mutators.includes("elemental") ? 3 : 0);
      assert.equal(new Set(s.squareElements.map((e) => e.square)).size, s.squareElements.length);
      assert.notEqual(s.champions.A, s.champions.B);
      assert.deepEqual(newGame({ ruleset: "classic" }, seed, "m").mutators, []);
    }
  });

  it("keeps the deal the same whichever champions were chosen", () => {
    const drawn = newGame({ ruleset: "mutators" }, 77, "z");
    const chosen = newGame({ ruleset: "mutators", champions: { A: "usurper", B: "usurper" } }, 77, "z");
    assert.deepEqual(chosen.pile, drawn.pile);
    assert.deepEqual(chosen.chessTiles, drawn.chessTiles);
    assert.deepEqual(chosen.mutators, drawn.mutators);
    assert.deepEqual(chosen.champions, { A: "usurper", B: "usurper" });
    const half = newGame({ ruleset: "classic", champions: { B: "bastion" } }, 77, "z");
    assert.equal(half.champions.B, "bastion");
    assert.notEqual(half.champions.A, "bastion");
  });
});

describe("Unit: turns and endings", () => {
  it("records a placement, passes the turn and draws one card", () => {
    const s = fresh();
    const mover = s.turn;
    const card = s.hands[mover][0];
    const res = play(s, card, "c3");
    assert.equal(res.move!.n, 1);
    assert.equal(res.move!.seat, mover);
    assert.equal(res.move!.notation, `${card}@c3`);
    assert.deepEqual(
      boardCells(res.state.board).map((c) => c.square),
      ["c3"],
    );
    assert.notEqual(res.state.turn, mover);
    assert.equal(res.state.hands[mover].length, s.hands[mover].length);
    assert.equal(res.state.pile.length, s.pile.length - 1);
    assert.deepEqual(res.state.actions, [{ kind: "place", card, square: "c3" }]);
    assert.deepEqual(
      res.events.map((e) => e.type),
      ["placed", "drew"],
    );
  });

  it("accepts lower-case card codes and upper-case squares", () => {
    const s = fresh();
    const card = s.hands[s.turn][0];
    const res = play(s, card.toLowerCase(), "C3");
    assert.equal(res.move!.notation, `${card}@c3`);
  });

  it("ends after 16 placements with the higher score winning", () => {
    const board: Record<string, string> = {};
    const squares = ["a1", "b1", "c1", "d1", "a2", "b2", "c2", "d2", "a3", "b3", "c3", "d3", "a4", "b4", "c4"];
    squares.forEach((sq, i) => {
      board[sq] = `S1:${i < 8 ? "A" : "B"}`;
    });
    const s = position({ board, hands: { A: ["S1"] } });
    const res = play(s, "S1", "d4");
    assert.equal(res.state.status, "finished");
    assert.equal(res.state.decidedBy, "board_full");
    assert.equal(res.state.winner, "A");
    assert.deepEqual(res.events.at(-1), { type: "ended", winner: "A", decidedBy: "board_full", score: { A: 9, B: 7 } });
    assert.deepEqual(legalMoves(res.state), []);
  });

  it("calls a full board with equal scores a draw under version 1 and the first mover's win from version 2", () => {
    const board: Record<string, string> = {};
    const squares = ["a1", "b1", "c1", "d1", "a2", "b2", "c2", "d2", "a3", "b3", "c3", "d3", "a4", "b4", "c4"];
    squares.forEach((sq, i) => {
      board[sq] = `S1:${i < 7 ? "A" : "B"}`;
    });
    const tied = position({ board, hands: { A: ["S1"] } });
    assert.equal(play({ ...tied, rulesVersion: 1 }, "S1", "d4").state.winner, "draw");
    const v2 = play(tied, "S1", "d4");
    assert.deepEqual(v2.state.score, { A: 8, B: 8 });
    assert.equal(v2.state.winner, "A");
    // The tie goes to the seat that moved first, not to the seat that placed the last card.
    assert.equal(play({ ...tied, firstPlayer: "B" }, "S1", "d4").state.winner, "B");
  });

  it("ends every game of 16 placements whatever is played", () => {
    const end = playOut(fresh(), (i, n) => (i * 5 + 3) % n);
    assert.equal(end.moves.length, 16);
    assert.equal(end.score.A + end.score.B, 16);
  });

  it("lets either seat resign at any time, the other winning", () => {
    const s = fresh();
    const notToMove = s.turn === "A" ? "B" : "A";
    const res = apply(s, { kind: "resign", seat: notToMove });
    assert.ok(res.ok);
    assert.equal(res.state.winner, s.turn);
    assert.equal(res.state.decidedBy, "resignation");
    assert.deepEqual(
      res.events.map((e) => e.type),
      ["resigned", "ended"],
    );
  });

  it("ends on a timeout of the seat to move, the other winning", () => {
    const s = fresh();
    const res = apply(s, { kind: "timeout", seat: s.turn });
    assert.ok(res.ok);
    assert.equal(res.state.winner, s.turn === "A" ? "B" : "A");
    assert.equal(res.state.decidedBy, "timeout");
  });

  it("aborts with no winner before both seats moved, and refuses later", () => {
    const s = fresh();
    const one = play(s, s.hands[s.turn][0], "a1").state;
    const res = apply(one, { kind: "abort" });
    assert.ok(res.ok);
    assert.equal(res.state.winner, null);
    assert.equal(res.state.decidedBy, "aborted");
    const two = play(one, one.hands[one.turn][0], "b1").state;
    refusedUnchanged(two, { kind: "abort" }, "illegal_move");
  });
});

describe("Unit: refusals", () => {
  it("refuses and changes nothing for each bad input", () => {
    const s = fresh();
    const mine = s.hands[s.turn][0];
    const theirs = s.hands[s.turn === "A" ? "B" : "A"][0];
    const taken = play(s, mine, "a1").state;
    refusedUnchanged(s, { kind: "place", card: theirs, square: "a1" }, "illegal_move");
    refusedUnchanged(s, { kind: "place", card: "Z99", square: "a1" }, "illegal_move");
    refusedUnchanged(s, { kind: "place", card: mine, square: "e5" }, "illegal_move");
    refusedUnchanged(taken, { kind: "place", card: taken.hands[taken.turn][0], square: "a1" }, "illegal_move");
    refusedUnchanged(s, { kind: "place", card: mine, square: "b1", seat: s.turn === "A" ? "B" : "A" }, "not_your_turn");
    refusedUnchanged(s, { kind: "timeout", seat: s.turn === "A" ? "B" : "A" }, "not_your_turn");
    refusedUnchanged(s, { kind: "place", card: 7, square: "a1" }, "bad_request");
    refusedUnchanged(s, { kind: "resign", seat: "C" }, "bad_request");
    refusedUnchanged(s, { kind: "fly" }, "bad_request");
    refusedUnchanged(s, null, "bad_request");
    refusedUnchanged(s, "E7@b3", "bad_request");
  });

  it("refuses every action once the game is over", () => {
    const over = apply(fresh(), { kind: "resign", seat: "A" });
    assert.ok(over.ok);
    const s = over.state;
    refusedUnchanged(s, { kind: "place", card: s.hands[s.turn][0], square: "a1" }, "game_over");
    refusedUnchanged(s, { kind: "resign", seat: "B" }, "game_over");
    refusedUnchanged(s, { kind: "timeout", seat: s.turn }, "game_over");
    refusedUnchanged(s, { kind: "abort" }, "game_over");
  });

  it("never mutates the input state on an accepted action", () => {
    const s = fresh();
    const before = structuredClone(s);
    play(s, s.hands[s.turn][0], "b2");
    apply(s, { kind: "resign", seat: "A" });
    assert.deepEqual(s, before);
  });
});
