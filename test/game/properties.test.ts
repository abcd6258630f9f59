import { strict as assert } from "node:assert";
import fc from "fast-check";
import { IDS, fromState, place, simMoves, squareName, type Sim } from "../../src/services/ai/sim";
import {
  apply,
  buildReplay,
  legalMoves,
  newGame,
  parseMove,
  rebuild,
  RULES_VERSIONS,
  seatView,
  spectatorView,
  verifyReplay,
  type GameState,
  type Replay,
  type Ruleset,
  type RulesVersion,
} from "../../src/engine";

/**
 * A game driven by fast-check: a seed, a ruleset, a rules version (every version still replays, so every one
 * keeps its properties) and a list of choices indexing into the legal moves.
 */
const gameArb = fc.record({
  seed: fc.integer({ min: 1_000_000, max: 2 ** 31 - 1 }),
  salt: fc.string({ minLength: 12, maxLength: 12, unit: fc.constantFrom(..."0123456789abcdef") }),
  ruleset: fc.constantFrom<Ruleset>("classic", "mutators"),
  rulesVersion: fc.constantFrom<RulesVersion>(...RULES_VERSIONS),
  choices: fc.array(fc.nat(), { minLength: 16, maxLength: 16 }),
  resignAt: fc.option(fc.integer({ min: 0, max: 15 }), { nil: null }),
});

interface GameSpec {
  seed: number;
  salt: string;
  ruleset: Ruleset;
  rulesVersion: RulesVersion;
  choices: number[];
  resignAt: number | null;
}

function run(g: GameSpec, onState?: (s: GameState) => void): GameState {
  let s = newGame({ ruleset: g.ruleset, rulesVersion: g.rulesVersion }, g.seed, g.salt);
  for (let i = 0; i < 16 && s.status === "active"; i++) {
    onState?.(s);
    if (g.resignAt === i) {
      const r = apply(s, { kind: "resign", seat: g.choices[i] % 2 === 0 ? "A" : "B" });
      assert.ok(r.ok);
      s = r.state;
      break;
    }
    const ms = legalMoves(s);
    const r = apply(s, { kind: "place", ...ms[g.choices[i] % ms.length] });
    assert.ok(r.ok);
    s = r.state;
  }
  return s;
}

describe("Unit: engine properties", () => {
  it("ends every game after 16 placements unless someone resigned", () => {
    fc.assert(
      fc.property(gameArb, (g) => {
        const s = run(g);
        assert.equal(s.status, "finished");
        if (s.decidedBy === "board_full") assert.equal(s.moves.length, 16);
        else assert.equal(s.decidedBy, "resignation");
      }),
      { numRuns: 150 },
    );
  });

  it("keeps the scores summing to the cards on the board after every move", () => {
    fc.assert(
      fc.property(gameArb, (g) => {
        let s = newGame({ ruleset: g.ruleset, rulesVersion: g.rulesVersion }, g.seed, g.salt);
        for (const a of run(g).actions) {
          const r = apply(s, a);
          assert.ok(r.ok);
          s = r.state;
          if (!r.move) continue;
          assert.equal(r.move.score.A + r.move.score.B, s.board.filter((c) => c !== null).length);
          assert.equal(s.board.filter((c) => c !== null).length, r.move.n);
        }
      }),
      { numRuns: 100 },
    );
  });

  it("rebuilds the identical state from the same seed and actions", () => {
    fc.assert(
      fc.property(gameArb, (g) => {
        const s = run(g);
        const r = rebuild({ ruleset: s.ruleset, seed: s.seed, salt: s.salt, options: s.options }, s.actions);
        assert.ok(r.ok);
        assert.deepEqual(r.state, s);
      }),
      { numRuns: 100 },
    );
  });

  it("never shows a hidden card, the seed or the salt in a view before the end", () => {
    fc.assert(
      fc.property(gameArb, (g) => {
        run(g, (s) => {
          const spectator = JSON.stringify(spectatorView(s));
          for (const seat of ["A", "B"] as const) {
            const json = JSON.stringify(seatView(s, seat));
            const own = new Set(s.hands[seat]);
            const hidden = [...s.hands[seat === "A" ? "B" : "A"], ...s.pile].filter((c) => !own.has(c));
            for (const id of hidden) assert.ok(!json.includes(`"${id}"`), `${seat} sees ${id}`);
            assert.ok(!json.includes(String(s.seed)) && !json.includes(s.salt));
          }
          for (const id of [...s.hands.A, ...s.hands.B, ...s.pile]) assert.ok(!spectator.includes(`"${id}"`));
          assert.ok(!spectator.includes(String(s.seed)) && !spectator.includes(s.salt));
        });
      }),
      { numRuns: 60 },
    );
  });

  it("round-trips every recorded notation through parseMove", () => {
    fc.assert(
      fc.property(gameArb, (g) => {
        let s = newGame({ ruleset: g.ruleset, rulesVersion: g.rulesVersion }, g.seed, g.salt);
        for (const c of g.choices) {
          const ms = legalMoves(s);
          const r = apply(s, { kind: "place", ...ms[c % ms.length] });
          assert.ok(r.ok);
          assert.deepEqual(parseMove(s, r.move!.notation), { card: r.move!.card, square: r.move!.square });
          assert.deepEqual(parseMove(s, `${r.move!.card}@${r.move!.square}`), { card: r.move!.card, square: r.move!.square });
          s = r.state;
        }
      }),
      { numRuns: 60 },
    );
  });
});

