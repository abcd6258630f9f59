/**
 * The rematch in two browsers, as lichess offers it: both seats play a card, one resigns, one page offers a
 * rematch on the end panel, the other page sees the offer and accepts (or declines, and the offerer reads
 * it), and both pages are taken to the new game with the seats swapped. A friend game made over REST, and a
 * quick match made on the home page, whose offer a REST reader of the seat view sees too.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { bearer, http } from "../support/server";
import { browserSuite, openPage, playOneCard, screenshots } from "./browser";

describe("Browser: the rematch of a friend game and of a quick match", function () {
  this.timeout(90_000);
  const suite = browserSuite({ houseDelayMs: 0 });

  /** Opens the seat's play page in its own browser context, the seat stored as the create or join answer would. */
  async function seatPage(gameId: string, seat: string, token: string): Promise<Page> {
    const page = await openPage(suite.browser, suite.errors);
    await page.goto(`${suite.server.url}/`);
    await page.evaluate(([id, value]) => localStorage.setItem(`arena.seat.${id}`, value), [gameId, JSON.stringify({ token, seat })]);
    await page.goto(`${suite.server.url}/play/${gameId}`);
    return page;
  }

  it("one seat offers, the other sees the offer and accepts, and both play the new game with seats swapped", async () => {
    const created = await http(suite.server.url, "POST", "/api/v1/games", { opponent: "friend", name: "Ann", seat: "A" });
    const joined = await http(suite.server.url, "POST", "/api/v1/games/join", { code: created.json.code, name: "Ben" });
    const id = created.json.game.id as string;
    const ann = await seatPage(id, "A", created.json.playerToken);
    const ben = await seatPage(id, "B", joined.json.playerToken);
    // One card each, so that the resignation is a played (rated) game, which offers a rematch.
    await Promise.all([playOneCard(ann), playOneCard(ben)]);
    await ann.getByRole("button", { name: "Resign" }).click();
    await ann.getByRole("button", { name: "Yes, resign" }).click();
    await Promise.all([ann, ben].map((p) => p.waitForSelector("#end:not([hidden]) #rematch:not([hidden])")));

    await ann.getByRole("button", { name: "Rematch" }).click();
    await ann.waitForSelector("#rematch:text('Offer sent')");
    assert.equal(await ann.isDisabled("#rematch"), true);
    await ben.waitForSelector("#rematch:text('Accept rematch')");
    assert.equal(await ben.isVisible("#rematch-decline"), true);
    assert.match((await ben.textContent("#rematch-status")) ?? "", /offers a rematch/);
    await screenshots(ben, "rematch-offered");

    const away = (p: Page) => p.waitForURL((u) => u.pathname.startsWith("/play/") && !u.pathname.endsWith(id));
    await Promise.all([away(ann), away(ben), ben.getByRole("button", { name: "Accept rematch" }).click()]);
    const newId = decodeURIComponent(ann.url().split("/").pop()!);
    assert.equal(decodeURIComponent(ben.url().split("/").pop()!), newId);
    // Seats swapped: Ann sat at A and now sits at B; both pages are connected as their new seat.
    await ann.waitForFunction(() => /Connected as seat B\./.test(document.querySelector("#connection")?.textContent ?? ""));
    await ben.waitForFunction(() => /Connected as seat A\./.test(document.querySelector("#connection")?.textContent ?? ""));
    const record = (await http(suite.server.url, "GET", `/api/v1/games/${newId}`)).json;
    assert.equal(record.status, "active");
    assert.equal(record.players.A.name, "Ben");
    assert.equal(record.players.B.name, "Ann");
    assert.equal(record.ruleset, created.json.game.ruleset);
    // The new game plays: one card each from the pages.
    await Promise.all([playOneCard(ann), playOneCard(ben)]);
    await screenshots(ann, "rematch-started");
  });

  it("a quick match's rematch: declined, offered again (seen in the REST seat view), accepted, seats swapped", async () => {
    const [ann, ben] = [await openPage(suite.browser, suite.errors), await openPage(suite.browser, suite.errors)];
    for (const [page, name] of [
      [ann, "Ann"],
      [ben, "Ben"],
    ] as const) {
      await page.goto(suite.server.url + "/");
      await page.getByLabel("Your name").fill(name);
      await page.getByRole("button", { name: "Find an opponent" }).click();
    }
    await Promise.all([ann.waitForURL(/\/play\//), ben.waitForURL(/\/play\//)]);
    const id = decodeURIComponent(ann.url().split("/").pop()!);
    assert.equal(decodeURIComponent(ben.url().split("/").pop()!), id);
    const stored = (p: Page, gameId: string) =>
      p.evaluate((g) => JSON.parse(localStorage.getItem(`arena.seat.${g}`)!) as { token: string; seat: "A" | "B" }, gameId);
    const [annSeat, benSeat] = [await stored(ann, id), await stored(ben, id)];
    const finished = (await http(suite.server.url, "GET", `/api/v1/games/${id}`)).json;
    assert.equal(finished.opponent, "quick");

    await Promise.all([playOneCard(ann), playOneCard(ben)]);
    await ann.getByRole("button", { name: "Resign" }).click();
    await ann.getByRole("button", { name: "Yes, resign" }).click();
    await Promise.all([ann, ben].map((p) => p.waitForSelector("#end:not([hidden]) #rematch:not([hidden])")));

    // Offered, then declined: the offerer reads it and may offer again.
    await ann.getByRole("button", { name: "Rematch" }).click();
    await ben.waitForSelector("#rematch:text('Accept rematch')");
    await ben.getByRole("button", { name: "Decline" }).click();
    await ann.waitForFunction(() => document.querySelector("#rematch-status")?.textContent === "Your opponent declined the rematch.");
    assert.equal(await ann.textContent("#rematch"), "Rematch");
    assert.equal(await ben.isVisible("#rematch-decline"), false);
    const view = async () => (await http(suite.server.url, "GET", `/api/v1/games/${id}/sync`, undefined, bearer(benSeat.token))).json.rematch;
    assert.deepEqual(await view(), { offeredBy: null });

    // Offered again: a REST agent holding the other seat's token sees the offer in its seat view.
    await ann.getByRole("button", { name: "Rematch" }).click();
    await ben.waitForSelector("#rematch:text('Accept rematch')");
    assert.equal((await view()).offeredBy, annSeat.seat);
    const away = (p: Page) => p.waitForURL((u) => u.pathname.startsWith("/play/") && !u.pathname.endsWith(id));
    await Promise.all([away(ann), away(ben), ben.getByRole("button", { name: "Accept rematch" }).click()]);
    const newId = decodeURIComponent(ann.url().split("/").pop()!);
    assert.equal(decodeURIComponent(ben.url().split("/").pop()!), newId);
    assert.equal((await view()).gameId, newId);
    assert.equal((await stored(ann, newId)).seat, benSeat.seat);
    assert.equal((await stored(ben, newId)).seat, annSeat.seat);
    const record = (await http(suite.server.url, "GET", `/api/v1/games/${newId}`)).json;
    assert.equal(record.players[benSeat.seat].name, "Ann");
    assert.equal(record.players[annSeat.seat].name, "Ben");
    assert.equal(record.ruleset, finished.ruleset);
    await Promise.all([playOneCard(ann), playOneCard(ben)]);
  });
});
