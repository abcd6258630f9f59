/**
 * Player histories and the ranking in a real browser: a game played in one browser is listed on the
 * player's profile opened in a second browser context (no shared storage), and /leaderboards ranks the
 * people (provisional ratings marked) apart from the house's levels.
 */
import assert from "node:assert/strict";
import { browserSuite, openPage, playToEnd, screenshots } from "./browser";

describe("Browser: profiles list a player's games to anyone; the player leaderboard", function () {
  this.timeout(90_000);
  const suite = browserSuite({ houseDelayMs: 0 });

  it("lists a game played in one browser on the profile opened in another, and ranks the player", async () => {
    const player = await openPage(suite.browser, suite.errors);
    await player.goto(suite.server.url + "/");
    await player.getByLabel("Your name").fill("Hana");
    await player.locator("#house-level").selectOption("easy");
    await player.getByRole("button", { name: "Play the house" }).click();
    await player.waitForSelector("body[data-status='active'] #hand .card");
    const gameId = decodeURIComponent(player.url().split("/").pop()!);
    await playToEnd(player);
    await player.waitForSelector("#rating-change:not(:empty)");
    // The end panel marks the first result's rating as provisional.
    assert.equal(await player.getAttribute("#rating-change .rating", "data-provisional"), "true");
    const me = (await player.evaluate(() => JSON.parse(localStorage.getItem("arena.player") ?? "null"))) as { id: string };

    // A second browser context: no seat, no profile, nothing of the first one's storage.
    const visitor = await openPage(suite.browser, suite.errors);
    await visitor.goto(`${suite.server.url}/players/${me.id}`);
    await visitor.waitForSelector("body[data-ready='true']");
    assert.equal(await visitor.textContent("#title"), "Hana");
    const row = visitor.locator(`#recent li[data-game='${gameId}']`);
    assert.match((await row.textContent()) ?? "", /(won|lost|draw) against House \(easy\)/);
    assert.equal(await row.locator("a").getAttribute("href"), `/replay/${gameId}`);
    assert.equal(await visitor.getAttribute("#profile .rating", "data-provisional"), "true");
    await screenshots(visitor, "player-visitor");

    await visitor.goto(`${suite.server.url}/leaderboards`);
    await visitor.waitForSelector("body[data-ready='true']");
    const people = visitor.locator("#players table.standings:not(.bots) tbody tr");
    assert.equal(await people.count(), 1);
    assert.equal(await people.locator("td:nth-child(2)").textContent(), "Hana");
    assert.equal(await people.locator(".rating").getAttribute("data-provisional"), "true");
    assert.deepEqual(await visitor.locator("#players table.bots tbody td:first-child").allTextContents(), ["House (easy)", "House (normal)", "House (hard)"]);
    await screenshots(visitor, "leaderboards");
  });
});
