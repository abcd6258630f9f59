/**
 * A bot as the hosted agent against a person in a real browser (playwright-core, Debian's Chromium): the
 * agent's challenge names its own bot; the TypeScript starter client hears of the game on the bot's event
 * stream and plays it with random legal moves while the person accepts the link and plays in the page; the
 * bot's seat carries the BOT mark, and the challenge reports the verified result. Skipped without Chromium.
 */
import { strict as assert } from "node:assert";
import { TileArena, randomMove, type Seated, type SeatSync } from "../../clients/typescript/client";
import { waitForJson } from "../agents/play";
import { bearer, http } from "../support/server";
import { browserSuite, openPage, playToEnd, screenshots } from "../web/browser";

type BotEvent = { type: string; gameId: string; seat: "A" | "B"; playerToken?: string; result?: string };

describe("Browser: a bot as the hosted agent plays a person", function () {
  this.timeout(120_000);
  const suite = browserSuite({ houseDelayMs: 0 });

  it("plays the person who accepts the challenge in the browser, and the challenge reports the verified result", async () => {
    const arena = new TileArena(suite.server.url);
    const { key, bot } = await arena.registerBot("Hosted starter", "ops@example.org");
    arena.key = key;
    const ch = await http(suite.server.url, "POST", "/api/v1/agent/challenge", { agent: { name: "Bot owner" }, opponent: "bot" }, bearer(key));
    assert.equal(ch.status, 201, ch.text);

    // The bot: waits on its event stream for the game it hosts, plays it to the end, then reads its finish.
    const seen: BotEvent[] = [];
    const botPlays = (async () => {
      let end: SeatSync | undefined;
      for await (const e of arena.stream<BotEvent>("/stream/events")) {
        seen.push(e);
        if (e.type === "gameStart" && e.playerToken) {
          const seated: Seated = { game: { id: e.gameId }, seat: e.seat, playerToken: e.playerToken };
          end = await arena.play(seated, randomMove);
        }
        if (e.type === "gameFinish") break;
      }
      return end;
    })();

    const page = await openPage(suite.browser, suite.errors);
    await page.goto(ch.json.url);
    await page.waitForSelector("#details:not([hidden])");
    assert.equal(await page.textContent("#title"), "Bot owner challenges you");
    await page.getByRole("button", { name: "Accept and play" }).click();
    await page.waitForURL(/\/play\//);
    await page.waitForSelector("body[data-status='active'], body[data-status='finished']");
    const start = seen.find((e) => e.type === "gameStart");
    assert.ok(start, "the bot heard of its game before the person's page showed it");
    const personSeat = start.seat === "A" ? "B" : "A";
    assert.equal(await page.locator(`#seat-${start.seat}-name .bot-mark`).textContent(), "BOT");
    assert.equal(await page.locator(`#seat-${personSeat}-name .bot-mark`).count(), 0);
    const personMoves = await playToEnd(page);
    assert.ok(personMoves >= 5, `the person placed ${personMoves} cards`);
    await screenshots(page, "bot-hosted-game");

    const botEnd = await botPlays;
    assert.ok(botEnd, "the bot played its game");
    assert.ok(botEnd.result && ["win", "loss", "draw"].includes(botEnd.result));
    assert.equal(seen.find((e) => e.type === "gameFinish")?.result, botEnd.result);
    await page.waitForFunction(() => /verified/.test(document.querySelector("#challenge-report")?.textContent ?? ""));
    const played = await waitForJson(suite.server.url, `/api/v1/agent/challenge/${ch.json.token}`, (j) => j.status === "played");
    assert.equal(played.result.humanSeat, personSeat);
    assert.equal(played.result.reported, true);
    const record = (await http(suite.server.url, "GET", `/api/v1/games/${start.gameId}`)).json;
    assert.equal(record.players[start.seat].id, bot.id);
    assert.equal(record.players[start.seat].kind, "bot");
    assert.equal(played.result.winner, record.winner);
  });
});
