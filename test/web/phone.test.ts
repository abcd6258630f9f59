/**
 * The arena's pages read on a phone without sideways scrolling, with the longest names the API accepts: a bot
 * named with one 40-letter word and a 280-character description, entered in a league whose name is one
 *60-letter word, the league started so its page has standings and deals. At 390x844 the page is no wider
 * than the screen, and no table cell, card or table box hides text past its edge; at 1280x800 the bot
 * directory's Leagues column shows the long league name whole. With SCREENSHOTS=1 the test saves the first
 * screen of /leagues, the league page and /bots at both widths into docs/img/ (docs/WEB.md shows them).
 */
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Page } from "playwright-core";
import { bearer, http } from "../support/server";
import { browserSuite, openPage } from "./browser";

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1280, height: 800 };

// One word each, so only a rule that breaks inside words can keep them within a phone's width.
const BOT_NAME = "Superlongunbrokenbotnamethatneverends400".slice(0, 40);
const LEAGUE_NAME = "Extraordinarilylongleaguenamewithoutanyspacesatallforphones1".slice(0, 60);
const DESCRIPTION = `Plays ${"abcdefghij".repeat(8)} and then explains itself at length: `.padEnd(280, "x");

/** Waits two frames, so what the page redraws for a new size is drawn before it is measured. */
const settle = (page: Page) => page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));

/**
 * What reads past its box on the page: the page's own sideways overflow, and every visible table box, table
 * cell and row (a phone's card) whose content is wider than it is.
 */
async function clipped(page: Page): Promise<string[]> {
  await settle(page);
  return page.evaluate(() => {
    const out: string[] = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > doc.clientWidth) out.push(`the page: ${doc.scrollWidth}px in ${doc.clientWidth}px`);
    for (const e of document.querySelectorAll<HTMLElement>("main .table-scroll, main table, main tr, main th, main td")) {
      // A phone's card rows name their columns themselves; the head row is then kept for screen readers only.
      const head = e.closest("thead");
      if (e.offsetParent === null || e.closest("[hidden]") || (head && getComputedStyle(head).position === "absolute")) continue;
      if (e.scrollWidth > e.clientWidth + 1)
        out.push(
          `${e.tagName.toLowerCase()}${e.className ? `.${e.className}` : ""} "${(e.textContent ?? "").slice(0, 30)}": ${e.scrollWidth}px in ${e.clientWidth}px`,
        );
    }
    return out;
  });
}

const shots = resolve(__dirname, "../../docs/img");

/** With SCREENSHOTS=1: the first screen at the viewport's size, as docs/img/phone-<name>-<width>.png. */
async function shot(page: Page, name: string): Promise<void> {
  if (process.env.SCREENSHOTS !== "1") return;
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: join(shots, `phone-${name}-${page.viewportSize()!.width}.png`) });
}

describe("Browser: the arena's pages on a phone, with long names", function () {
  this.timeout(120_000);
  const suite = browserSuite({ houseDelayMs: 0 });

  it("/leagues, a league page and /bots fit 390 px with nothing clipped; /bots shows a long league name whole at 1280 px", async () => {
    const base = suite.server.url;
    const created = await http(base, "POST", "/api/v1/leagues", { name: LEAGUE_NAME, deals: 2, turnSeconds: 60 });
    assert.equal(created.status, 201, created.text);
    const id = created.json.league.id as string;
    for (const [name, description] of [
      [BOT_NAME, DESCRIPTION],
      ["Short bot", "Plays the first legal move."],
    ]) {
      const reg = await http(base, "POST", "/api/v1/bots", { name, description });
      assert.equal(reg.status, 201, reg.text);
      const joined = await http(base, "POST", `/api/v1/leagues/${id}/join`, undefined, bearer(reg.json.key));
      assert.equal(joined.status, 201, joined.text);
    }
    const started = await http(base, "POST", `/api/v1/leagues/${id}/start`, undefined, bearer(created.json.directorToken));
    assert.equal(started.status, 200, started.text);

    const page = await openPage(suite.browser, suite.errors);
    const pages = [
      { name: "leagues", path: "/leagues", ready: `tr[data-id='${id}']` },
      { name: "league", path: `/leagues/${id}`, ready: "#standings tr[data-id] >> nth=0" },
      { name: "bots", path: "/bots", ready: "table.bots-list tr[data-id] >> nth=0" },
    ];
    for (const p of pages) {
      await page.setViewportSize(PHONE);
      await page.goto(`${base}${p.path}`);
      await page.waitForSelector("body[data-ready='true']");
      await page.waitForSelector(p.ready);
      if (p.name === "league") await page.waitForSelector("#deals td[data-game]");
      assert.match((await page.textContent("main")) ?? "", new RegExp(p.name === "bots" ? BOT_NAME : LEAGUE_NAME));
      assert.deepEqual(await clipped(page), [], `${p.path} at 390 px`);
      await shot(page, p.name);
      await page.setViewportSize(LAPTOP);
      // The desktop keeps its table; only what a long word would push out of it is wrapped.
      assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector("main tbody tr")!).display), "table-row");
      assert.deepEqual(await clipped(page), [], `${p.path} at 1280 px`);
      await shot(page, p.name);
    }
    // The directory's Leagues column at 1280 px: the long league name is inside its cell, wholly on screen.
    const cell = page.locator("table.bots-list tr", { hasText: BOT_NAME }).locator("td[data-label='Leagues']");
    const [box, link] = [await cell.boundingBox(), await cell.getByRole("link").boundingBox()];
    assert.ok(
      box && link && link.x >= box.x - 1 && link.x + link.width <= box.x + box.width + 1,
      `the league's link ${JSON.stringify(link)} in ${JSON.stringify(box)}`,
    );
    assert.ok(box.x + box.width <= LAPTOP.width, "the Leagues column is on screen");
  });
});
