/**
 * The tournament pages in a real browser: a swiss tournament is created on the list page (its creator keeps
 * the director token and sees Start), two browsers join it, and everything after that reaches both pages
 * live over the tournament room, without a reload: the entrants, the pairing, each game's result in the
 * standings, the next round and the end. A paired entrant's page hands its token to the game page, which
 * plays the seat. Both pages fit a phone and a laptop with 40 px targets.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { playOpening } from "../support/play";
import { bearer, http } from "../support/server";
import { scoreColumns, scoreText, type StandingRow } from "../../web/src/lib/tournament";
import { browserSuite, openPage, screenshots } from "./browser";
import { fits } from "./checks";

/** The page's standings row of a player, by name: its score cell's text. */
const scoreOf = (page: Page, name: string) => page.locator("#standings tr", { hasText: name }).locator("td[data-col='score']").textContent();

/** Marks the document, so a later check can tell the page was never reloaded. */
const mark = (page: Page) => page.evaluate(() => void ((window as unknown as { unreloaded: boolean }).unreloaded = true));
const unreloaded = (page: Page) => page.evaluate(() => (window as unknown as { unreloaded?: boolean }).unreloaded === true);

const stored = async (page: Page, id: string) => JSON.parse((await page.evaluate((k) => localStorage.getItem(k), `arena.tournament.${id}`)) ?? "{}");

