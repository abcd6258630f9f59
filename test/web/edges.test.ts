/**
 * The client's rough edges, in a real browser against a real server: an unknown address answers an HTML
 * page (programs still get a problem document), an unknown or used invite says so before any form, an
 * unknown game draws no board, /docs leads back to the site, a spectator reads that the game is over, and
 * the controls a thumb needs are at least 40 px.
 */
import assert from "node:assert/strict";
import { playRest } from "../support/play";
import { bearer, http } from "../support/server";
import { browserSuite, openPage, screenshots } from "./browser";

describe("Browser: not found, used invites, unknown games and touch targets", function () {
  this.timeout(90_000);
  const suite = browserSuite({ houseDelayMs: 0 });

  it("answers an unknown page with an HTML page to a browser and a problem document to a program", async () => {
    const page = await http(suite.server.url, "GET", "/no/such/page", undefined, { accept: "text/html,application/xhtml+xml,*/*;q=0.8" });
    assert.equal(page.status, 404);
    assert.match(page.headers.get("content-type") ?? "", /text\/html/);
    assert.match(page.text, /Page not found/);
    assert.match(page.headers.get("content-security-policy") ?? "", /script-src 'self'/);
    const program = await http(suite.server.url, "GET", "/no/such/page");
    assert.equal(program.status, 404);
    assert.match(program.headers.get("content-type") ?? "", /application\/problem\+json/);
    const api = await http(suite.server.url, "GET", "/api/v1/nothing", undefined, { accept: "text/html" });
    assert.match(api.headers.get("content-type") ?? "", /application\/problem\+json/);
    const browser = await openPage(suite.browser, suite.errors);
    const res = await browser.goto(`${suite.server.url}/nope`);
    assert.equal(res?.status(), 404);
    assert.equal(await browser.textContent("h1"), "Page not found");
    // The 404 answer itself is logged by the browser as a failed resource; nothing else may be.
    suite.errors = suite.errors.filter((e) => !/404/.test(e));
    await screenshots(browser, "not-found");
  });

  it("says an invite is unknown or used before any form, and shows the form for an open one", async () => {
    const page = await openPage(suite.browser, suite.errors);
    await page.goto(`${suite.server.url}/join/NOSUCHCODE`);
    await page.waitForSelector("body[data-ready='true']");
    assert.equal(await page.isVisible("#join-form"), false);
    assert.match((await page.textContent("#invite-notice")) ?? "", /unknown/);
    suite.errors = suite.errors.filter((e) => !/404/.test(e));
    await screenshots(page, "join-unknown");

    const created = await http(suite.server.url, "POST", "/api/v1/games", { opponent: "friend", name: "Ann" });
    await page.goto(`${suite.server.url}/join/${created.json.code}`);
    await page.waitForSelector("body[data-ready='true']");
    assert.equal(await page.isVisible("#join-form"), true);
    assert.match((await page.textContent("#invite-host")) ?? "", /from Ann/);

    assert.equal((await http(suite.server.url, "POST", "/api/v1/games/join", { code: created.json.code, name: "Ben" })).status, 200);
    await page.goto(`${suite.server.url}/join/${created.json.code}`);
    await page.waitForSelector("body[data-ready='true']");
    assert.equal(await page.isVisible("#join-form"), false);
    assert.match((await page.textContent("#invite-notice")) ?? "", /already used/);
    assert.equal(await page.getAttribute("#invite-notice a", "href"), `/watch/${created.json.game.id}`);
    await screenshots(page, "join-used");
  });

  it("an unknown game draws no board; a finished game tells its spectator it is over", async () => {
    const page = await openPage(suite.browser, suite.errors);
    await page.goto(`${suite.server.url}/watch/g_nosuchgame`);
    await page.waitForSelector("body[data-status='unknown']");
    assert.equal(await page.isVisible("#board"), false);
    assert.match((await page.textContent("#notice")) ?? "", /There is no game with the id/);
    suite.errors = suite.errors.filter((e) => !/404/.test(e));

    const g = await http(suite.server.url, "POST", "/api/v1/games", { opponent: "friend", name: "Ann" });
    const joined = await http(suite.server.url, "POST", "/api/v1/games/join", { code: g.json.code, name: "Ben" });
    await page.goto(`${suite.server.url}/watch/${g.json.game.id}`);
    await page.waitForSelector("body[data-status='active']");
    assert.equal(await page.textContent("#connection"), "Watching live.");
    await http(suite.server.url, "POST", `/api/v1/games/${g.json.game.id}/resign`, undefined, bearer(joined.json.playerToken));
    await page.waitForSelector("body[data-status='finished']");
    await page.waitForFunction(() => document.querySelector("#connection")?.textContent?.includes("over"));
    assert.match((await page.textContent("#connection")) ?? "", /The game is over/);
  });

  it("opens an explanation on a tap on a touch screen, and a card's on a long press that plays nothing", async () => {
    const context = await suite.browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    page.on("pageerror", (e) => suite.errors.push(`pageerror: ${e.message}`));
    await page.goto(`${suite.server.url}/`);
    await page.locator("#house-ruleset").selectOption("mutators");
    await page.getByRole("button", { name: "Play the house" }).click();
    await page.waitForSelector("body[data-status='active'] #hand .card");
    const mutator = page.locator("#ruleset abbr").first();
    await mutator.scrollIntoViewIfNeeded();
    // A scroll closes an open bubble: let the scroll's events pass before the tap.
    await page.waitForTimeout(300);
    await mutator.tap();
    await page.waitForSelector(".touch-tip:not([hidden])");
    assert.equal(await page.textContent(".touch-tip"), await mutator.getAttribute("title"));
    // A card of the hand (whose tap chooses it) explains itself on a long press, and the press chooses nothing.
    const card = page.locator("#hand .card").first();
    await card.scrollIntoViewIfNeeded();
    await page.waitForTimeout(300);
    const box = (await card.boundingBox())!;
    const at = [{ x: box.x + box.width / 2, y: box.y + box.height / 2 }];
    const cdp = await context.newCDPSession(page);
    await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: at });
    await page.waitForTimeout(700);
    await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    await page.waitForSelector(".touch-tip:not([hidden])");
    assert.equal(await page.textContent(".touch-tip"), await card.getAttribute("title"));
    assert.equal(await card.getAttribute("aria-pressed"), "false");
    await context.close();
  });

  it("/docs leads back to the site, and header links, the sound switch and replay buttons are at least 40 px", async () => {
    const page = await openPage(suite.browser, suite.errors);
    await page.goto(`${suite.server.url}/docs/errors`);
    assert.equal(await page.getAttribute("header.site a", "href"), "/");
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${suite.server.url}/`);
    await page.getByRole("button", { name: "Play the house" }).click();
    await page.waitForSelector("body[data-status='active'] #hand .card");
    const small = async (selectors: string[]) => {
      const out: string[] = [];
      for (const sel of selectors) {
        const boxes = await page.locator(sel).evaluateAll((els) =>
          els
            .filter((e) => (e as HTMLElement).offsetParent !== null)
            .map((e) => e.getBoundingClientRect())
            .map((r) => ({ width: r.width, height: r.height })),
        );
        assert.ok(boxes.length > 0, `${sel} shows nothing`);
        for (const b of boxes) if (b.height < 40 || b.width < 40) out.push(`${sel}: ${JSON.stringify(b)}`);
      }
      return out;
    };
    // Every one of them, on the game page and on the replay page.
    assert.deepEqual(await small(["header.top nav a", "header.top > a", "label.switch", "#hand .card", "#board .square", "main button:not([hidden])"]), []);
    const g = await http(suite.server.url, "POST", "/api/v1/games", { opponent: "house", level: "easy", name: "Tap" });
    await playRest(suite.server.url, g.json.game.id, g.json.playerToken);
    await page.goto(`${suite.server.url}/replay/${g.json.game.id}`);
    await page.waitForSelector("#verify[data-verified='true']");
    assert.deepEqual(await small(["header.top nav a", "#move-list button", ".controls button"]), []);
  });
});
