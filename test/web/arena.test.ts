/**
 * The arena's pages in a real browser: a league of scripted bots created over the API and watched on its page
 * until it finishes (without a reload), the page's ratings and intervals read against the API's; the bot
 * directory listing a registered bot, whose profile shows its mark and description; a player's profile
 * drawing one point per rated game. Every page fits a phone and a laptop, with 40 px targets and text at
 * 4.5:1 or more.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { greedyMove, type Policy } from "../../clients/typescript/client";
import { playSeat, type DealRow } from "../leagues/play";
import { playRest } from "../support/play";
import { bearer, http } from "../support/server";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { browserSuite, openPage, SHOTS_DIR } from "./browser";
import { contrastAtLeast, fits } from "./checks";

interface Standing {
  playerId: string;
  name: string;
  rating: number;
  low: number;
  high: number;
  wins: number;
  draws: number;
  losses: number;
}

/** Saves the first screen of the page at 1280x800 and 390x844, as `<name>-laptop.png` and `<name>-phone.png` (docs/WEB.md shows them). */
async function firstScreens(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS_DIR, { recursive: true });
  for (const [label, viewport] of [
    ["laptop", { width: 1280, height: 800 }],
    ["phone", { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    await page.screenshot({ path: join(SHOTS_DIR, `${name}-${label}.png`) });
  }
  await page.setViewportSize({ width: 1100, height: 900 });
}

/** Marks the document, so a later check can tell the page was never reloaded. */
const mark = (page: Page) => page.evaluate(() => void ((window as unknown as { unreloaded: boolean }).unreloaded = true));
const unreloaded = (page: Page) => page.evaluate(() => (window as unknown as { unreloaded?: boolean }).unreloaded === true);

/** Every status the page's body shows from now on, in order, as the page itself records them. */
const recordStatuses = (page: Page) =>
  page.evaluate(() => {
    const seen: string[] = [document.body.dataset.status ?? ""];
    (window as unknown as { statuses: string[] }).statuses = seen;
    new MutationObserver(() => {
      const s = document.body.dataset.status ?? "";
      if (seen[seen.length - 1] !== s) seen.push(s);
    }).observe(document.body, { attributes: true, attributeFilter: ["data-status"] });
  });

describe("Browser: leagues, bots and rating history", function () {
  this.timeout(180_000);
  const suite = browserSuite({ houseDelayMs: 0 });

  it("follows a league of scripted bots to its end, showing the API's ratings, intervals, records and replays", async () => {
    const base = suite.server.url;
    const created = await http(base, "POST", "/api/v1/leagues", { name: "Browser league", deals: 2, turnSeconds: 60 });
    assert.equal(created.status, 201, created.text);
    const id = created.json.league.id as string;
    // Three ways of playing, so that the ratings differ: the greedy one, and two that take the first or the last legal move.
    const policies: Record<string, Policy> = {
      "Corner bot": greedyMove,
      "Edge bot": (v) => v.legalMoves[0],
      "Centre bot": (v) => v.legalMoves[v.legalMoves.length - 1],
    };
    const bots: Array<{ playerId: string; token: string; name: string; policy: Policy }> = [];
    for (const name of Object.keys(policies)) {
      const reg = await http(base, "POST", "/api/v1/bots", { name, description: `${name}: a scripted test player` });
      const j = await http(base, "POST", `/api/v1/leagues/${id}/join`, undefined, bearer(reg.json.key));
      assert.equal(j.status, 201, j.text);
      bots.push({ playerId: j.json.playerId, token: j.json.playerToken, name, policy: policies[name] });
    }

    const page = await openPage(suite.browser, suite.errors);
    // Listed before it starts, open for entries, with its bots.
    await page.goto(`${base}/`);
    await page.locator("main").getByRole("link", { name: "Leagues of bots" }).click();
    await page.waitForSelector("body[data-ready='true']");
    const listed = page.locator(`tr[data-id='${id}']`);
    assert.equal(await listed.getAttribute("data-status"), "open");
    assert.match((await listed.textContent()) ?? "", /Corner bot, Edge bot, Centre bot/);
    await listed.getByRole("link", { name: "Browser league" }).click();
    await page.waitForSelector("body[data-status='open']");
    await mark(page);
    await recordStatuses(page);

    assert.equal((await http(base, "POST", `/api/v1/leagues/${id}/start`, undefined, bearer(created.json.directorToken))).status, 200);
    // Each bot plays its seat of every released game until the league is over.
    await Promise.all(
      bots.map(async (bot) => {
        const playing = new Map<string, Promise<unknown>>();
        for (let i = 0; i < 2000; i++) {
          if ((await http(base, "GET", `/api/v1/leagues/${id}`)).json.status === "finished") break;
          const deals = (await http(base, "GET", `/api/v1/leagues/${id}/games`)).json.deals as DealRow[];
          for (const g of deals.filter((d) => d.released).flatMap((d) => d.games)) {
            if (g.outcome === null && (g.first === bot.playerId || g.second === bot.playerId) && !playing.has(g.gameId))
              playing.set(g.gameId, playSeat(base, g.gameId, bot.token, bot.policy));
          }
          await new Promise((r) => setTimeout(r, 100));
        }
        await Promise.all(playing.values());
      }),
    );

    // The page follows on its own: running, then finished, never reloaded.
    await page.waitForSelector("body[data-status='finished']", { timeout: 30_000 });
    await page.waitForFunction(() => document.querySelectorAll("#deals td[data-state='open']").length === 12);
    assert.equal(await unreloaded(page), true, "the page was reloaded");
    const statuses = await page.evaluate(() => (window as unknown as { statuses: string[] }).statuses);
    assert.deepEqual(
      [statuses[0], statuses.includes("running"), statuses[statuses.length - 1]],
      ["open", true, "finished"],
      `statuses seen: ${statuses.join(", ")}`,
    );

    // The same ratings, intervals and records as the API, in the same order, in the table and in the plot.
    const api = (await http(base, "GET", `/api/v1/leagues/${id}/standings`)).json as { dealsCounted: number; standings: Standing[] };
    assert.equal(api.dealsCounted, 6);
    const tableRows = await page.locator("#standings tbody tr").evaluateAll((rows) =>
      rows.map((r) => ({
        id: r.getAttribute("data-id"),
        cells: [...r.querySelectorAll("td")].map((c) => c.textContent?.replace("BOT", "").trim()),
      })),
    );
    assert.deepEqual(
      tableRows,
      api.standings.map((s, i) => ({
        id: s.playerId,
        cells: [
          String(i + 1),
          s.name,
          s.rating.toFixed(1),
          `${s.low.toFixed(1)} to ${s.high.toFixed(1)}`,
          String(s.wins + s.draws + s.losses),
          `${s.wins}–${s.draws}–${s.losses}`,
        ],
      })),
    );
    const plotted = await page.locator("#forest g.row").evaluateAll((rows) =>
      rows.map((r) => ({
        id: r.getAttribute("data-id"),
        rating: Number(r.getAttribute("data-rating")),
        low: Number(r.getAttribute("data-low")),
        high: Number(r.getAttribute("data-high")),
        // Where the dot and the bar's ends are drawn, left to right.
        dot: Number(r.querySelector("circle.estimate")!.getAttribute("cx")),
        from: Number(r.querySelector("line.interval")!.getAttribute("x1")),
        to: Number(r.querySelector("line.interval")!.getAttribute("x2")),
      })),
    );
    assert.deepEqual(
      plotted.map(({ id: p, rating, low, high }) => ({ id: p, rating, low, high })),
      api.standings.map((s) => ({ id: s.playerId, rating: s.rating, low: s.low, high: s.high })),
    );
    for (const p of plotted) assert.ok(p.from <= p.dot && p.dot <= p.to, `the dot of ${p.id} lies outside its bar`);
    // Every game of every deal links to its replay once both games of its deal are over.
    const replays = await page.locator("#deals a[href^='/replay/']").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
    const deals = (await http(base, "GET", `/api/v1/leagues/${id}/games`)).json.deals as DealRow[];
    assert.deepEqual(replays.sort(), deals.flatMap((d) => d.games.map((g) => `/replay/${g.gameId}`)).sort());
    assert.match((await page.textContent("#progress-text")) ?? "", /6 of 6 deals played, 12 of 12 games/);

    await fits(page, "the league page");
    await contrastAtLeast(page, "main", "the league page");
    await firstScreens(page, "league");
    // The list shows it finished, with its progress.
    await page.goto(`${base}/leagues`);
    await page.waitForSelector("body[data-ready='true']");
    assert.equal(await page.locator(`tr[data-id='${id}']`).getAttribute("data-status"), "finished");
    assert.match((await page.locator(`tr[data-id='${id}']`).textContent()) ?? "", /6 of 6 deals played/);
    await fits(page, "the leagues page");
    await contrastAtLeast(page, "main", "the leagues page");
    await firstScreens(page, "leagues");
    // An id no league has says so, and stops asking.
    const unknown = await openPage(suite.browser, suite.errors);
    await unknown.goto(`${base}/leagues/l_nosuchleague1`);
    await unknown.waitForSelector("body[data-status='unknown']");
    assert.match((await unknown.textContent("#notice")) ?? "", /There is no league with the id “l_nosuchleague1”/);
    // The API's 404 is logged by the browser as a failed resource; nothing else may be (the check comes last, so every page error before it counts).
    suite.errors = suite.errors.filter((e) => !/404/.test(e));
  });

  it("lists a registered bot in the directory, with its description, rating and league, and shows its mark and description on its profile", async () => {
    const base = suite.server.url;
    const reg = await http(base, "POST", "/api/v1/bots", {
      name: "Directory bot",
      owner: "owner@example.org",
      description: "Plays the corners first, then the edges.",
    });
    // It entered a league (not yet started): the directory names the leagues a bot entered.
    const league = await http(base, "POST", "/api/v1/leagues", { name: "Directory league", deals: 1, turnSeconds: 60 });
    assert.equal(league.status, 201, league.text);
    const joined = await http(base, "POST", `/api/v1/leagues/${league.json.league.id}/join`, undefined, bearer(reg.json.key));
    assert.equal(joined.status, 201, joined.text);
    const page = await openPage(suite.browser, suite.errors);
    await page.goto(`${base}/`);
    await page.locator("header.top nav").getByRole("link", { name: "Bots" }).click();
    await page.waitForSelector("body[data-ready='true']");
    const row = page.locator(`tr[data-id='${reg.json.bot.id}']`);
    assert.match((await row.textContent()) ?? "", /Directory bot.*BOT.*Plays the corners first, then the edges\..*1500\?.*Directory league/);
    assert.equal(await row.getByRole("link", { name: "Directory league" }).getAttribute("href"), `/leagues/${league.json.league.id}`);
    assert.ok(!((await page.textContent("main")) ?? "").includes("owner@example.org"), "the owner's contact is never shown");
    await fits(page, "the bot directory");
    await contrastAtLeast(page, "main", "the bot directory");
    await firstScreens(page, "bots");

    await row.getByRole("link", { name: "Directory bot" }).click();
    await page.waitForSelector("body[data-ready='true']");
    assert.equal(await page.textContent("#title .bot-mark"), "BOT");
    assert.equal(await page.textContent("#about"), "Plays the corners first, then the edges.");
    assert.equal(await page.textContent("#ratings-summary"), "No rated games on record yet.");
  });

  it("draws one point per rated game on a player's profile, the provisional stretch marked, each point a link to its replay", async () => {
    const base = suite.server.url;
    let player: { id: string; secret: string } | undefined;
    const games: string[] = [];
    for (let i = 0; i < 6; i++) {
      const g = await http(base, "POST", "/api/v1/games", { opponent: "house", level: "easy", name: "Charted", ...(player ? { player } : {}) });
      assert.equal(g.status, 201, g.text);
      player ??= { id: g.json.player.id, secret: g.json.player.secret };
      await playRest(base, g.json.game.id, g.json.playerToken);
      games.push(g.json.game.id);
    }
    const history = (await http(base, "GET", `/api/v1/players/${player!.id}/ratings`)).json as {
      ratings: Array<{ gameId: string; rating: number; provisional: boolean }>;
    };
    assert.deepEqual(
      history.ratings.map((r) => r.gameId),
      games,
    );

    const page = await openPage(suite.browser, suite.errors);
    await page.goto(`${base}/leaderboards`);
    await page.waitForSelector("body[data-ready='true']");
    assert.equal(await page.locator("#players").getByRole("link", { name: "the bot directory" }).getAttribute("href"), "/bots");
    await page.locator("#players").getByRole("link", { name: "Charted" }).click();
    await page.waitForSelector("body[data-ready='true']");
    const points = await page.locator("#rating-chart a.point").evaluateAll((as) =>
      as.map((a) => ({
        href: a.getAttribute("href"),
        rating: Number(a.getAttribute("data-rating")),
        provisional: a.getAttribute("data-provisional") === "true",
      })),
    );
    assert.deepEqual(
      points,
      history.ratings.map((r) => ({ href: `/replay/${r.gameId}`, rating: r.rating, provisional: r.provisional })),
    );
    // The first five games are provisional whatever the deviation (src/services/players/rating.ts): the band is drawn.
    assert.deepEqual(
      points.slice(0, 5).map((p) => p.provisional),
      [true, true, true, true, true],
    );
    assert.equal(await page.locator("#rating-chart rect.provisional-band").count(), 1);
    assert.equal(await page.locator("#rating-chart line.line").count(), 5);
    assert.match((await page.textContent("#ratings-summary")) ?? "", /^6 rated games: from \d+ after the first to \d+ now/);
    // Keyboard: Tab reaches the points, and Enter on one opens its replay.
    const first = page.locator("#rating-chart a.point").first();
    await first.focus();
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("data-game")), games[0]);
    await fits(page, "a player's profile");
    await contrastAtLeast(page, "main", "a player's profile");
    await firstScreens(page, "player-ratings");
    await first.focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(`**/replay/${games[0]}`);
  });
});
