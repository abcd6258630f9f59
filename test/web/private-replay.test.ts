/**
 * A private game's replay page in a real browser: the seat that played it (its token kept in this browser)
 * sees the replay, since the page sends the seat's token with its reads; another browser is told there is no
 * such game.
 */
import assert from "node:assert/strict";
import { playRest } from "../support/play";
import { http } from "../support/server";
import { browserSuite, openPage } from "./browser";

describe("Browser: a private game's replay", function () {
  this.timeout(120_000);
  const suite = browserSuite({ houseDelayMs: 0 });

  it("shows the replay to the browser holding a seat and no game to any other", async () => {
    const g = await http(suite.server.url, "POST", "/api/v1/games", { opponent: "house", level: "easy", name: "Pia", public: false });
    const id = g.json.game.id as string;
    await playRest(suite.server.url, id, g.json.playerToken);

    const seat = await openPage(suite.browser, suite.errors);
    const stored = JSON.stringify({ token: g.json.playerToken, seat: g.json.seat });
    await seat.addInitScript(([key, value]) => localStorage.setItem(key, value), [`arena.seat.${id}`, stored] as const);
    await seat.goto(`${suite.server.url}/replay/${id}`);
    await seat.waitForSelector("#move-list button");
    assert.equal(await seat.locator("#message").isHidden(), true);
    await seat.waitForSelector("#log-proof:has-text('private game')");

    const outsider = await openPage(suite.browser, suite.errors);
    await outsider.goto(`${suite.server.url}/replay/${id}`);
    await outsider.waitForSelector("#message:has-text('There is no game with this id')");
    assert.equal(await outsider.locator("#move-list button").count(), 0);
    // The browser logs the answered 404s; nothing else may have gone wrong.
    const others = suite.errors.filter((e) => !/status of 404/.test(e));
    assert.deepEqual(others, []);
    suite.errors.splice(0);
  });
});
