/**
 * A resignation before both seats placed a card, in two browsers: the game is aborted and unrated, as a
 * clock abort is. Both pages say so (with the move count written as people write it), offer no rematch,
 * review or replay, and both players' ratings and game counts are unchanged.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { http } from "../support/server";
import { browserSuite, openPage, screenshots } from "./browser";

interface Answer {
  game: { id: string };
  seat: "A" | "B";
  playerToken: string;
  player: { id: string; secret: string };
}

describe("Browser: a resignation before both seats placed a card aborts the game, unrated", function () {
  this.timeout(90_000);
  const suite = browserSuite({ houseDelayMs: 0 });

  /** The seat's play page in its own browser context, holding the seat and the profile as the answer would leave them. */
  async function seatPage(answer: Answer, name: string): Promise<Page> {
    const page = await openPage(suite.browser, suite.errors);
    await page.goto(`${suite.server.url}/`);
    await page.evaluate(
      ([id, seat, player]) => {
        localStorage.setItem(`arena.seat.${id}`, seat);
        localStorage.setItem("arena.player", player);
      },
      [
        answer.game.id,
        JSON.stringify({ token: answer.playerToken, seat: answer.seat }),
        JSON.stringify({ id: answer.player.id, secret: answer.player.secret, name }),
      ],
    );
    await page.goto(`${suite.server.url}/play/${answer.game.id}`);
    await page.waitForSelector("body[data-status='active'] #hand .card");
    return page;
  }

  async function ratings(ids: string[]) {
    return Promise.all(
      ids.map(async (id) => {
        const p = (await http(suite.server.url, "GET", `/api/v1/players/${id}`)).json.player;
        return { rating: p.rating, provisional: p.provisional, games: p.games, form: p.recentForm };
      }),
    );
  }

  async function resign(page: Page): Promise<void> {
    await page.getByRole("button", { name: "Resign" }).click();
    await page.getByRole("button", { name: "Yes, resign" }).click();
  }

  /** Both pages' end panels: aborted, not rated, "after n move(s)", no rematch, and the links expected. */
  async function assertAborted(pages: Page[], detail: RegExp, links: string[]): Promise<void> {
    for (const page of pages) {
      await page.waitForSelector("#end:not([hidden])");
      assert.equal(await page.textContent("#end-title"), "No winner: the game was aborted.");
      assert.match((await page.textContent("#end-detail")) ?? "", detail);
      await page.waitForFunction(() => document.querySelector("#rating-change")?.textContent === "Aborted games are not rated.");
      assert.deepEqual(await page.locator("#end-links a").allTextContents(), links);
      // The seat view is read once to learn whether a rematch is offered: an aborted game offers none.
      await page.waitForTimeout(300);
      assert.equal(await page.isVisible("#rematch"), false);
    }
  }

  it("resigned before any placement, and after one: both players' ratings unchanged", async () => {
    const host = await http(suite.server.url, "POST", "/api/v1/games", { opponent: "friend", name: "Ann" });
    const guest = await http(suite.server.url, "POST", "/api/v1/games/join", { code: host.json.code, name: "Ben" });
    const ids = [host.json.player.id as string, guest.json.player.id as string];
    const before = await ratings(ids);
    assert.deepEqual(
      before.map((r) => r.games),
      [0, 0],
    );

    // Before any placement: the seat to move resigns at once.
    const pages = [await seatPage(host.json, "Ann"), await seatPage(guest.json, "Ben")];
    const turn = (await http(suite.server.url, "GET", `/api/v1/games/${host.json.game.id}`)).json.turn as string;
    const mover = host.json.seat === turn ? 0 : 1;
    await resign(pages[mover]);
    // Nothing was played: nothing to review or replay.
    await assertAborted(pages, /^Final score A 0 – B 0 after 0 moves: aborted, so not rated\.$/, ["New game"]);
    await screenshots(pages[1 - mover], "aborted");
    assert.deepEqual(await ratings(ids), before);
    const record = (await http(suite.server.url, "GET", `/api/v1/games/${host.json.game.id}`)).json;
    assert.deepEqual([record.decidedBy, record.winner], ["aborted", null]);

    // After one placement (the first mover's), the other seat resigns: still aborted, still unrated.
    const ref = (a: Answer) => ({ id: a.player.id, secret: a.player.secret });
    const again = await http(suite.server.url, "POST", "/api/v1/games", { opponent: "friend", name: "Ann", player: ref(host.json) });
    const joined = await http(suite.server.url, "POST", "/api/v1/games/join", { code: again.json.code, name: "Ben", player: ref(guest.json) });
    // A known profile is not answered again: the pages keep the one they hold.
    const second = [await seatPage({ ...again.json, player: host.json.player }, "Ann"), await seatPage({ ...joined.json, player: guest.json.player }, "Ben")];
    const first = (await http(suite.server.url, "GET", `/api/v1/games/${again.json.game.id}`)).json.turn === again.json.seat ? 0 : 1;
    await second[first].waitForSelector("body[data-your-turn='true']");
    await second[first].locator("#hand .card").first().click();
    await second[first].locator("#board .square[data-owner='']").first().click();
    await second[1 - first].waitForFunction(() => document.querySelectorAll("#board .square:not([data-owner=''])").length === 1);
    await resign(second[1 - first]);
    await assertAborted(second, /after 1 move: aborted, so not rated\.$/, ["Review the game", "Replay", "New game"]);
    assert.deepEqual(await ratings(ids), before);
    // The review gives the seat that never moved no accuracy (not "100%").
    const resigner = second[1 - first];
    await resigner.getByRole("link", { name: "Review the game" }).click();
    await resigner.waitForFunction(() => /accuracy/.test(document.querySelector("#review-summary")?.textContent ?? ""));
    const seat = [again.json, joined.json][1 - first].seat as string;
    const summary = (await resigner.textContent("#review-summary")) ?? "";
    assert.match(summary, new RegExp(`${seat} made no move`));
    assert.equal((summary.match(/%/g) ?? []).length, 1, summary);
  });
});