/** Every single-field change of a replay that re-simulation can detect, as [path, mutated replay]. */
function tamperings(rep: Replay): Array<[string, Replay]> {
  const out: Array<[string, Replay]> = [];
  const variant = (path: string, f: (r: Replay) => void) => {
    const c = structuredClone(rep);
    f(c);
    out.push([path, c]);
  };
  const other = (s: "A" | "B") => (s === "A" ? "B" : "A");
  variant("ruleset", (r) => {
    r.ruleset = r.ruleset === "classic" ? "mutators" : "classic";
  });
  // Another seed of the same form: an integer before rules version 4, its last hex digit changed from it.
  variant("seed", (r) => {
    r.seed = typeof r.seed === "number" ? (r.seed + 1) % 2 ** 31 : r.seed.replace(/.$/, (c) => (c === "0" ? "1" : "0"));
  });
  variant("salt", (r) => {
    r.salt += "0";
  });
  variant("commitment", (r) => {
    r.commitment = r.commitment.replace(/^./, (c) => (c === "0" ? "1" : "0"));
  });
  variant("firstPlayer", (r) => {
    r.firstPlayer = other(r.firstPlayer);
  });
  variant("score", (r) => {
    r.score.A += 1;
  });
  variant("moveCount", (r) => {
    r.moveCount += 1;
  });
  variant("winner", (r) => {
    r.winner = r.winner === "A" ? "B" : "A";
  });
  variant("decidedBy", (r) => {
    r.decidedBy = r.decidedBy === "timeout" ? "resignation" : "timeout";
  });
  variant("chessTiles", (r) => {
    r.chessTiles[0].piece = r.chessTiles[0].piece === "king" ? "queen" : "king";
  });
  variant("mutators", (r) => {
    r.mutators = r.mutators.length ? [r.mutators[1], r.mutators[0]] : ["same", "plus"];
  });
  variant("champions", (r) => {
    r.champions.A = r.champions.A === "knight" ? "bastion" : "knight";
  });
  variant("finalHands", (r) => {
    r.finalHands!.A = [...r.finalHands!.A].reverse().concat("E1");
  });
  if (rep.squareElements.length)
    variant("squareElements", (r) => {
      r.squareElements[0].element = r.squareElements[0].element === "tide" ? "gale" : "tide";
    });
  if (rep.endings.length)
    variant("endings", (r) => {
      r.endings[0].after += 1;
    });
  rep.moves.forEach((m, i) => {
    variant(`moves[${i}].n`, (r) => {
      r.moves[i].n += 1;
    });
    variant(`moves[${i}].seat`, (r) => {
      r.moves[i].seat = other(m.seat);
    });
    variant(`moves[${i}].name`, (r) => {
      r.moves[i].name += "!";
    });
    variant(`moves[${i}].notation`, (r) => {
      r.moves[i].notation += "x9";
    });
    variant(`moves[${i}].captures`, (r) => {
      r.moves[i].captures += 1;
    });
    variant(`moves[${i}].score`, (r) => {
      r.moves[i].score.B += 1;
    });
    variant(`moves[${i}].card`, (r) => {
      r.moves[i].card = "Z1";
    });
    variant(`moves[${i}].square`, (r) => {
      r.moves[i].square = r.moves[i].square === "a1" ? "b1" : "a1";
    });
    variant(`moves[${i}].board.owner`, (r) => {
      const c = r.moves[i].board[0];
      c.owner = other(c.owner);
    });
    variant(`moves[${i}].board.ranks`, (r) => {
      r.moves[i].board[0].ranks.n += 1;
    });
  });
  return out;
}

