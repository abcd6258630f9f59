import { strict as assert } from "node:assert";
import fc from "fast-check";
import { arenaPoints, arenaScore, newArenaPlayer, pairArena, recordResult, type ArenaPlayer, type ArenaResult } from "../../src/services/tournaments/arena";

const result = fc.constantFrom<ArenaResult>("win", "draw", "loss");

const pool = fc
  .array(
    fc.record({
      rating: fc.integer({ min: 1000, max: 2500 }),
      score: fc.nat(40),
      last: fc.option(fc.nat(19), { nil: undefined }),
    }),
    { maxLength: 20 },
  )
  .map((rows) =>
    rows.map((r, i): ArenaPlayer => ({
      ...newArenaPlayer(`p${i}`, r.rating),
      score: r.score,
      lastOpponent: r.last === undefined ? undefined : `p${r.last}`,
    })),
  );

describe("Arena scoring", () => {
  it("scores win 2, draw 1, loss 0, and 4 for each win after two in a row until a game is not won", () => {
    assert.equal(arenaScore(["win", "win", "win", "win", "draw", "win", "win", "win", "loss", "win"]), 2 + 2 + 4 + 4 + 1 + 2 + 2 + 4 + 0 + 2);
    assert.equal(arenaPoints("draw", 5), 1);
  });

  it("keeps the running score equal to a replay of the results", () => {
    fc.assert(
      fc.property(fc.array(result, { maxLength: 40 }), (results) => {
        let p = newArenaPlayer("a", 1500);
        for (const r of results) p = recordResult(p, "b", r);
        assert.equal(p.score, arenaScore(results));
        // Independent count: a win is doubled exactly when the two games before it were wins in the current run.
        let expected = 0;
        results.forEach((r, i) => {
          const onFire = i >= 2 && results.slice(0, i).lastIndexOf("draw") < i - 2 && results.slice(0, i).lastIndexOf("loss") < i - 2;
          expected += r === "win" ? (onFire ? 4 : 2) : r === "draw" ? 1 : 0;
        });
        assert.equal(p.score, expected);
      }),
    );
  });
});

describe("Arena pairing", () => {
  it("pairs each waiting player at most once and never with the previous opponent", () => {
    fc.assert(
      fc.property(pool, (waiting) => {
        const { pairs, left } = pairArena(waiting);
        const ids = [...pairs.flat().map((p) => p.id), ...left.map((p) => p.id)];
        assert.deepEqual([...ids].sort(), waiting.map((p) => p.id).sort());
        for (const [a, b] of pairs) {
          assert.notEqual(a.lastOpponent, b.id);
          assert.notEqual(b.lastOpponent, a.id);
        }
      }),
    );
  });

  it("leaves nobody waiting who could play someone else left waiting", () => {
    fc.assert(
      fc.property(pool, (waiting) => {
        const { left } = pairArena(waiting);
        for (const a of left) {
          for (const b of left) {
            if (a !== b) assert.ok(a.lastOpponent === b.id || b.lastOpponent === a.id, `${a.id} and ${b.id} both wait`);
          }
        }
      }),
    );
  });

  it("gives the longest-waiting player the eligible opponent closest in score, then rating", () => {
    fc.assert(
      fc.property(pool, (waiting) => {
        const { pairs } = pairArena(waiting);
        if (pairs.length === 0 || pairs[0][0] !== waiting[0]) return;
        const [p, q] = pairs[0];
        for (const r of waiting.slice(1)) {
          if (r.lastOpponent === p.id || p.lastOpponent === r.id) continue;
          const better =
            Math.abs(r.score - p.score) < Math.abs(q.score - p.score) ||
            (Math.abs(r.score - p.score) === Math.abs(q.score - p.score) && Math.abs(r.rating - p.rating) < Math.abs(q.rating - p.rating));
          assert.ok(!better, `${r.id} was closer than ${q.id}`);
        }
      }),
    );
  });

  it("pairs a player who just finished at once when an eligible player waits", () => {
    let a = newArenaPlayer("a", 1500);
    let b = newArenaPlayer("b", 1500);
    const c = newArenaPlayer("c", 1500);
    a = recordResult(a, "b", "win");
    b = recordResult(b, "a", "loss");
    assert.deepEqual(
      pairArena([c, a]).pairs.map(([x, y]) => [x.id, y.id]),
      [["c", "a"]],
    );
    assert.equal(pairArena([a, b]).pairs.length, 0);
  });
});
