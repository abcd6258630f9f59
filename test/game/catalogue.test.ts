import { strict as assert } from "node:assert";
import { CATALOGUE, cardById, legalMoves, newGame, apply, type Element } from "../../src/engine";
import { TIER_BANDS } from "../../src/engine/catalogue";

describe("Unit: catalogue", () => {
  it("holds 40 cards, 10 per element, with unique short codes", () => {
    assert.equal(CATALOGUE.length, 40);
    assert.equal(new Set(CATALOGUE.map((c) => c.id)).size, 40);
    for (const el of ["ember", "tide", "gale", "stone"] as Element[]) {
      assert.equal(CATALOGUE.filter((c) => c.element === el).length, 10);
    }
    for (const c of CATALOGUE) {
      assert.match(c.id, /^[A-Z]\d+$/);
      assert.equal(cardById(c.id), c);
    }
    assert.equal(cardById("Z1"), undefined);
  });

  it("keeps every card's ranks in 1..9 and its total inside its tier's band", () => {
    for (const c of CATALOGUE) {
      const r = [c.ranks.n, c.ranks.e, c.ranks.s, c.ranks.w];
      assert.ok(
        r.every((x) => Number.isInteger(x) && x >= 1 && x <= 9),
        c.id,
      );
      const [lo, hi] = TIER_BANDS[c.tier];
      const total = r.reduce((a, b) => a + b, 0);
      assert.ok(total >= lo && total <= hi, `${c.id} total ${total} outside tier ${c.tier}`);
    }
  });

  it("gives every element about the same share of cards kept in random self-play", () => {
    const kept: Record<string, [number, number]> = {};
    // 1200 games: the rates' spread is then measured within about 0.02 (300 games left it within about 0.04).
    for (let g = 0; g < 1200; g++) {
      let s = newGame({ ruleset: "classic" }, g, "balance");
      let k = g;
      while (s.status === "active") {
        const ms = legalMoves(s);
        k = (k * 1103515245 + 12345) % 2147483648;
        const res = apply(s, { kind: "place", ...ms[k % ms.length] });
        assert.ok(res.ok);
        s = res.state;
      }
      for (const m of s.moves) {
        const def = cardById(m.card)!;
        if (def.champion) continue;
        const cell = s.board.find((c) => c?.card === m.card)!;
        kept[def.element] ??= [0, 0];
        kept[def.element][1]++;
        if (cell.owner === m.seat) kept[def.element][0]++;
      }
    }
    const rates = Object.values(kept).map(([a, b]) => a / b);
    assert.ok(Math.max(...rates) - Math.min(...rates) < 0.06, `element keep rates ${rates.map((r) => r.toFixed(3)).join(",")}`);
  });
});
