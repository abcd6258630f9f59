/**
 * The web client in a real browser against a real server: a human plays a whole game against the house
 * by clicking cards and squares, and the page never holds the other hand.
 */
import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import type { RunningServer } from "../../src/server";
import { CHAMPION_TIPS } from "../../web/src/lib/glossary";
import { bootServer, http } from "../support/server";
import { hasChromium, launch, openPage, playOneCard, playToEnd, screenshots, skipWithoutChromium } from "./browser";

describe("Browser: playing the house", function () {
  this.timeout(90_000);
  let server: RunningServer;
  let browser: Browser;

  // The server is booted even without a browser, so the served-files test still runs.
  before(async () => {
    server = await bootServer({ houseDelayMs: 0 });
    if (hasChromium()) browser = await launch();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it("serves the pages, their scripts and the SDK bundle", async () => {
    // A profile page is served for a player who exists (one made by opening a game); for no one it is the 404 page.
    const opened = await http(server.url, "POST", "/api/v1/games", { opponent: "house", level: "easy", name: "Ann" });
    assert.equal(opened.status, 201);
    const player = `/players/${opened.json.player.id as string}`;
    for (const path of [
      "/",
      "/play/g_x",
      "/watch/g_x",
      "/join/ABCDEF",
      "/challenge/ch_x",
      "/replay/g_x",
      "/review/g_x",
      "/rules",
      player,
      "/leaderboards",
      "/leaderboards/club/c_x",
    ]) {
      const res = await http(server.url, "GET", path);
      assert.equal(res.status, 200, path);
      assert.match(res.headers.get("content-type") ?? "", /text\/html/);
      assert.match(res.headers.get("content-security-policy") ?? "", /script-src 'self'/);
    }
    const nobody = await http(server.url, "GET", "/players/P-X");
    assert.equal(nobody.status, 404);
    assert.match(nobody.headers.get("content-type") ?? "", /text\/html/);
    const sdk = await http(server.url, "GET", "/vendor/colyseus.js");
    assert.equal(sdk.status, 200);
    assert.match(sdk.text, /Colyseus/);
    // Page scripts are built from web/src on first request and revalidated by their ETag.
    const script = await http(server.url, "GET", "/web/js/game.js");
    assert.equal(script.status, 200);
    assert.match(script.headers.get("content-type") ?? "", /text\/javascript/);
    const etag = script.headers.get("etag")!;
    assert.ok(etag);
    assert.equal((await http(server.url, "GET", "/web/js/game.js", undefined, { "if-none-match": etag })).status, 304);
    for (const page of ["home", "join", "challenge", "replay", "rules", "player", "leaderboards"])
      assert.equal((await http(server.url, "GET", `/web/js/${page}.js`)).status, 200, page);
    assert.equal((await http(server.url, "GET", "/web/js/nope.js")).status, 404);
    assert.equal((await http(server.url, "GET", "/assets/cards/E1.svg")).status, 200);
    // Only scripts and styles are static; the HTML goes through the page routes (with their CSP).
    assert.equal((await http(server.url, "GET", "/web/game.html")).status, 404);
    assert.equal((await http(server.url, "GET", "/web/js/../../package.json")).status, 404);
  });

  it("plays a whole game against the house from the home page, by clicks", async function () {
    skipWithoutChromium(this);
    const errors: string[] = [];
    const page = await openPage(browser, errors);
    await page.goto(server.url + "/");
    await page.getByLabel("Your name").fill("Ada");
    await page.locator("#house-level").selectOption("easy");
    await page.getByRole("button", { name: "Play the house" }).click();
    await page.waitForURL(/\/play\/[^/]+$/);
    const gameId = page.url().split("/").pop()!;
    await page.waitForSelector("body[data-status='active']");
    await page.waitForSelector("#hand .card");
    // Own hand only: five cards, six for the first mover in classic (rules versions 2 and 3, docs/RULES.md), and the
    // other seat appears as a count.
    assert.ok((await page.locator("#hand .card").count()) <= 6);
    assert.match((await page.textContent("#opponent-count")) ?? "", /Opponent holds \d+ cards/);
    // Tooltips explain what the board and the hand show: chess tiles, tiers or champion abilities.
    assert.match((await page.getAttribute("#board .square:has(.tag)", "title")) ?? "", /tile: a card placed here also attacks/);
    for (const title of await page.locator("#hand .card").evaluateAll((cards) => cards.map((c) => c.getAttribute("title") ?? ""))) {
      // A plain card names its tier; a champion, its name and ability ("Errant Knight: ...").
      const champion = Object.values(CHAMPION_TIPS).some((tip) => title === tip);
      assert.ok(champion || /Tier [1-3]: rank total/.test(title), `hand card tooltip: ${title}`);
    }
    await screenshots(page, "play-start");

    const moves = await playToEnd(page);
    assert.ok(moves >= 7 && moves <= 9, `the human made ${moves} moves`);
    await page.waitForSelector("#end:not([hidden])");
    assert.match((await page.textContent("#end-title")) ?? "", /You won!|You lost\.|Draw\./);
    assert.match((await page.textContent("#end-detail")) ?? "", /board is full/);
    await screenshots(page, "play-end");

    assert.equal(await page.getAttribute("#replay-link", "href"), `/replay/${gameId}`);
    // The last move's captures are explained under the board, one line per flipped card.
    const last = (await page.textContent("#last-move")) ?? "";
    const flipped = Number(/x(\d+)$/.exec(last)?.[1] ?? 0);
    assert.equal(await page.locator("#captures li").count(), flipped, `${last}: ${await page.textContent("#captures")}`);
    // The sound switch is remembered by the browser.
    await page.getByLabel("Sound").uncheck();
    assert.equal(await page.evaluate(() => localStorage.getItem("arena.sound")), "off");
    assert.equal(await page.locator("#board .square img").count(), 16);
    // The replay page steps through the game and checks the deal in the browser.
    await page.click("#replay-link");
    await page.waitForSelector("#verify[data-verified='true']");
    assert.match((await page.textContent("#verify")) ?? "", /deal verified/);
    assert.equal(await page.locator("#move-list button").count(), 16);
    assert.deepEqual(errors, []);
  });

  it("fits a narrow screen and resigns with two clicks", async function () {
    skipWithoutChromium(this);
    const errors: string[] = [];
    const page = await openPage(browser, errors);
    await page.setViewportSize({ width: 380, height: 800 });
    await page.goto(server.url + "/");
    await page.getByRole("button", { name: "Play the house" }).click();
    await page.waitForSelector("body[data-status='active'] #hand .card");
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 380, `the page scrolls sideways (${width}px)`);
    await screenshots(page, "play-narrow");
    // One card each first: a game resigned before both seats placed one is aborted, not lost.
    await playOneCard(page);
    await page.getByRole("button", { name: "Resign" }).click();
    await page.getByRole("button", { name: "Yes, resign" }).click();
    await page.waitForSelector("#end:not([hidden])");
    assert.equal(await page.textContent("#end-title"), "You lost.");
    assert.match((await page.textContent("#end-detail")) ?? "", /resignation/);
    assert.deepEqual(errors, []);
  });
});