describe("Browser: tournaments", function () {
  this.timeout(120_000);
  const suite = browserSuite({ houseDelayMs: 0 });

  it("two browsers join a swiss tournament made on the page and follow its pairings and standings live", async () => {
    const ann = await openPage(suite.browser, suite.errors);
    await ann.goto(`${suite.server.url}/`);
    await fits(ann, "the home page");
    await ann.getByRole("link", { name: "Tournaments" }).click();
    await ann.waitForSelector("body[data-ready='true']");
    await fits(ann, "the list page");
    await ann.getByLabel("Name", { exact: true }).fill("Friday swiss");
    await ann.getByLabel("Rounds").fill("2");
    await ann.getByRole("button", { name: "Create the tournament" }).click();
    await ann.waitForURL(/\/tournaments\/t_/);
    const id = new URL(ann.url()).pathname.split("/")[2];
    await ann.waitForSelector("body[data-link='live'][data-status='open']");
    // The creator directs it: the director token is kept, and Start is shown (disabled with one entrant).
    assert.ok((await stored(ann, id)).director);
    assert.equal(await ann.isVisible("#start"), true);
    await ann.getByLabel("Your name").fill("Ann");
    await ann.getByRole("button", { name: "Join the tournament" }).click();
    await ann.waitForSelector("#standings tr[data-player]");
    assert.match((await ann.textContent("#you-status")) ?? "", /You are in as Ann/);
    assert.equal(await ann.isDisabled("#start"), true, "Start waits for a second entrant");
    await mark(ann);

    // The second browser finds it on the list and joins; Ann's page shows the entrant without a reload.
    const ben = await openPage(suite.browser, suite.errors);
    await ben.goto(`${suite.server.url}/tournaments`);
    await ben.waitForSelector("body[data-ready='true']");
    await ben.getByRole("link", { name: "Friday swiss" }).click();
    await ben.waitForSelector("body[data-link='live'][data-status='open']");
    assert.equal(await ben.isVisible("#start"), false, "only the director sees Start");
    await ben.getByLabel("Your name").fill("Ben");
    await ben.getByRole("button", { name: "Join the tournament" }).click();
    await ben.waitForSelector("#withdraw:not([hidden])");
    await mark(ben);
    await ann.waitForSelector("#standings tr:has-text('Ben')");
    assert.equal(await ann.textContent("#summary").then((t) => /2 entrants/.test(t ?? "")), true);

    // The director starts it: both pages show round 1's pairing and a link to play.
    await ann.getByRole("button", { name: "Start the tournament" }).click();
    for (const page of [ann, ben]) {
      await page.waitForSelector("body[data-status='running'][data-round='1'] #pairings li[data-game]");
      await page.waitForSelector("#play-game:not([hidden])");
      assert.match((await page.textContent("#summary")) ?? "", /Swiss · Classic rules · Running · Round 1 of 2/);
    }
    assert.equal(await ann.isVisible("#start"), false);
    const gameId = (await ann.getAttribute("#pairings li[data-game]", "data-game"))!;
    assert.equal(await ben.getAttribute("#play-game", "href"), `/play/${gameId}`);
    assert.equal(await ann.getAttribute(`#pairings a[href='/watch/${gameId}']`, "href"), `/watch/${gameId}`);
    await fits(ben, "the tournament page");
    await screenshots(ben, "tournament-running");

    // The entrant tokens are the seat tokens: the opening is played over REST, then Ben resigns on the play
    // page the link opens, seated by the token the tournament page handed over.
    const tokens = [(await stored(ann, id)).entrant.token, (await stored(ben, id)).entrant.token];
    await playOpening(suite.server.url, gameId, tokens);
    await ben.waitForFunction((g) => localStorage.getItem(`arena.seat.${g}`) !== null, gameId);
    const benGame = await ben.context().newPage();
    benGame.on("pageerror", (e) => suite.errors.push(`pageerror: ${e.message}`));
    await benGame.goto(`${suite.server.url}/play/${gameId}`);
    await benGame.waitForSelector("body[data-status='active'] #seat-actions:not([hidden])");
    await benGame.click("#resign");
    await benGame.click("#resign-confirm");
    await benGame.waitForSelector("body[data-status='finished']");
    // A tournament game offers no rematch (the pairings decide who meets next) and leads back to its tournament.
    await benGame.waitForSelector(`#end-links a[href='/tournaments/${id}']`);
    assert.equal(await benGame.isVisible("#rematch"), false);
    assert.equal(await benGame.textContent("#rematch-status"), "");

    // Both tournament pages count it live, and round 2 is paired on them at once.
    for (const page of [ann, ben]) {
      await page.waitForSelector("body[data-round='2'] #pairings li[data-game]");
      assert.equal(await scoreOf(page, "Ann"), "1");
      assert.equal(await scoreOf(page, "Ben"), "0");
    }
    const round2 = (await ann.getAttribute("#pairings li[data-game]", "data-game"))!;
    assert.notEqual(round2, gameId);

    // Ann plays round 2 from her link on the page (the same page navigates) and resigns before any move:
    // an aborted game counts as a draw, the last round is over, and Ben's page shows the end live.
    await ann.getByRole("link", { name: "Play your game" }).click();
    await ann.waitForURL(`**/play/${round2}`);
    await ann.waitForSelector("body[data-status='active'] #seat-actions:not([hidden])");
    await ann.click("#resign");
    await ann.click("#resign-confirm");
    await ben.waitForSelector("body[data-status='finished']");
    assert.equal(await scoreOf(ben, "Ann"), "1½");
    assert.equal(await scoreOf(ben, "Ben"), "½");
    assert.equal(await ben.isVisible("#withdraw"), false);
    assert.match((await ben.textContent("#you-status")) ?? "", /The tournament is over/);
    assert.equal(await unreloaded(ben), true, "Ben's page followed it all without a reload");
    assert.equal((await ann.goto(`${suite.server.url}/tournaments/${id}`))?.status(), 200);
    await ann.waitForSelector("body[data-status='finished']");
    await screenshots(ann, "tournament-finished");

    // The TRF link, and the list shows the tournament finished with its two entrants.
    const trf = await http(suite.server.url, "GET", (await ann.getAttribute("#trf", "href"))!);
    assert.match(trf.text, /^012 Friday swiss/m);
    await ann.goto(`${suite.server.url}/tournaments`);
    await ann.waitForSelector("body[data-ready='true']");
    const row = ann.locator(`tr[data-id='${id}']`);
    assert.deepEqual(await row.locator("td").allTextContents(), ["Friday swiss", "Swiss", "Finished", "2", "round 2 of 2"]);
    await screenshots(ann, "tournaments");
  });

  it("offline is told and caught up; an entrant withdraws; a profile joins as itself; an unknown tournament says so", async () => {
    const created = await http(suite.server.url, "POST", "/api/v1/tournaments", { name: "Quiet swiss", rounds: 1 });
    const page = await openPage(suite.browser, suite.errors);
    await page.goto(`${suite.server.url}/tournaments/${created.json.tournament.id}`);
    await page.waitForSelector("body[data-link='live'][data-status='open']");
    assert.equal(await page.isVisible("#start"), false);
    // Offline, the banner says the standings may be stale; back online it goes, and what changed meanwhile shows.
    await page.context().setOffline(true);
    await page.waitForSelector("#offline:not([hidden])");
    assert.match((await page.textContent("#offline")) ?? "", /offline.*out of date/i);
    assert.equal(await page.getAttribute("body", "data-link"), "offline");
    assert.equal((await http(suite.server.url, "POST", `/api/v1/tournaments/${created.json.tournament.id}/join`, { name: "Dan" })).status, 201);
    await page.context().setOffline(false);
    await page.waitForSelector("#offline", { state: "hidden" });
    await page.waitForSelector("body[data-link='live'] #standings tr:has-text('Dan')");
    suite.errors = suite.errors.filter((e) => !e.includes("ERR_INTERNET_DISCONNECTED"));
    await page.getByLabel("Your name").fill("Cal");
    await page.getByRole("button", { name: "Join the tournament" }).click();
    await page.getByRole("button", { name: "Withdraw" }).click();
    await page.getByRole("button", { name: "Yes, withdraw" }).click();
    await page.waitForSelector("#standings tr:has-text('(withdrawn)')");
    assert.match((await page.textContent("#you-status")) ?? "", /You have withdrawn/);
    const read = await http(suite.server.url, "GET", `/api/v1/tournaments/${created.json.tournament.id}`);
    assert.deepEqual(
      read.json.entrants.map((e: { name: string; withdrawn: boolean }) => [e.name, e.withdrawn]),
      [
        ["Dan", false],
        ["Cal", true],
      ],
    );
    // The stored entrant token is what withdrew: it is refused a second time only by the tournament's rules.
    const token = JSON.parse((await page.evaluate((k) => localStorage.getItem(k), `arena.tournament.${created.json.tournament.id}`))!).entrant.token;
    assert.equal((await http(suite.server.url, "POST", `/api/v1/tournaments/${created.json.tournament.id}/withdraw`, undefined, bearer(token))).status, 200);

    // A browser that holds a profile (from a game it played) joins as that profile, under its name.
    const game = await http(suite.server.url, "POST", "/api/v1/games", { opponent: "friend", name: "Eve" });
    await page.evaluate((p) => localStorage.setItem("arena.player", JSON.stringify(p)), { ...game.json.player, name: "Eve" });
    const second = await http(suite.server.url, "POST", "/api/v1/tournaments", { name: "Profile swiss", rounds: 1 });
    await page.goto(`${suite.server.url}/tournaments/${second.json.tournament.id}`);
    await page.waitForSelector("body[data-link='live']");
    assert.equal(await page.inputValue("#join-name"), "Eve");
    await page.getByRole("button", { name: "Join with your profile" }).click();
    await page.waitForSelector("#standings tr:has-text('Eve')");
    assert.equal((await stored(page, second.json.tournament.id)).entrant.playerId, game.json.player.id);

    await page.goto(`${suite.server.url}/tournaments/t_nosuchtournament`);
    await page.waitForSelector("body[data-status='unknown']");
    assert.match((await page.textContent("#notice")) ?? "", /There is no tournament/);
    suite.errors = suite.errors.filter((e) => !/404/.test(e));
  });
});

