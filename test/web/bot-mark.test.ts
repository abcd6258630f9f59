/**
 * The BOT mark in a real browser: a person joins a bot account's friend game from its invite page, the game
 * page marks the bot's seat, and after the game the bot's profile, /leaderboards and the replay mark it too
 * (the person's name never carries the mark).
 */
import assert from "node:assert/strict";
import { waitForJson } from "../agents/play";
import { playRest } from "../support/play";
import { http } from "../support/server";
import { browserSuite, openPage, playToEnd, screenshots } from "./browser";

describe("Browser: the BOT mark on a bot account's name", function () {
  this.timeout(90_000);
  const suite = browserSuite({});

  it("marks the bot on the game page, its profile, the leaderboard and the replay, and never the person", async () => {
    const registered = await http(suite.server.url, "POST", "/api/v1/bots", { name: "Robo" });
    assert.equal(registered.status, 201, registered.text);
    const botId = registered.json.bot.id as string;
    const created = await http(suite.server.url, "POST", "/api/v1/games", { opponent: "friend" }, { authorization: `Bearer ${registered.json.key}` });
    assert.equal(created.status, 201, created.text);
    const gameId = created.json.game.id as string;
    const botSeat = created.json.seat as "A" | "B";
    const personSeat = botSeat === "A" ? "B" : "A";

    const page = await openPage(suite.browser, suite.errors);
    await page.goto(created.json.inviteUrl);
    await page.getByLabel("Your name").fill("Pia");
    await page.getByRole("button", { name: "Join the game" }).click();
    await page.waitForURL(new RegExp(`/play/${gameId}$`));
    await page.waitForSelector("#hand .card");
    const mark = page.locator(`#seat-${botSeat}-name .bot-mark`);
    assert.equal(await mark.textContent(), "BOT");
    assert.match((await mark.getAttribute("title")) ?? "", /bot/i);
    assert.equal(await page.locator(`#seat-${personSeat}-name .bot-mark`).count(), 0);
    await screenshots(page, "bot-mark-game");
    await Promise.all([playRest(suite.server.url, gameId, created.json.playerToken), playToEnd(page)]);
    // The ratings are written just after the game ends.
    const board = await waitForJson(suite.server.url, "/api/v1/players?limit=50", (j) => j.standings.length === 2);
    const kinds = Object.fromEntries((board.standings as Array<{ kind: string; player: { name: string } }>).map((s) => [s.player.name, s.kind]));
    assert.deepEqual(kinds, { Pia: "person", Robo: "bot" });

    await page.goto(`${suite.server.url}/players/${botId}`);
    await page.waitForSelector("body[data-ready='true']");
    assert.equal(await page.locator("#title .bot-mark").textContent(), "BOT");

    await page.goto(`${suite.server.url}/leaderboards`);
    await page.waitForSelector("body[data-ready='true']");
    const rows = page.locator("#players table.standings:not(.bots) tbody tr");
    const marked = await rows.evaluateAll((trs) =>
      trs.map((tr) => [tr.querySelector("td:nth-child(2) a")?.textContent, Boolean(tr.querySelector(".bot-mark"))]),
    );
    assert.deepEqual(marked.sort(), [
      ["Pia", false],
      ["Robo", true],
    ]);
    await screenshots(page, "bot-mark-leaderboards");

    await page.goto(`${suite.server.url}/replay/${gameId}`);
    await page.waitForSelector(`#seat-${botSeat} .bot-mark`);
    assert.equal(await page.locator(`#seat-${personSeat} .bot-mark`).count(), 0);
  });
});
