/**
 * Player histories and the ranking in a real browser: a game played in one browser is listed on the
 * player's profile opened in a second browser context (no shared storage), and /leaderboards ranks the
 * people (provisional ratings marked) apart from the house's levels. GET /players/{id}/games pages a player's
 * games newest first with public fields only, MCP's player_games answers the same, and the profile page
 * shows them ten at a time.
 */
import assert from "node:assert/strict";
import { connect } from "../mcp/helpers";
import { bearer, http } from "../support/server";
import { browserSuite, openPage, playToEnd, screenshots } from "./browser";

/** The fields a listed game carries: public ones only (no token, invite code, hand, seed or salt). */
const LISTED = [
  "createdAt",
  "decidedBy",
  "finishedAt",
  "id",
  "moveCount",
  "opponent",
  "players",
  "result",
  "ruleset",
  "score",
  "seat",
  "status",
  "urls",
  "winner",
];

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

  it("pages a player's games newest first, public fields only, the same over REST, MCP and on the profile page", async () => {
    // Eleven finished games (each resigned at once: aborted) and a twelfth still being played.
    const first = await http(suite.server.url, "POST", "/api/v1/games", { opponent: "house", level: "easy", name: "Ida" });
    const player = { id: first.json.player.id as string, secret: first.json.player.secret as string };
    const made: string[] = [];
    for (let i = 0; i < 12; i++) {
      const g = i === 0 ? first : await http(suite.server.url, "POST", "/api/v1/games", { opponent: "house", level: "easy", name: "Ida", player });
      assert.equal(g.status, 201, g.text);
      made.push(g.json.game.id);
      if (i < 11)
        assert.equal((await http(suite.server.url, "POST", `/api/v1/games/${g.json.game.id}/resign`, undefined, bearer(g.json.playerToken))).status, 200);
    }

    // Over REST, five at a time: every game once, newest first, with public fields only.
    const listed: Array<Record<string, any>> = [];
    let cursor: string | undefined;
    do {
      const page = await http(suite.server.url, "GET", `/api/v1/players/${player.id}/games?limit=5${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      assert.equal(page.status, 200, page.text);
      assert.ok(page.json.games.length <= 5);
      listed.push(...page.json.games);
      cursor = page.json.nextCursor ?? undefined;
    } while (cursor);
    assert.deepEqual(listed.map((g) => g.id).sort(), [...made].sort());
    assert.equal(listed[0].id, made[11], "the game still being played, made last, comes first");
    assert.deepEqual([listed[0].status, listed[0].result], ["active", null]);
    for (let i = 1; i < listed.length; i++) assert.ok(listed[i - 1].createdAt >= listed[i].createdAt, `newest first at ${i}`);
    for (const g of listed) {
      assert.deepEqual(Object.keys(g).sort(), LISTED, g.id);
      assert.deepEqual(g.players, { A: g.seat === "A" ? "Ida" : "House (easy)", B: g.seat === "B" ? "Ida" : "House (easy)" });
    }
    assert.ok(listed.slice(1).every((g) => g.result === "aborted" && g.decidedBy === "aborted"));
    const text = JSON.stringify(listed);
    for (const secret of [first.json.playerToken, first.json.player.secret]) assert.ok(!text.includes(secret), "no token or secret in the list");

    // MCP's player_games answers the same page.
    const mcp = await connect(suite.server.url);
    try {
      const tool = await mcp.ok("player_games", { player_id: player.id, limit: 5 });
      assert.deepEqual(
        tool.games.map((g: { id: string }) => g.id),
        listed.slice(0, 5).map((g) => g.id),
      );
      assert.equal(typeof tool.nextCursor, "string");
    } finally {
      await mcp.close();
    }

    // The profile page, opened by a visitor: ten games, then "More games" brings the other two, in the API's order.
    const visitor = await openPage(suite.browser, suite.errors);
    await visitor.goto(`${suite.server.url}/players/${player.id}`);
    await visitor.waitForSelector("body[data-ready='true']");
    const rows = visitor.locator("#recent li[data-game]");
    assert.equal(await rows.count(), 10);
    assert.match((await rows.first().textContent()) ?? "", /^playing House \(easy\) now, 0–[01] · classic · [01] moves? · /);
    assert.equal(await rows.first().locator("a").getAttribute("href"), `/watch/${made[11]}`);
    assert.match((await rows.nth(1).textContent()) ?? "", /^aborted against House \(easy\)/);
    await visitor.getByRole("button", { name: "More games" }).click();
    await visitor.waitForFunction(() => document.querySelectorAll("#recent li[data-game]").length === 12);
    assert.deepEqual(
      await rows.evaluateAll((li) => li.map((x) => x.getAttribute("data-game"))),
      listed.map((g) => g.id),
    );
    assert.equal(await visitor.isVisible("#recent-more"), false);
  });
});
