/**
 * Ranges past the public log's tree are a client's mistake, answered 400 `bad_request` as RFC 6962 logs answer a
 * get-entries past theirs (entries from its size on, an export whose `to` is before its `from`); and a player's
 * page for no player is an HTML 404 page, as its API answer is a 404.
 */
import assert from "node:assert/strict";
import type { RunningServer } from "../../src/server";
import { fillLog } from "../support/log-fill";
import { bootServer, http } from "../support/server";

const HTML = { accept: "text/html,application/xhtml+xml,*/*;q=0.8" };

describe("Ranges past the log, and pages of no one", function () {
  this.timeout(30_000);
  let server: RunningServer;
  before(async function () {
    server = await bootServer();
    await fillLog(server.store.log, 5, 200);
  });
  after(async function () {
    await server?.close();
  });

  const badRequest = (res: Awaited<ReturnType<typeof http>>, detail: RegExp) => {
    assert.equal(res.status, 400);
    assert.match(res.headers.get("content-type") ?? "", /application\/problem\+json/);
    assert.equal(res.json.code, "bad_request");
    assert.match(res.json.detail, detail);
  };

  it("answers entries from the log's size on with 400, and the last entry with itself", async function () {
    badRequest(await http(server.url, "GET", "/api/v1/log/entries?from=5"), /past the log/);
    badRequest(await http(server.url, "GET", "/api/v1/log/entries?from=900&count=10"), /past the log/);
    const last = await http(server.url, "GET", "/api/v1/log/entries?from=4&count=10");
    assert.equal(last.status, 200);
    assert.equal(last.json.treeSize, 5);
    assert.deepEqual(
      last.json.entries.map((e: { index: number }) => e.index),
      [4],
    );
    assert.equal(last.json.entries[0].entry.gameId, "F0000004");
  });

  it("answers an export whose to is before its from, or whose from is past the tree, with 400", async function () {
    badRequest(await http(server.url, "GET", "/api/v1/exports/games?from=7&to=2"), /before from/);
    badRequest(await http(server.url, "GET", "/api/v1/exports/games?from=3&to=2"), /before from/);
    badRequest(await http(server.url, "GET", "/api/v1/exports/games?from=6"), /past the log/);
    // A range ending at the tree's end is fine, even empty (a follower with every entry reads nothing new).
    const tail = await http(server.url, "GET", "/api/v1/exports/games?from=3&to=9");
    assert.equal(tail.status, 200);
    assert.deepEqual(
      tail.text
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).index),
      [3, 4],
    );
    const none = await http(server.url, "GET", "/api/v1/exports/games?from=5");
    assert.equal(none.status, 200);
    assert.equal(none.text, "");
  });

  it("answers the page of an unknown player with the HTML 404 page, and a known one's with its page", async function () {
    const unknown = await http(server.url, "GET", "/players/P-NOBODY", undefined, HTML);
    assert.equal(unknown.status, 404);
    assert.match(unknown.headers.get("content-type") ?? "", /text\/html/);
    assert.match(unknown.text, /Page not found/);
    assert.match(unknown.headers.get("content-security-policy") ?? "", /script-src 'self'/);
    const bot = await http(server.url, "POST", "/api/v1/bots", { name: "Paged" });
    const known = await http(server.url, "GET", `/players/${bot.json.bot.id}`, undefined, HTML);
    assert.equal(known.status, 200);
    assert.match(known.headers.get("content-type") ?? "", /text\/html/);
    assert.doesNotMatch(known.text, /Page not found/);
  });
});
