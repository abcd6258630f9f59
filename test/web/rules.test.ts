/**
 * The rules page states the engine's current rules: its version, the hands each seat starts with in each
 * ruleset, and who wins a tied full board are read from the page in a real browser and compared with games
 * the engine itself deals and plays; the plus mutator is explained with its equal sums.
 */
import assert from "node:assert/strict";
import { apply, CURRENT_RULES_VERSION, legalMoves, newGame, type GameState, type Ruleset } from "../../src/engine";
import { rulesOf } from "../../src/engine/versions";
import { browserSuite, openPage, screenshots } from "./browser";

/** The first and second mover's starting hands over many deals (always the same pair, or the test says so). */
function dealtHands(ruleset: Ruleset): { first: number; second: number } {
  const seen = new Set<string>();
  for (let seed = 0; seed < 40; seed++) {
    const g = newGame({ ruleset }, seed, "rules-page");
    const second = g.firstPlayer === "A" ? "B" : "A";
    seen.add(`${g.hands[g.firstPlayer].length}/${g.hands[second].length}`);
  }
  assert.equal(seen.size, 1, `${ruleset} deals differ: ${[...seen].join(", ")}`);
  const [first, second] = [...seen][0].split("/").map(Number);
  return { first, second };
}

/** A full board with equal scores, played by the engine: who it gave the game to, as the page words it. */
function tieRule(): string {
  for (let seed = 0; seed < 5000; seed++) {
    let g: GameState = newGame({ ruleset: "classic" }, seed, "tie");
    while (g.status === "active") {
      const res = apply(g, { kind: "place", ...legalMoves(g)[(seed + g.moves.length) % legalMoves(g).length] });
      assert.ok(res.ok);
      g = res.state;
    }
    if (g.score.A !== g.score.B) continue;
    return g.winner === g.firstPlayer ? "with equal scores the seat that moved first wins" : "equal scores are a draw";
  }
  throw new Error("no tied game in 5000 deals");
}

describe("Browser: the rules page states the engine's rules", function () {
  this.timeout(90_000);
  const suite = browserSuite({ houseDelayMs: 0 });

  it("names the current rules version, the starting hands per ruleset and the tie rule as the engine plays them", async () => {
    const page = await openPage(suite.browser, suite.errors);
    await page.goto(`${suite.server.url}/rules`);
    await page.waitForSelector("main[data-ready='true']");
    const figure = async (name: string) => {
      const texts = await page.locator(`[data-rule='${name}']`).allTextContents();
      assert.ok(texts.length > 0, name);
      assert.equal(new Set(texts).size, 1, `${name} says different things: ${texts.join(" | ")}`);
      return texts[0];
    };
    assert.equal(await figure("version"), String(CURRENT_RULES_VERSION));
    const classic = dealtHands("classic");
    const mutators = dealtHands("mutators");
    assert.equal(await figure("first-classic"), String(classic.first));
    assert.equal(await figure("first-mutators"), String(mutators.first));
    assert.equal(await figure("second"), String(classic.second));
    assert.equal(mutators.second, classic.second);
    assert.equal(await figure("tie"), tieRule());
    // The mutators the game's last placement goes without, as the version's table has them.
    const without = rulesOf(CURRENT_RULES_VERSION).lastPlacementWithout;
    const last = await figure("last-without");
    if (without.length) assert.equal(last, `The game's last placement (the 16th) is resolved without ${without.join(" and ")}.`);
    else assert.equal(last, "");
    if (process.env.WEB_FIGURES)
      console.log(
        `      version ${CURRENT_RULES_VERSION}: classic ${classic.first}/${classic.second}, mutators ${mutators.first}/${mutators.second}; tie: ${tieRule()}; last placement without: ${without.join(", ") || "nothing"}`,
      );
    // Plus is explained by the sums that are equal, each written out.
    const plus = (await page.locator("figure[data-example='plus'] figcaption").textContent()) ?? "";
    const sums = [...plus.matchAll(/(\d+)\+(\d+) with/g)].map((m) => Number(m[1]) + Number(m[2]));
    assert.ok(sums.length >= 2 && sums.every((s) => s === sums[0]), plus);
    assert.match(plus, new RegExp(`\\(each ${sums[0]}\\)`));
    await screenshots(page, "rules");
  });
});
