/**
 * The browser client as a product, in a real browser against a real server: a quick-match search stopped
 * in its first second leaves no ticket, an outage shows a banner and pauses the board and the next move
 * plays once back, a finished game's replay steps by arrow keys with its deal verified by Web Crypto and
 * every capture explained, the end panel shows the rating change and a rematch, and a friend game's
 * waiting page keeps its invite link.
 */
import assert from "node:assert/strict";
import { CloseCode, matchMaker } from "@colyseus/core";
import type { Page } from "playwright-core";
import { http } from "../support/server";
import { browserSuite, openPage, playOneCard, playToEnd, screenshots } from "./browser";

const cardsOnBoard = (page: Page) => page.locator("#board .square[data-owner='A'], #board .square[data-owner='B']").count();

describe("Browser: replay, review, connection state and quick-match cancel", function () {
  this.timeout(90_000);
  const suite = browserSuite({ houseDelayMs: 0 });

  async function houseGame(page: Page, level = "easy") {
    await page.goto(suite.server.url + "/");
    await page.getByLabel("Your name").fill("Ada");
    await page.locator("#house-level").selectOption(level);
    await page.getByRole("button", { name: "Play the house" }).click();
    await page.waitForSelector("body[data-status='active'] #hand .card");
    return decodeURIComponent(page.url().split("/").pop()!);
  }

  it("stopping a quick-match search in its first second deletes the ticket and gives the button back", async () => {
    const page = await openPage(suite.browser, suite.errors);
    await page.goto(suite.server.url + "/");
    const created = page.waitForResponse((r) => r.request().method() === "POST" && r.url().endsWith("/api/v1/games/quick-match"));
    const deleted = page.waitForResponse((r) => r.request().method() === "DELETE" && r.url().includes("/api/v1/games/quick-match/"));
    await page.getByRole("button", { name: "Find an opponent" }).click();
    await page.getByRole("button", { name: "Stop searching" }).click();
    // The button is back at once, before the server has answered anything.
    assert.equal(await page.isEnabled("#quick"), true);
    assert.equal(await page.isVisible("#quick-cancel"), false);
    assert.equal(await page.textContent("#quick-status"), "Search stopped.");
    const ticket = ((await (await created).json()) as { ticket: string }).ticket;
    assert.equal((await deleted).status(), 200);
    // Checked over REST: the ticket is gone, and the next searcher is queued rather than paired with it.
    assert.equal((await http(suite.server.url, "GET", `/api/v1/games/quick-match/${ticket}`)).status, 404);
    const next = await http(suite.server.url, "POST", "/api/v1/games/quick-match", { ruleset: "classic", wait: 0 });
    assert.equal(next.status, 202);
    assert.equal((await http(suite.server.url, "DELETE", `/api/v1/games/quick-match/${next.json.ticket}`)).status, 200);
    // Polling stopped with the search: no further ticket request leaves the page.
    let polls = 0;
    page.on("request", (r) => void (r.url().includes("/quick-match/") && polls++));
    await page.waitForTimeout(300);
    assert.equal(polls, 0);
    await screenshots(page, "home");
  });

  it("stopping a search that is already long-polling aborts the poll and deletes the ticket; /?quick= starts one", async () => {
    const page = await openPage(suite.browser, suite.errors);
    // The quick-match rematch link: the search starts at once with the given ruleset.
    const polling = page.waitForRequest((r) => r.method() === "GET" && r.url().includes("/api/v1/games/quick-match/qm_"));
    const created = page.waitForResponse((r) => r.request().method() === "POST" && r.url().endsWith("/api/v1/games/quick-match"));
    await page.goto(suite.server.url + "/?quick=mutators");
    assert.equal(await page.inputValue("#quick-ruleset"), "mutators");
    const ticket = ((await (await created).json()) as { ticket: string }).ticket;
    await polling;
    const deleted = page.waitForResponse((r) => r.request().method() === "DELETE" && r.url().endsWith(`/quick-match/${ticket}`));
    await page.getByRole("button", { name: "Stop searching" }).click();
    assert.equal(await page.isEnabled("#quick"), true);
    assert.equal((await deleted).status(), 200);
    assert.equal((await http(suite.server.url, "GET", `/api/v1/games/quick-match/${ticket}`)).status, 404);
    assert.equal(await page.textContent("#quick-error"), "");
  });

  it("going offline shows a banner and pauses the board; back online clears it and the next move plays", async () => {
    // Requests failing while the network is cut are the outage itself; every other error still fails the test.
    const seen: string[] = [];
    const page = await openPage(suite.browser, seen);
    await houseGame(page);
    await page.waitForSelector("body[data-your-turn='true']");
    const boardBefore = await page.locator("#board").boundingBox();
    await page.context().setOffline(true);
    await page.waitForSelector("#offline:not([hidden])");
    // The banner floats over the page and stays in view when the page scrolls: the board does not move.
    assert.equal(await page.$eval("#offline", (e) => getComputedStyle(e).position), "fixed");
    assert.deepEqual(await page.locator("#board").boundingBox(), boardBefore);
    await page.evaluate(() => scrollTo(0, document.body.scrollHeight));
    const banner = await page.locator("#offline").boundingBox();
    assert.ok(banner && banner.y >= 0 && banner.y + banner.height <= 900, `the banner scrolled away: ${JSON.stringify(banner)}`);
    await page.evaluate(() => scrollTo(0, 0));
    assert.match((await page.textContent("#offline")) ?? "", /offline/i);
    assert.equal(await page.getAttribute("body", "data-your-turn"), "false");
    // A move tried while offline is refused aloud, not dropped silently.
    const before = await cardsOnBoard(page);
    // aria-disabled does not stop a click (Playwright would wait for it to clear): force it, as a user would.
    await page.locator("#hand .card").first().click({ force: true });
    await page.locator("#board .square[data-owner='']").first().click({ force: true });
    assert.match((await page.textContent("#refusal")) ?? "", /offline: that move was not sent/);
    await screenshots(page, "play-offline");

    await page.context().setOffline(false);
    await page.waitForSelector("#offline", { state: "hidden" });
    await page.waitForSelector("body[data-your-turn='true']");
    assert.equal(await page.textContent("#refusal"), "");
    assert.equal(await cardsOnBoard(page), before);
    // The card chosen before the outage is still chosen: one click on the square plays it.
    assert.equal(await page.getAttribute("#hand .card >> nth=0", "aria-pressed"), "true");
    await page.locator("#board .square[data-owner='']").first().click();
    await page.waitForFunction((n) => document.querySelectorAll("#board .square[data-owner='A'], #board .square[data-owner='B']").length > n, before);
    suite.errors.push(...seen.filter((e) => !e.includes("ERR_INTERNET_DISCONNECTED")));
  });

  it("when the room drops the seat for good, the page rejoins by game id with its token and plays on", async () => {
    const page = await openPage(suite.browser, suite.errors);
    const gameId = await houseGame(page);
    await page.waitForSelector("body[data-your-turn='true'][data-joins='1']");
    // The server ends the seat's session outright (as a process giving up a game would): no SDK reconnection.
    const room = matchMaker.getLocalRoomById(gameId);
    assert.ok(room, "the game's room runs in this process");
    for (const client of [...room.clients]) client.leave(CloseCode.WITH_ERROR);
    await page.waitForSelector("body[data-joins='2'][data-link='live']");
    assert.equal(await page.isVisible("#offline"), false);
    const before = await cardsOnBoard(page);
    await page.waitForSelector("body[data-your-turn='true']");
    // By keyboard only: a number key chooses the card and puts focus on the board, arrows walk to an
    // empty square, Enter plays there.
    await page.keyboard.press("1");
    assert.equal(await page.getAttribute("#hand .card >> nth=0", "aria-pressed"), "true");
    const focusedOwner = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.owner ?? null);
    assert.notEqual(await focusedOwner(), null, "focus is on a board square");
    for (const key of ["ArrowRight", "ArrowRight", "ArrowRight", "ArrowDown", "ArrowLeft", "ArrowLeft", "ArrowLeft", "ArrowDown"]) {
      if ((await focusedOwner()) === "") break;
      await page.keyboard.press(key);
    }
    assert.equal(await focusedOwner(), "", "an empty square within the first rows");
    await page.keyboard.press("Enter");
    await page.waitForFunction((n) => document.querySelectorAll("#board .square[data-owner='A'], #board .square[data-owner='B']").length > n, before);
    assert.match((await page.textContent("#connection")) ?? "", /Connected as seat [AB]\./);
  });

  it("a finished game shows the rating change, review and replay links, and a rematch of the same kind", async () => {
    const page = await openPage(suite.browser, suite.errors);
    const gameId = await houseGame(page);
    // The board is one Tab stop, so the hand is a few presses from the top of the page.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    let tabs = 0;
    while (tabs < 20 && !(await page.evaluate(() => document.activeElement?.matches("#hand .card") ?? false))) {
      await page.keyboard.press("Tab");
      tabs++;
    }
    // Past the header's links, at most two stops (the board is one) come before the hand.
    const headerLinks = await page.locator("header.top a").count();
    assert.ok(tabs <= headerLinks + 2, `${tabs} Tab presses to reach the first card (${headerLinks} links in the header)`);
    await playToEnd(page);
    await page.waitForSelector("#end:not([hidden])");
    await page.waitForFunction(() => /Rating \d+ → \d+\?? \([+−]\d+\)/.test(document.querySelector("#rating-change")?.textContent ?? ""));
    assert.equal(await page.getAttribute("#end-links a[href^='/review/']", "href"), `/review/${gameId}`);
    assert.match((await page.title()) ?? "", /^Ada vs House/);
    await screenshots(page, "play-end-panel");
    await page.getByRole("button", { name: "Rematch" }).click();
    await page.waitForURL((u) => u.pathname.startsWith("/play/") && !u.pathname.endsWith(gameId));
    const again = decodeURIComponent(page.url().split("/").pop()!);
    const record = await http(suite.server.url, "GET", `/api/v1/games/${again}`);
    assert.equal(record.json.opponent, "house");
    assert.equal(record.json.level, "easy");
  });

  it("the replay steps by arrow keys, verifies the deal and the game's public log inclusion in the browser, and explains every capture", async () => {
    const page = await openPage(suite.browser, suite.errors);
    const gameId = await houseGame(page, "normal");
    await playToEnd(page);
    // The end panel names the game's place in the public log once its batch is appended, checked here too.
    await page.waitForSelector("#end-log[data-verified='true']");
    assert.match((await page.textContent("#end-log")) ?? "", /in the public log at #\d+ ✔ verified/);
    const replay = (await http(suite.server.url, "GET", `/api/v1/games/${gameId}/replay`)).json;

    await page.goto(`${suite.server.url}/review/${gameId}`);
    await page.waitForSelector("#verify[data-verified='true']");
    assert.match((await page.textContent("#verify")) ?? "", /deal verified/);
    // Its place in the public log: the inclusion proof and the head's signature checked by Web Crypto.
    await page.waitForSelector("#log-proof[data-verified='true']");
    const logIndex = (await http(suite.server.url, "GET", `/api/v1/games/${gameId}`)).json.logIndex as number;
    assert.equal(typeof logIndex, "number");
    assert.match((await page.textContent("#log-proof")) ?? "", new RegExp(`in the public log at #${logIndex} ✔ verified`));
    assert.equal(await page.getAttribute("#log-proof", "data-signature"), "verified");
    // A rules version 4 game: its seed is 128 bits written as 32 hex digits, and sha256(seed:salt) is over them.
    assert.equal(replay.rulesVersion, 4);
    assert.match(String(replay.seed), /^[0-9a-f]{32}$/);
    assert.equal(await page.textContent("#seed"), String(replay.seed));
    assert.equal(await page.textContent("#commitment"), replay.commitment);
    // The review's marks sit on the move list.
    assert.equal(await page.locator("#move-list button[data-mark]").count(), 16);
    assert.equal(await page.getAttribute("body", "data-step"), "1");

    await page.keyboard.press("Home");
    assert.equal(await cardsOnBoard(page), 0);
    for (const move of replay.moves as Array<{ n: number; notation: string; captures: number; board: Array<{ square: string; owner: string }> }>) {
      await page.keyboard.press("ArrowRight");
      assert.equal(await page.getAttribute("body", "data-step"), String(move.n));
      // The board after each move is the replay's, square by square.
      for (const cell of move.board)
        assert.equal(await page.getAttribute(`#board [data-square='${cell.square}']`, "data-owner"), cell.owner, `move ${move.n} ${cell.square}`);
      // The browser's own reasons agree with the server's capture count, one line per flipped card.
      const reasons = await page.locator("#captures li").allTextContents();
      assert.equal(reasons.length, move.captures, `${move.notation}: ${reasons.join(" | ")}`);
      for (const r of reasons) assert.match(r, /^[a-d][1-4]: (basic capture|chess tile|same|plus|combo|the knight champion)/);
    }
    await page.locator("#move-list button").nth(4).click();
    assert.equal(await page.getAttribute("body", "data-step"), "5");
    // Captured cards flip over, unless the reader asked for reduced motion.
    const capturing = (replay.moves as Array<{ n: number; captures: number }>).find((m) => m.captures > 0);
    assert.ok(capturing, "16 placements without a single capture");
    const flipAnimation = async () => {
      await page
        .locator("#move-list button")
        .nth(capturing.n - 1)
        .click();
      return page.evaluate(() => getComputedStyle(document.querySelector("#board .square.flip")!).animationName);
    };
    assert.equal(await flipAnimation(), "flip");
    await page.emulateMedia({ reducedMotion: "reduce" });
    assert.equal(await flipAnimation(), "none");
    await page.emulateMedia({ reducedMotion: null });
    await screenshots(page, "replay");

    // A proof changed on its way to the browser is shown as not verified.
    const tampered = await openPage(suite.browser, suite.errors);
    await tampered.route("**/api/v1/log/games/*/proof*", async (route) => {
      const res = await route.fetch();
      const proof = (await res.json()) as { path: string[] };
      const flip = (h: string) => (h[0] === "0" ? "1" : "0") + h.slice(1);
      proof.path = proof.path.length ? [flip(proof.path[0]), ...proof.path.slice(1)] : ["00".repeat(32)];
      await route.fulfill({ response: res, json: proof });
    });
    await tampered.goto(`${suite.server.url}/replay/${gameId}`);
    await tampered.waitForSelector("#log-proof[data-verified='false']");
    assert.match((await tampered.textContent("#log-proof")) ?? "", new RegExp(`in the public log at #${logIndex} ✘ not verified`));
    assert.doesNotMatch((await tampered.textContent("#log-proof")) ?? "", /✔/);
  });

  it("the rules page pictures every capture kind with the engine's own captures", async () => {
    const page = await openPage(suite.browser, suite.errors);
    await page.goto(`${suite.server.url}/rules`);
    await page.waitForSelector("main[data-ready='true']");
    // The worked examples of docs/RULES.md, resolved in the browser by the engine's capture rules.
    const expected: Record<string, number> = { basic: 1, rook: 1, bishop: 1, knight: 1, same: 2, plus: 2, combo: 3, reverse: 1, elemental: 1 };
    for (const [name, flips] of Object.entries(expected)) {
      const reasons = await page.locator(`figure[data-example='${name}'] figcaption li`).allTextContents();
      assert.equal(reasons.length, flips, `${name}: ${reasons.join(" | ")}`);
    }
    assert.match((await page.locator("figure[data-example='combo'] figcaption").textContent()) ?? "", /combo/);
    assert.equal(await page.locator("figure[data-example='knight'] .board[aria-label$='after'] [data-square='c2']").getAttribute("data-owner"), "B");
    await screenshots(page, "rules");
  });

  it("the profile page shows rating, form and recent games; the leaderboards rank a club's members", async () => {
    const page = await openPage(suite.browser, suite.errors);
    const gameId = await houseGame(page);
    await playOneCard(page);
    await page.getByRole("button", { name: "Resign" }).click();
    await page.getByRole("button", { name: "Yes, resign" }).click();
    await page.waitForSelector("#end:not([hidden])");
    const me = (await page.evaluate(() => JSON.parse(localStorage.getItem("arena.player") ?? "null"))) as { id: string };
    await suite.server.store.communities.createCommunity({
      id: "club-web",
      kind: "club",
      name: "Web Club",
      members: [me.id],
      createdAt: new Date().toISOString(),
    });

    await page.goto(`${suite.server.url}/players/${me.id}`);
    await page.waitForSelector("body[data-ready='true']");
    assert.equal(await page.textContent("#title"), "Ada (you)");
    assert.match((await page.textContent("#profile")) ?? "", /Rating\d+/);
    assert.match((await page.textContent("#profile")) ?? "", /FormL/);
    assert.match((await page.textContent("#clubs")) ?? "", /Web Club · club, place 1 of 1/);
    assert.equal(await page.getAttribute("#recent a", "href"), `/replay/${gameId}`);
    await screenshots(page, "player");

    await page.goto(`${suite.server.url}/leaderboards`);
    await page.waitForSelector("body[data-ready='true']");
    // The club's line: one member (not "1 members"), its leader's provisional rating marked.
    const club = page.locator("li", { has: page.getByRole("link", { name: "Web Club" }) });
    assert.match((await club.textContent()) ?? "", /^Web Club1 member · leader Ada \(\d+\?\)$/);
    assert.equal(await club.locator(".rating").getAttribute("data-provisional"), "true");
    await page.getByRole("link", { name: "Web Club" }).click();
    await page.waitForURL(/\/leaderboards\/club\/club-web$/);
    await page.waitForSelector("body[data-ready='true']");
    assert.equal(await page.textContent("table.standings tbody tr td:nth-child(2)"), "Ada");
    assert.equal(await page.getAttribute("table.standings tbody tr .rating", "data-provisional"), "true");
    assert.match((await page.textContent("#content p.muted")) ?? "", /^club, 1 member$/);
    await screenshots(page, "leaderboard");
  });

  it("a friend game's waiting page keeps its invite link after the home page is left", async () => {
    const page = await openPage(suite.browser, suite.errors);
    await page.goto(suite.server.url + "/");
    await page.getByRole("button", { name: "Create an invite link" }).click();
    await page.waitForFunction(() => (document.querySelector<HTMLInputElement>("#invite-url")?.value ?? "") !== "");
    const inviteUrl = await page.inputValue("#invite-url");
    const playHref = (await page.getAttribute("#invite-play", "href"))!;
    await page.goto(suite.server.url + "/");
    await page.goto(suite.server.url + playHref);
    await page.waitForSelector("body[data-status='waiting']");
    await page.waitForSelector("#invite-panel:not([hidden])");
    assert.equal(await page.inputValue("#invite-panel #invite-url"), inviteUrl);
    assert.equal(await page.isVisible("#copy-invite"), true);
    await screenshots(page, "play-waiting");
  });
});
