import { strict as assert } from "node:assert";
import { CHAMPIONS, CATALOGUE, cardById } from "../../src/engine";
import { capturesOf, ownerAt, play, position } from "./helpers";

describe("Unit: champions", () => {
  it("has six champions with distinct ids outside the catalogue", () => {
    const ids = Object.values(CHAMPIONS).map((c) => c.id);
    assert.equal(new Set(ids).size, 6);
    for (const [name, c] of Object.entries(CHAMPIONS)) {
      assert.equal(c.champion, name);
      assert.ok(!CATALOGUE.some((k) => k.id === c.id));
      assert.equal(cardById(c.id), c);
    }
  });

  it("lets the knight attack knight-jump squares by totals wherever it is placed", () => {
    const s = position({ board: { b3: "S1:B", c2: "S10:B" }, hands: { A: ["K1"] } });
    assert.deepEqual(capturesOf(play(s, "K1", "a1")), { b3: "knight" });
  });

  it("never lets the bastion be captured, by any rule", () => {
    const basic = position({ board: { b2: "K2:B" }, hands: { A: ["E9"] } });
    assert.deepEqual(capturesOf(play(basic, "E9", "b1")), {});
    const chess = position({ board: { c3: "K2:B" }, hands: { A: ["S10"] }, chessTiles: [{ square: "a1", piece: "bishop" }] });
    assert.deepEqual(capturesOf(play(chess, "S10", "a1")), {});
    const same = position({ board: { b3: "K2:B", c2: "S1:B" }, hands: { A: ["S1"] }, mutators: ["same"] });
    assert.deepEqual(capturesOf(play(same, "S1", "b2")), { c2: "same" });
    const combo = position({ board: { b2: "S1:B", b3: "K2:B" }, hands: { A: ["E9"] }, mutators: ["combo"] });
    const res = play(combo, "E9", "b1");
    assert.deepEqual(capturesOf(res), { b2: "basic" });
    assert.equal(ownerAt(res.state, "b3"), "B");
  });

  it("lets the usurper capture on equal ranks", () => {
    // K3 n6 against E6 s6; E1 also has n6 but is not a usurper.
    const s = position({ board: { b2: "E6:B" }, hands: { A: ["K3", "E1"] } });
    assert.deepEqual(capturesOf(play(s, "K3", "b1")), { b2: "basic" });
    assert.deepEqual(capturesOf(play(s, "E1", "b1")), {});
  });

  it("draws one extra card for the herald's owner", () => {
    const s = position({ hands: { A: ["K4", "E1"] }, pile: ["S1", "S2", "S3"] });
    const res = play(s, "K4", "a1");
    assert.deepEqual(res.state.hands.A, ["E1", "S1", "S2"]);
    assert.deepEqual(res.state.pile, ["S3"]);
    assert.deepEqual(
      res.events.find((e) => e.type === "drew"),
      { type: "drew", seat: "A", count: 2 },
    );
  });

  it("draws only what is left when the pile runs low", () => {
    const s = position({ hands: { A: ["K4"] }, pile: ["S1"] });
    const res = play(s, "K4", "a1");
    assert.deepEqual(res.state.hands.A, ["S1"]);
    const empty = play(position({ hands: { A: ["E1"] } }), "E1", "a1");
    assert.ok(!empty.events.some((e) => e.type === "drew"));
  });

  it("lifts adjacent cards of the tidecaller's element by 1, in defence and attack", () => {
    // E3 n7 against T1 s6 captures, but not once the tidecaller on a2 lifts T1 to s7.
    const bare = position({ board: { b2: "T1:B" }, hands: { A: ["E3"] } });
    assert.deepEqual(capturesOf(play(bare, "E3", "b1")), { b2: "basic" });
    const lifted = position({ board: { b2: "T1:B", a2: "K5:A" }, hands: { A: ["E3"] } });
    assert.deepEqual(capturesOf(play(lifted, "E3", "b1")), {});
    // T6 n6 against E6 s6: only the lift next to the tidecaller on a1 makes it 7.
    const attack = position({ board: { b2: "E6:B", a1: "K5:A" }, hands: { A: ["T6"] } });
    assert.deepEqual(capturesOf(play(attack, "T6", "b1")), { b2: "basic" });
    const noLift = position({ board: { b2: "E6:B" }, hands: { A: ["T6"] } });
    assert.deepEqual(capturesOf(play(noLift, "T6", "b1")), {});
  });

  it("lets the reaver ignore reverse on its own placement", () => {
    const s = position({ board: { b2: "S1:B" }, hands: { A: ["K6", "E9"] }, mutators: ["reverse"] });
    assert.deepEqual(capturesOf(play(s, "K6", "b1")), { b2: "basic" }); // n7 > s4 despite reverse
    assert.deepEqual(capturesOf(play(s, "E9", "b1")), {});
  });

  it("lets the reaver ignore the elemental penalty on its own placement", () => {
    const spec = { board: { b2: "E6:B" }, mutators: ["elemental" as const], squareElements: [{ square: "b1", element: "stone" as const }] };
    assert.deepEqual(capturesOf(play(position({ ...spec, hands: { A: ["K6"] } }), "K6", "b1")), { b2: "basic" }); // 7 > 6
    assert.deepEqual(capturesOf(play(position({ ...spec, hands: { A: ["E3"] } }), "E3", "b1")), {}); // 7 - 1 = 6
  });
});
