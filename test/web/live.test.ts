/**
 * The web client's other pages in a real browser: a spectator page follows a game played over REST, the
 * join page seats a human from an invite code, two browsers play each other from the home page's invite,
 * and an agent's challenge link is accepted, played and reported.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { pickMove, playRest } from "../support/play";
import { bearer, http } from "../support/server";
import { browserSuite, openPage, playToEnd, screenshots } from "./browser";

const cardsOnBoard = (page: Page) => page.locator("#board .square[data-owner='A'], #board .square[data-owner='B']").count();

describe("Browser: watching, joining and challenges", function () {
  this.timeout(90_000);
  const suite = browserSuite({ houseDelayMs: 0 });

  async function friendGame() {
    const created = await http(suite.server.url, "POST", "/api/v1/games", { opponent: "friend", name: "Ann" });
    assert.equal(created.status, 201);
    return created.json;
  }

  it("a spectator page follows moves live and never shows a hand", async () => {
    const g = await friendGame();
    const joined = await http(suite.server.url, "POST", "/api/v1/games/join", { code: g.code, name: "Ben" });
    assert.equal(joined.status, 200);
    const tokens: Record<string, string> = { [g.seat]: g.playerToken, [joined.json.seat]: joined.json.playerToken };
    const page = await openPage(suite.browser, suite.errors);
    // Every WebSocket frame the spectator's browser receives, to show that no hand is ever in one.
    const frames: Buffer[] = [];
    page.on("websocket", (ws) => ws.on("framereceived", (f) => frames.push(Buffer.from(f.payload))));
    await page.goto(`${suite.server.url}/watch/${g.game.id}`);
    await page.waitForSelector("body[data-status='active']");
    assert.equal(await page.isVisible("#hand-section"), false);
    assert.match((await page.textContent("#seat-A-info")) ?? "", /[56] cards in hand/); // six for a classic first mover (rules versions 2 and 3)

    for (let i = 1; i <= 3; i++) {
      const turn = (await http(suite.server.url, "GET", `/api/v1/games/${g.game.id}`)).json.turn as string;
      const sync = await http(suite.server.url, "GET", `/api/v1/games/${g.game.id}/sync`, undefined, bearer(tokens[turn]));
      const move = pickMove(sync.json.state);
      assert.equal((await http(suite.server.url, "POST", `/api/v1/games/${g.game.id}/moves`, move, bearer(tokens[turn]))).status, 200);
      await page.waitForFunction((n) => document.querySelectorAll("#board img").length === n, i);
      assert.equal(await page.getAttribute(`[data-square='${move.square}']`, "data-owner"), turn);
      assert.match((await page.textContent("#last-move")) ?? "", new RegExp(`@${move.square}`));
    }
    assert.equal(await cardsOnBoard(page), 3);
    assert.match(await page.title(), /^Ann vs Ben · Watch/);
    const received = Buffer.concat(frames);
    // A card id as the schema state and messages encode a string (msgpack fixstr: its length, then its bytes).
    const encoded = (id: string) => Buffer.concat([Buffer.from([0xa0 | id.length]), Buffer.from(id)]);
    const board = (await http(suite.server.url, "GET", `/api/v1/games/${g.game.id}`)).json.board as Array<{ card: string; name: string }>;
    // The check can fail: the ids of the board's cards are in the frames...
    for (const c of board) assert.ok(received.includes(encoded(c.card)), `board card ${c.card} reached the spectator`);
    // ...and neither the ids nor the names of the cards held in either hand are (or a move naming one).
    for (const seat of ["A", "B"]) {
      const hand = (await http(suite.server.url, "GET", `/api/v1/games/${g.game.id}/sync`, undefined, bearer(tokens[seat]))).json.state.hand as Array<{
        id: string;
        name: string;
      }>;
      for (const c of hand.filter((h) => !board.some((b) => b.card === h.id))) {
        for (const text of [encoded(c.id), Buffer.from(`${c.id}@`), Buffer.from(c.name)])
          assert.equal(received.includes(text), false, `${seat}'s ${c.id} was sent to a spectator`);
      }
    }
    await screenshots(page, "watch");

    await http(suite.server.url, "POST", `/api/v1/games/${g.game.id}/resign`, {}, bearer(tokens.A));
    await page.waitForSelector("#end:not([hidden])");
    assert.match((await page.textContent("#end-title")) ?? "", /\(B\) won/);

    // A play link without a seat in this browser watches instead.
    const other = await openPage(suite.browser, suite.errors);
    await other.goto(`${suite.server.url}/play/${g.game.id}`);
    await other.waitForSelector("#notice:not([hidden])");
    assert.match((await other.textContent("#notice")) ?? "", /watching/);
    await other.waitForSelector("body[data-status='finished']");
    assert.equal(await other.isVisible("#hand-section"), false);
  });

  it("the join page claims the invited seat, and the human plays a REST opponent to the end", async () => {
    const g = await friendGame();
    const page = await openPage(suite.browser, suite.errors);
    const requests: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    await page.goto(g.inviteUrl);
    assert.equal(await page.textContent("#code"), g.code);
    await screenshots(page, "join");
    await page.getByLabel("Your name").fill("Bea");
    await page.getByRole("button", { name: "Join the game" }).click();
    await page.waitForURL(new RegExp(`/play/${g.game.id}$`));
    await page.waitForSelector("#hand .card");
    assert.match((await page.textContent(`#seat-${g.seat === "A" ? "B" : "A"}-name`)) ?? "", /Bea \(you\)/);
    // The join answer's seat reservation connected the page: no matchmaking request of its own.
    assert.ok(
      requests.some((u) => u.includes("/api/v1/games/join")),
      requests.join("\n"),
    );
    assert.deepEqual(
      requests.filter((u) => u.includes("/matchmake/")),
      [],
    );

    const [rest] = await Promise.all([playRest(suite.server.url, g.game.id, g.playerToken), playToEnd(page)]);
    assert.equal(rest.status, "finished");
    await page.waitForSelector("#end:not([hidden])");
    assert.match((await page.textContent("#end-detail")) ?? "", new RegExp(`A ${rest.state.score.A} – B ${rest.state.score.B}`));

    // The same invite cannot be used twice: the page says so before any form.
    const again = await openPage(suite.browser, suite.errors);
    await again.goto(g.inviteUrl);
    await again.waitForSelector("body[data-ready='true']");
    assert.equal(await again.isVisible("#join-form"), false);
    assert.match((await again.textContent("#invite-notice")) ?? "", /already used|no longer waiting/);
  });

  it("two browsers play each other through the home page's invite link", async () => {
    const host = await openPage(suite.browser, suite.errors);
    await host.goto(suite.server.url + "/");
    await host.getByLabel("Your name").fill("Host");
    await host.getByRole("button", { name: "Create an invite link" }).click();
    // The link appears once the create request has answered.
    await host.waitForFunction(() => (document.querySelector<HTMLInputElement>("#invite-url")?.value ?? "") !== "");
    const inviteUrl = await host.inputValue("#invite-url");
    assert.match(inviteUrl, /\/join\/[A-Z0-9]+$/);
    await host.getByRole("link", { name: "Go to the game" }).click();
    await host.waitForSelector("body[data-status='waiting']");
    assert.match((await host.textContent("#turn")) ?? "", /Waiting for the second player/);

    const guest = await openPage(suite.browser, suite.errors);
    await guest.goto(inviteUrl);
    await guest.getByRole("button", { name: "Join the game" }).click();
    await guest.waitForURL(/\/play\//);
    await host.waitForSelector("body[data-status='active']");
    await Promise.all([playToEnd(host), playToEnd(guest)]);
    const titles = [await host.textContent("#end-title"), await guest.textContent("#end-title")].sort();
    assert.ok(titles.join("|") === "Draw.|Draw." || titles.join("|") === "You lost.|You won!", titles.join("|"));
  });

  it("quick match on the home page pairs two browsers into one game", async () => {
    const [one, two] = [await openPage(suite.browser, suite.errors), await openPage(suite.browser, suite.errors)];
    const matchmaking: string[] = [];
    for (const page of [one, two]) {
      page.on("request", (r) => r.url().includes("/matchmake/") && matchmaking.push(r.url()));
      await page.goto(suite.server.url + "/");
      await page.getByRole("button", { name: "Find an opponent" }).click();
    }
    await Promise.all([one.waitForURL(/\/play\//), two.waitForURL(/\/play\//)]);
    assert.equal(one.url(), two.url());
    await Promise.all([one.waitForSelector("#hand .card"), two.waitForSelector("#hand .card")]);
    // Each matched answer carried its seat's reservation: neither page made a matchmaking request.
    assert.deepEqual(matchmaking, []);
    await one.getByRole("button", { name: "Resign" }).click();
    await one.getByRole("button", { name: "Yes, resign" }).click();
    await two.waitForSelector("#end:not([hidden])");
    // Resigned before either seat placed a card: aborted and unrated, not a win.
    assert.equal(await two.textContent("#end-title"), "No winner: the game was aborted.");
  });

  it("an agent's challenge link is accepted, played against the house and reported", async () => {
    const c = await http(suite.server.url, "POST", "/api/v1/agent/challenge", { agent: { name: "Probe" }, level: "easy" });
    assert.equal(c.status, 201);
    const page = await openPage(suite.browser, suite.errors);
    await page.goto(c.json.url);
    await page.waitForSelector("#details:not([hidden])");
    assert.equal(await page.textContent("#title"), "Probe challenges you");
    assert.equal(await page.textContent("#level"), "easy");
    await screenshots(page, "challenge");
    await page.getByRole("button", { name: "Accept and play" }).click();
    await page.waitForURL(/\/play\//);
    await playToEnd(page);
    await page.waitForFunction(() => /verified/.test(document.querySelector("#challenge-report")?.textContent ?? ""));

    const after = await http(suite.server.url, "GET", `/api/v1/agent/challenge/${c.json.token}`);
    assert.equal(after.json.status, "played");
    assert.equal(after.json.result.reported, true);
    await page.goto(c.json.url);
    await page.waitForSelector("#message a");
    assert.match((await page.textContent("#message")) ?? "", /won|draw/i);
  });
});
