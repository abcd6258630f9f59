import { strict as assert } from "node:assert";
import { effectiveRanks } from "../../src/engine/rules";
import { capturesOf, ownerAt, play, position } from "./helpers";

describe("Unit: basic captures", () => {
  it("flips a neighbour when the facing rank is strictly higher", () => {
    const s = position({ board: { b2: "S1:B" }, hands: { A: ["E9"] } });
    const res = play(s, "E9", "b1"); // E9 n9 against S1 s4
    assert.deepEqual(capturesOf(res), { b2: "basic" });
    assert.equal(ownerAt(res.state, "b2"), "A");
    assert.equal(res.move!.captures, 1);
    assert.deepEqual(res.state.score, { A: 2, B: 0 });
  });

  it("does not flip when the facing ranks are equal", () => {
    const s = position({ board: { b2: "S1:B" }, hands: { A: ["S1"] } });
    assert.deepEqual(capturesOf(play(s, "S1", "b1")), {});
  });

  it("never flips the mover's own cards", () => {
    const s = position({ board: { b2: "S1:A" }, hands: { A: ["E9"] } });
    const res = play(s, "E9", "b1");
    assert.equal(res.move!.captures, 0);
    assert.deepEqual(res.state.score, { A: 2, B: 0 });
  });

  it("compares the edge facing the target on every side", () => {
    // T9 Leviathan (4,5,9,5) on b2: s9 beats b1's n, w5 beats a2's e, n4 loses to b3's s.
    const s = position({ board: { b1: "S1:B", a2: "T1:B", b3: "S5:B" }, hands: { A: ["T9"] } });
    const res = play(s, "T9", "b2");
    assert.deepEqual(capturesOf(res), { b1: "basic", a2: "basic" });
  });
});

describe("Unit: chess tiles", () => {
  it("attacks knight-jump squares by rank totals when placed on a knight tile", () => {
    const s = position({
      board: { b3: "S1:B", c2: "S10:B" },
      hands: { A: ["S5"] },
      chessTiles: [{ square: "a1", piece: "knight" }],
    });
    const res = play(s, "S5", "a1"); // total 20 beats S1's 16, not S10's 23
    assert.deepEqual(capturesOf(res), { b3: "chess" });
  });

  it("attacks along a bishop diagonal up to the first occupied square", () => {
    const tiles = [{ square: "a1", piece: "bishop" as const }];
    const open = position({ board: { c3: "S1:B" }, hands: { A: ["S5"] }, chessTiles: tiles });
    assert.deepEqual(capturesOf(play(open, "S5", "a1")), { c3: "chess" });
    const blocked = position({ board: { b2: "S1:A", c3: "S1:B" }, hands: { A: ["S5"] }, chessTiles: tiles });
    assert.deepEqual(capturesOf(play(blocked, "S5", "a1")), {});
  });

  it("compares facing edges, not totals, along a rook's distant line", () => {
    const tiles = [{ square: "a1", piece: "rook" as const }];
    const win = position({ board: { a3: "S1:B" }, hands: { A: ["S5"] }, chessTiles: tiles });
    assert.deepEqual(capturesOf(play(win, "S5", "a1")), { a3: "chess" }); // n5 > s4
    // E4 (3,6,5,3) has the higher total (17 > 16) but its north edge 3 is below S1's south edge 4.
    const lose = position({ board: { a3: "S1:B" }, hands: { A: ["E4"] }, chessTiles: tiles });
    assert.deepEqual(capturesOf(play(lose, "E4", "a1")), {});
    const blocked = position({ board: { a2: "T9:A", a3: "S1:B" }, hands: { A: ["S5"] }, chessTiles: tiles });
    assert.deepEqual(capturesOf(play(blocked, "S5", "a1")), {});
  });

  it("attacks both diagonals and lines from a queen tile", () => {
    const s = position({ board: { c3: "S1:B", a4: "S1:B" }, hands: { A: ["S5"] }, chessTiles: [{ square: "a1", piece: "queen" }] });
    assert.deepEqual(capturesOf(play(s, "S5", "a1")), { c3: "chess", a4: "chess" });
  });

  it("attacks the diagonal neighbours by totals from a king tile", () => {
    const s = position({ board: { c3: "S1:B", a1: "S10:B" }, hands: { A: ["S5"] }, chessTiles: [{ square: "b2", piece: "king" }] });
    assert.deepEqual(capturesOf(play(s, "S5", "b2")), { c3: "chess" });
  });

  it("gives nothing extra to a card placed off the tile", () => {
    const s = position({ board: { c3: "S1:B" }, hands: { A: ["S5"] }, chessTiles: [{ square: "a1", piece: "king" }] });
    assert.deepEqual(capturesOf(play(s, "S5", "b2")), {});
  });
});

