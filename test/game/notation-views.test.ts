import { strict as assert } from "node:assert";
import { newGame, notationOf, parseMove, seatView, spectatorView, unseenCards, determinize, opponentChampionInHand, CHAMPIONS, apply } from "../../src/engine";
import { play, position } from "./helpers";

describe("Unit: notation", () => {
  it("writes the capture count only when something was flipped", () => {
    assert.equal(notationOf("E7", "b3", 0), "E7@b3");
    assert.equal(notationOf("E7", "b3", 2), "E7@b3x2");
  });

  it("parses notation with or without captures, case-insensitively", () => {
    const s = position({ board: { b2: "S1:B" }, hands: { A: ["E9", "E10"] } });
    assert.deepEqual(parseMove(s, "E9@b1"), { card: "E9", square: "b1" });
    assert.deepEqual(parseMove(s, "e9@B1x1"), { card: "E9", square: "b1" });
    assert.deepEqual(parseMove(s, "E10@d4"), { card: "E10", square: "d4" });
  });

  it("refuses a wrong capture count, an illegal move and malformed text", () => {
    const s = position({ board: { b2: "S1:B" }, hands: { A: ["E9"] } });
    const code = (t: string) => {
      const r = parseMove(s, t);
      return "ok" in r ? r.code : "parsed";
    };
    assert.equal(code("E9@b1x2"), "illegal_move");
    assert.equal(code("E9@a4x1"), "illegal_move");
    assert.equal(code("E1@b1"), "illegal_move");
    assert.equal(code("E9@b2"), "illegal_move");
    for (const bad of ["", "E9", "E9@", "E9@e1", "@b1", "E9@b1x", "E9 b1", "9E@b1", "E9@b1x2x"]) assert.equal(code(bad), "bad_request", bad);
    assert.equal((parseMove(s, 42 as unknown as string) as { code: string }).code, "bad_request");
  });
});

describe("Unit: views", () => {
  const game = () => {
    const s = newGame({ ruleset: "mutators", champions: { A: "knight", B: "herald" } }, 987654321, "secret-salt-xyz");
    return play(s, s.hands[s.turn][0], "b2").state;
  };

  it("shows a seat its own hand and only counts for the other hand and the pile", () => {
    const s = game();
    const v = seatView(s, "A");
    assert.deepEqual(
      v.hand.map((c) => c.id),
      s.hands.A,
    );
    assert.deepEqual(v.hands, { A: s.hands.A.length, B: s.hands.B.length });
    assert.equal(v.pile, s.pile.length);
    const json = JSON.stringify(v);
    for (const id of [...s.hands.B, ...s.pile]) if (!s.hands.A.includes(id)) assert.ok(!json.includes(`"${id}"`), id);
    assert.ok(!json.includes("987654321") && !json.includes("secret-salt-xyz"));
    assert.equal(v.commitment, s.commitment);
    assert.deepEqual(
      v.history,
      s.moves.map((m) => m.notation),
    );
  });

  it("shows a spectator no hand at all", () => {
    const s = game();
    const v = spectatorView(s) as unknown as Record<string, unknown>;
    assert.equal(v.hand, undefined);
    const json = JSON.stringify(v);
    for (const id of [...s.hands.A, ...s.hands.B, ...s.pile]) assert.ok(!json.includes(`"${id}"`), id);
  });

  it("adds decidedBy only once the game is over", () => {
    const s = game();
    assert.ok(!("decidedBy" in spectatorView(s)));
    const over = apply(s, { kind: "resign", seat: "B" });
    assert.ok(over.ok);
    assert.equal(spectatorView(over.state).decidedBy, "resignation");
  });
});

describe("Unit: determinization", () => {
  it("lists the cards a seat cannot locate, leaving out champions", () => {
    const s = newGame({ ruleset: "classic", champions: { A: "knight", B: "herald" } }, 5, "d");
    const v = seatView(s, "A");
    const unseen = unseenCards(v);
    assert.deepEqual([...unseen].sort(), [...s.hands.B.filter((c) => c !== CHAMPIONS.herald.id), ...s.pile].sort());
    assert.equal(opponentChampionInHand(v), CHAMPIONS.herald.id);
  });

  it("builds a playable state with the guess and puts the unplaced opponent champion back", () => {
    let s = newGame({ ruleset: "mutators", champions: { A: "knight", B: "herald" } }, 11, "d");
    s = play(s, s.hands[s.turn][0], "a1").state;
    s = play(s, s.hands[s.turn][0], "d4").state;
    const v = seatView(s, "A");
    const oppHand = s.hands.B.filter((c) => c !== CHAMPIONS.herald.id);
    const d = determinize(v, oppHand, s.pile);
    assert.deepEqual(d.board, s.board);
    assert.deepEqual([...d.hands.B].sort(), [...s.hands.B].sort());
    assert.deepEqual(d.hands.A, s.hands.A);
    assert.equal(d.turn, s.turn);
    assert.deepEqual(
      d.moves.map((m) => m.notation),
      s.moves.map((m) => m.notation),
    );
    const mover = d.turn;
    const res = apply(d, { kind: "place", card: d.hands[mover][0], square: "b2" });
    const real = apply({ ...s, hands: { A: s.hands.A, B: d.hands.B } }, { kind: "place", card: d.hands[mover][0], square: "b2" });
    assert.ok(res.ok && real.ok);
    assert.deepEqual(res.state.board, real.state.board);
  });
});
