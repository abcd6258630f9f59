/**
 * The review page in a real browser: a legend with a colour per mark kind, swings in cards, an evaluation
 * graph over the moves, moves paired by turn, and the current replay row, every other row and the legend
 * readable at WCAG AA (4.5:1), computed from the page's computed styles at every step (WEB_FIGURES=1 prints
 * the lowest ratios).
 */
import assert from "node:assert/strict";
import { playRest } from "../support/play";
import { http } from "../support/server";
import { browserSuite, openPage, screenshots } from "./browser";
import { lowestContrast } from "./checks";

describe("Browser: the review page", function () {
  this.timeout(120_000);
  const suite = browserSuite({ houseDelayMs: 0 });

  it("shows a legend, an evaluation graph and paired moves, with the current row at 4.5:1 or more", async () => {
    const g = await http(suite.server.url, "POST", "/api/v1/games", { opponent: "house", level: "easy", name: "Rex" });
    await playRest(suite.server.url, g.json.game.id, g.json.playerToken);
    const page = await openPage(suite.browser, suite.errors);
    await page.goto(`${suite.server.url}/review/${g.json.game.id}`);
    await page.waitForSelector("#verify[data-verified='true']");
    await page.waitForSelector("#legend");

    // One colour per mark kind, named in the legend.
    const legend = await page.locator("#legend .mark").evaluateAll((marks) => marks.map((m) => [m.className, getComputedStyle(m).backgroundColor]));
    assert.deepEqual(
      legend.map(([c]) => c),
      ["mark best", "mark inaccuracy", "mark mistake", "mark blunder"],
    );
    assert.equal(new Set(legend.map(([, bg]) => bg)).size, 4, JSON.stringify(legend));
    // Moves by turn: eight rows of two.
    assert.equal(await page.locator("#move-list > li").count(), 8);
    assert.equal(await page.locator("#move-list > li:first-child button").count(), 2);
    assert.equal(await page.locator("#move-list button").count(), 16);
    // The graph has a point per move and steps the board when one is clicked.
    assert.equal(await page.locator(".eval-graph .eval-dot").count(), 16);
    await page.locator(".eval-graph .eval-dot[data-step='5']").dispatchEvent("click");
    assert.equal(await page.getAttribute("body", "data-step"), "5");
    // Swings are said in cards, never as raw decimals.
    for (const t of await page.locator("#move-list button[title]").evaluateAll((bs) => bs.map((b) => b.getAttribute("title") ?? ""))) {
      assert.ok(/^Best: \S+ \([\d.]+ cards? given away\)$/.test(t) || t === "The best move found", t);
    }

    // The test runner compiles named inner functions with esbuild's __name helper, which the page lacks.
    await page.evaluate("globalThis.__name = (f) => f");
    let current = Infinity;
    let rows = Infinity;
    for (let step = 1; step <= 16; step++) {
      await page.keyboard.press(step === 1 ? "Home" : "ArrowRight");
      if (step === 1) await page.keyboard.press("ArrowRight");
      const worst = await page.evaluate(lowestContrast, "#move-list button[aria-current='step']");
      assert.ok(worst.ratio >= 4.5, `step ${step}: contrast ${worst.ratio.toFixed(2)} at ${worst.where}`);
      // Every other row (numbers, moves, marks) too, whichever row is current.
      const list = await page.evaluate(lowestContrast, "#move-list");
      assert.ok(list.ratio >= 4.5, `step ${step}: the move list's contrast ${list.ratio.toFixed(2)} at ${list.where}`);
      [current, rows] = [Math.min(current, worst.ratio), Math.min(rows, list.ratio)];
    }
    const legendText = await page.evaluate(lowestContrast, "#legend");
    assert.ok(legendText.ratio >= 4.5, `the legend's contrast ${legendText.ratio.toFixed(2)} at ${legendText.where}`);
    if (process.env.WEB_FIGURES)
      console.log(`      lowest contrast: current row ${current.toFixed(2)}:1, any row ${rows.toFixed(2)}:1, legend ${legendText.ratio.toFixed(2)}:1`);
    await screenshots(page, "review");
  });
});