describe("Unit: mutators", () => {
  it("captures two equal facing pairs with same, which the basic rule would not", () => {
    const board = { b3: "G2:B", c2: "S3:B" }; // facing S5 on b2: s5 and w5
    const s = position({ board, hands: { A: ["S5"] }, mutators: ["same", "reverse"] });
    assert.deepEqual(capturesOf(play(s, "S5", "b2")), { b3: "same", c2: "same" });
    assert.deepEqual(capturesOf(play(position({ board, hands: { A: ["S5"] } }), "S5", "b2")), {});
  });

  it("counts the mover's own cards towards same but flips only the opponent's", () => {
    const s = position({ board: { b3: "G2:A", c2: "S3:B" }, hands: { A: ["S5"] }, mutators: ["same"] });
    assert.deepEqual(capturesOf(play(s, "S5", "b2")), { c2: "same" });
  });

  it("captures two equal sums with plus", () => {
    // T1 (2,4,6,5) on b2: n2 + E6.s6 = 8 and e4 + E2.w4 = 8; the basic rule flips neither.
    const board = { b3: "E6:B", c2: "E2:B" };
    const s = position({ board, hands: { A: ["T1"] }, mutators: ["plus", "same"] });
    assert.deepEqual(capturesOf(play(s, "T1", "b2")), { b3: "plus", c2: "plus" });
  });

  it("chains captures by the basic rule with combo", () => {
    // E9 flips S1 on b2; S1 n4 flips E3 (s1) on b3; E3 n7 flips G3 (s2) on b4.
    const board = { b2: "S1:B", b3: "E3:B", b4: "G3:B", c2: "T1:B" };
    const s = position({ board, hands: { A: ["E9"] }, mutators: ["combo", "plus"] });
    const res = play(s, "E9", "b1");
    assert.deepEqual(capturesOf(res), { b2: "basic", b3: "combo", b4: "combo" });
    assert.equal(res.move!.captures, 3);
    assert.equal(res.move!.notation, "E9@b1x3");
    assert.equal(ownerAt(res.state, "c2"), "B");
    const plain = play(position({ board, hands: { A: ["E9"] } }), "E9", "b1");
    assert.equal(plain.move!.captures, 1);
  });

  it("captures with the lower rank under reverse", () => {
    const low = position({ board: { b2: "S1:B" }, hands: { A: ["T1"] }, mutators: ["reverse", "same"] });
    assert.deepEqual(capturesOf(play(low, "T1", "b1")), { b2: "basic" }); // n2 < s4
    const high = position({ board: { b2: "S1:B" }, hands: { A: ["E9"] }, mutators: ["reverse", "same"] });
    assert.deepEqual(capturesOf(play(high, "E9", "b1")), {});
  });

  it("adds 1 on a square of the card's element and removes 1 on another, never below 1", () => {
    const own = position({
      board: { b2: "E6:B" },
      hands: { A: ["E1"] },
      mutators: ["elemental", "same"],
      squareElements: [{ square: "b1", element: "ember" }],
    });
    assert.deepEqual(capturesOf(play(own, "E1", "b1")), { b2: "basic" }); // 6+1 > 6
    const other = position({
      board: { b2: "E6:B" },
      hands: { A: ["E3"] },
      mutators: ["elemental", "same"],
      squareElements: [{ square: "b1", element: "stone" }],
    });
    assert.deepEqual(capturesOf(play(other, "E3", "b1")), {}); // 7-1 = 6, not above 6
    const floor = position({ board: { b1: "E3:A" }, mutators: ["elemental"], squareElements: [{ square: "b1", element: "tide" }] });
    assert.deepEqual(effectiveRanks(floor.board, floor, 1), { n: 6, e: 3, s: 1, w: 4 });
  });

  it("ignores square elements when elemental is not in play", () => {
    const s = position({ board: { b1: "E3:A" }, squareElements: [{ square: "b1", element: "tide" }] });
    assert.deepEqual(effectiveRanks(s.board, s, 1), { n: 7, e: 4, s: 1, w: 5 });
  });
});
