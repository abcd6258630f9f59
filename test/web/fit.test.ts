/**
 * The game page fits one screen: at a laptop's 1280x800 and a phone's 390x844 the board and the hand (and
 * the clocks and the move list) stay inside the viewport through a whole game against the house, without
 * scrolling; the tab title and icon mark the player's turn, and neither the turn line, an outage's banner
 * nor the end panel moves or resizes the board.
 * Viewport screenshots are kept under test-artifacts/web (git-ignored); WEB_FIGURES=1 prints the boxes.
 */
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { browserSuite, SHOTS_DIR } from "./browser";

const SIZES = { laptop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

async function boxOf(page: Page, selector: string): Promise<Box> {
  const box = await page.locator(selector).boundingBox();
  assert.ok(box, `${selector} is not displayed`);
  return box;
}

async function assertInView(page: Page, selector: string, when: string): Promise<Box> {
  const box = await boxOf(page, selector);
  const { width, height } = page.viewportSize()!;
  const at = `${selector} ${when}: ${JSON.stringify(box)} in ${width}x${height}`;
  assert.ok(box.x >= 0 && box.y >= 0, at);
  assert.ok(box.x + box.width <= width + 0.5 && box.y + box.height <= height + 0.5, at);
  return box;
}

async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: join(SHOTS_DIR, `${name}.png`) });
}

describe("Browser: the game page fits one screen", function () {
  this.timeout(120_000);
  const suite = browserSuite({ houseDelayMs: 0 });

  for (const [label, viewport] of Object.entries(SIZES)) {
    it(`keeps the board, hand, clocks and moves in view through a whole game at ${viewport.width}x${viewport.height}`, async () => {
      const context = await suite.browser.newContext({ viewport, hasTouch: label === "phone", isMobile: label === "phone" });
      const page = await context.newPage();
      page.on("pageerror", (e) => suite.errors.push(`pageerror: ${e.message}`));
      page.on("console", (m) => void (m.type() === "error" && suite.errors.push(`console: ${m.text()}`)));
      await page.goto(suite.server.url + "/");
      await page.getByLabel("Your name").fill("Fit");
      await page.locator("#house-level").selectOption("easy");
      await page.locator("#house-ruleset").selectOption("mutators");
      await page.getByRole("button", { name: "Play the house" }).click();
      await page.waitForSelector("body[data-status='active'] #hand .card");
      await shot(page, `fit-${label}-start`);

      let moves = 0;
      let boardBox: Box | null = null;
      let sawTurnMark = false;
      /** The lowest bottom edge of the board, hand, moves and score seen before any move. */
      const lowest = [0, 0, 0, 0];
      while ((await page.getAttribute("body", "data-status")) !== "finished") {
        if ((await page.getAttribute("body", "data-your-turn")) !== "true") {
          await page.waitForTimeout(50);
          continue;
        }
        // The turn is in the tab's title and icon, and everything a move needs is on screen.
        assert.match(await page.title(), /^● Your turn/);
        assert.equal(await page.getAttribute("body", "data-turn-icon"), "true");
        assert.match((await page.getAttribute("link[rel='icon']", "href")) ?? "", /^data:image\/svg\+xml,/);
        sawTurnMark = true;
        const when = `before move ${moves + 1}`;
        const board = await assertInView(page, "#board", when);
        // The board never moves or changes size, whatever the turn line, the captures or the hand say.
        if (boardBox) assert.deepEqual(board, boardBox, `the board moved ${when}`);
        boardBox = board;
        const boxes = [board, await assertInView(page, "#hand", when), await assertInView(page, ".moves-area", when), await assertInView(page, ".score", when)];
        for (const [i, b] of boxes.entries()) lowest[i] = Math.max(lowest[i], b.y + b.height);
        assert.equal(await page.evaluate(() => scrollY), 0, `the page scrolled ${when}`);
        if (moves === 3) await shot(page, `fit-${label}-middle`);
        if (moves === 2) {
          // An outage: the banner floats in view over the page, and the board neither moves nor resizes.
          await context.setOffline(true);
          await page.waitForSelector("#offline:not([hidden])");
          await assertInView(page, "#offline", "offline");
          assert.deepEqual(await boxOf(page, "#board"), board, "the board moved when the banner showed");
          await shot(page, `fit-${label}-offline`);
          await context.setOffline(false);
          await page.waitForSelector("#offline", { state: "hidden" });
          await page.waitForSelector("body[data-your-turn='true']");
          assert.deepEqual(await boxOf(page, "#board"), board, "the board moved after the outage");
        }
        const before = await page.locator("#board .square:not([data-owner=''])").count();
        await page.locator("#hand .card").first().click();
        await page.locator("#board .square[data-owner='']").first().click();
        moves++;
        await page.waitForFunction(
          (n) => document.querySelectorAll("#board .square:not([data-owner=''])").length > n || document.body.dataset.status === "finished",
          before,
        );
      }
      assert.ok(sawTurnMark && moves >= 7, `${moves} moves`);
      assert.doesNotMatch(await page.title(), /Your turn/);
      assert.equal(await page.getAttribute("link[rel='icon']", "href"), "/assets/brand/logo.svg");
      await page.waitForSelector("#end:not([hidden])");
      // The result panel appears beside (or under) the board, which stays where it was, in view.
      await shot(page, `fit-${label}-end`);
      const endBoard = await assertInView(page, "#board", "after the end");
      assert.deepEqual(endBoard, boardBox);
      const endTitle = await assertInView(page, "#end-title", "after the end");
      if (process.env.WEB_FIGURES) {
        const px = (n: number) => Math.round(n);
        console.log(
          `      ${viewport.width}x${viewport.height}, ${moves} moves: board ${JSON.stringify(endBoard)}; lowest bottom edge of board ${px(lowest[0])}, hand ${px(lowest[1])}, moves ${px(lowest[2])}, score ${px(lowest[3])}; end title at y ${px(endTitle.y)}`,
        );
      }
      await context.close();
      // Requests refused while the network was cut are the outage itself.
      suite.errors = suite.errors.filter((e) => !e.includes("ERR_INTERNET_DISCONNECTED"));
    });
  }
});