describe("Unit: replays", () => {
  it("verifies every finished game's replay and refuses every single-field tampering", () => {
    fc.assert(
      fc.property(gameArb, (g) => {
        const s = run(g);
        const rep = buildReplay(s, { id: "g_1", players: { A: "p1", B: "p2" }, replayUrl: "https://x/r/g_1" });
        assert.deepEqual(verifyReplay(rep), { ok: true });
        assert.deepEqual(verifyReplay(JSON.parse(JSON.stringify(rep))), { ok: true });
        for (const [path, bad] of tamperings(rep)) {
          const v = verifyReplay(bad);
          assert.equal(v.ok, false, `tampered ${path} was accepted`);
        }
      }),
      { numRuns: 25 },
    );
  });

  it("names the first move that does not match", () => {
    const s = run({
      seed: 1234567,
      salt: "abcdefabcdef",
      ruleset: "classic",
      rulesVersion: 3,
      choices: Array.from({ length: 16 }, (_, i) => i * 3),
      resignAt: null,
    });
    const rep = buildReplay(s, { id: "g", players: { A: "a", B: "b" }, replayUrl: "u" });
    rep.moves[6].score = { A: 0, B: 0 };
    rep.moves[9].name = "Nobody";
    assert.deepEqual(verifyReplay(rep), { ok: false, move: 7, field: "score", detail: `expected ${JSON.stringify(s.moves[6].score)}` });
  });

  it("refuses non-replays without throwing and throws for an unfinished game", () => {
    for (const junk of [null, 3, "x", [], {}, { moves: "no" }]) assert.equal(verifyReplay(junk).ok, false);
    const s = newGame({ ruleset: "classic" }, 1, "x");
    assert.throws(() => buildReplay(s, { id: "g", players: { A: "a", B: "b" }, replayUrl: "u" }));
  });
});

/**
 * The same properties in the search representation (src/services/ai/sim), which the house opponent and the review
 * search with: a game driven by the same choices ends after 16 placements, keeps the scores summing to the
 * cards on the board, never loses or duplicates a card, is deterministic, and agrees with the engine.
 */
describe("Unit: engine properties in the search representation", () => {
  const simRun = (g: GameSpec, onStep?: (sim: Sim, engine: GameState) => void): Sim => {
    let s = newGame({ ruleset: g.ruleset, rulesVersion: g.rulesVersion }, g.seed, g.salt);
    const { rules, sim: start } = fromState(s);
    let sim = start;
    for (let i = 0; i < 16; i++) {
      const moves = simMoves(sim);
      const [c, sq] = moves[g.choices[i] % moves.length];
      sim = place(sim, rules, c, sq);
      const r = apply(s, { kind: "place", card: IDS[c], square: squareName(sq) });
      assert.ok(r.ok);
      s = r.state;
      onStep?.(sim, s);
    }
    return sim;
  };

  it("fills the board in 16 placements with the scores summing to the cards placed, every card kept once", () => {
    fc.assert(
      fc.property(gameArb, (g) => {
        let placed = 0;
        const end = simRun(g, (sim) => {
          placed++;
          assert.equal(sim.score[0] + sim.score[1], placed);
          assert.equal(sim.empty, 16 - placed);
          const all = [...sim.cards.filter((c) => c >= 0), ...sim.hands[0], ...sim.hands[1]];
          assert.equal(new Set(all).size, all.length);
        });
        assert.equal(end.empty, 0);
        assert.deepEqual(simMoves(end), []);
      }),
      { numRuns: 100 },
    );
  });

  it("is deterministic and agrees with the engine's board, score and turn after every placement", () => {
    fc.assert(
      fc.property(gameArb, (g) => {
        const a = simRun(g, (sim, s) => {
          const fresh = fromState(s).sim;
          assert.deepEqual(sim.cards, fresh.cards);
          assert.deepEqual(
            sim.cards.map((c, i) => (c >= 0 ? sim.owner[i] : -1)),
            fresh.cards.map((c, i) => (c >= 0 ? fresh.owner[i] : -1)),
          );
          assert.deepEqual(sim.score, [s.score.A, s.score.B]);
          assert.equal(sim.turn, s.turn === "A" ? 0 : 1);
        });
        assert.deepEqual(simRun(g), a);
      }),
      { numRuns: 100 },
    );
  });
});