describe("Tournament pages: columns per format", () => {
  const row = (extra: Record<string, unknown>): StandingRow => ({ rank: 1, playerId: "p_a", name: "Ann", withdrawn: false, ...extra });

  it("swiss shows its score and tie-breaks in order; another format shows the numeric columns its rows carry", () => {
    const swiss = scoreColumns("swiss", [row({ score: 1, buchholz: 2, sonnebornBerger: 1, extra: 5 })]);
    assert.deepEqual(
      swiss.map((c) => [c.key, c.label]),
      [
        ["score", "Score"],
        ["buchholz", "Buchholz"],
        ["sonnebornBerger", "S-B"],
      ],
    );
    const arena = scoreColumns("arena", [row({ score: 9, games: 4, winStreak: 2, berserk: "no" })]);
    assert.deepEqual(
      arena.map((c) => [c.key, c.label]),
      [
        ["score", "Score"],
        ["games", "Games"],
        ["winStreak", "Win streak"],
      ],
    );
    assert.deepEqual(
      scoreColumns("arena", []).map((c) => c.key),
      ["score"],
    );
  });

  it("writes half points as people do", () => {
    assert.deepEqual([0, 0.5, 1, 1.5, 2.75].map(scoreText), ["0", "½", "1", "1½", "2.75"]);
  });
});
