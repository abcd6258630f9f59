/**
 * Chromium for the browser tests, driven by playwright-core against the Debian `chromium` package (no
 * browser download). Tests skip with a clear message when that binary is missing.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import type { Config } from "../../src/shared/config";
import type { RunningServer } from "../../src/server";
import { bootServer } from "../support/server";

/** Screenshots are test artefacts: written under a git-ignored folder, never committed. */
export const SHOTS_DIR = process.env.WEB_SHOTS_DIR || resolve(__dirname, "../../test-artifacts/web");

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1100, height: 900 };

/** Saves the page at desktop and phone width as `<name>-desktop.png` and `<name>-phone.png`. */
export async function screenshots(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS_DIR, { recursive: true });
  const size = page.viewportSize() ?? DESKTOP;
  for (const [label, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: join(SHOTS_DIR, `${name}-${label}.png`), fullPage: true });
  }
  await page.setViewportSize(size);
}

export const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

export function hasChromium(): boolean {
  return existsSync(CHROMIUM);
}

/** Call first in a `before` hook: skips the whole describe block when there is no browser. */
export function skipWithoutChromium(ctx: Mocha.Context): void {
  if (hasChromium()) return;
  console.warn(`    skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`);
  ctx.skip();
}

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** A fresh page (own storage) that fails the test on any script error or console error it shows. */
export async function openPage(browser: Browser, errors: string[]): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(`console: ${m.text()}`);
  });
  return page;
}

/** Plays the seat on the page until the end screen: the first card of the hand onto the first empty square. */
export async function playToEnd(page: Page, timeoutMs = 45_000): Promise<number> {
  const until = Date.now() + timeoutMs;
  let moves = 0;
  while (Date.now() < until) {
    const status = await page.getAttribute("body", "data-status");
    if (status === "finished") return moves;
    if ((await page.getAttribute("body", "data-your-turn")) === "true") {
      const before = await page.locator("#board .square[data-owner='A'], #board .square[data-owner='B']").count();
      await page.locator("#hand .card").first().click();
      await page.locator("#board .square[data-owner='']").first().click();
      moves++;
      // Wait for the server's patch: one more card on the board, or the game over.
      await page.waitForFunction(
        (n) =>
          document.querySelectorAll("#board .square[data-owner='A'], #board .square[data-owner='B']").length > n || document.body.dataset.status === "finished",
        before,
        { timeout: 10_000 },
      );
    } else {
      await page.waitForTimeout(50);
    }
  }
  throw new Error(`the game did not finish within ${timeoutMs} ms`);
}

/**
 * Plays the opening on the page: waits for the seat's turn, places one card and waits until both seats have
 * placed one (against the house, its answer), so that a resignation from then on is a rated loss.
 */
export async function playOneCard(page: Page): Promise<void> {
  await page.waitForSelector("body[data-your-turn='true']");
  await page.locator("#hand .card").first().click();
  await page.locator("#board .square[data-owner='']").first().click();
  await page.waitForFunction(() => document.querySelectorAll("#board .square:not([data-owner=''])").length >= 2);
}

/** What a browser suite's tests share: one server and one browser, and the page errors each test collects. */
export interface BrowserSuite {
  server: RunningServer;
  browser: Browser;
  errors: string[];
}

/**
 * Registers a suite's hooks: a server (with `overrides`) and Chromium before its tests (the suite is skipped
 * without Chromium), a test fails on any page error it collected, and both are closed after the suite.
 */
export function browserSuite(overrides: Partial<Config>): BrowserSuite {
  const suite = { errors: [] as string[] } as BrowserSuite;
  before(async function () {
    skipWithoutChromium(this);
    suite.server = await bootServer(overrides);
    suite.browser = await launch();
  });
  beforeEach(() => (suite.errors = []));
  afterEach(() => assert.deepEqual(suite.errors, []));
  after(async () => {
    await suite.browser?.close();
    await suite.server?.close();
  });
  return suite;
}
