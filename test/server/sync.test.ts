import { strict as assert } from "node:assert";
import type { RunningServer } from "../../src/server";
import { pickMove, seatedFriendGame } from "../support/play";
import { bearer, bootServer, http } from "../support/server";

describe("Integration: sync long-poll", function () {
  this.timeout(30_000);
  let server: RunningServer;
  let id: string;
  let tokens: Record<string, string>;
  before(async () => {
    server = await bootServer();
    ({ id, tokens } = await seatedFriendGame(server.url));
  });
  after(async () => server.close());

  async function turnSeat(): Promise<"A" | "B"> {
    const r = await http(server.url, "GET", `/api/v1/games/${id}`);
    return r.json.turn;
  }

  it("waits for the other seat's move and is woken by it", async () => {
    const mover = await turnSeat();
    const other = mover === "A" ? "B" : "A";
    const view = (await http(server.url, "GET", `/api/v1/games/${id}/sync`, undefined, bearer(tokens[mover]))).json;
    const since = view.moveCount;
    const started = Date.now();
    const waiting = http(server.url, "GET", `/api/v1/games/${id}/sync?since=${since}&timeout=15`, undefined, bearer(tokens[other]));
    await new Promise((r) => setTimeout(r, 300));
    const moved = await http(server.url, "POST", `/api/v1/games/${id}/moves`, pickMove(view.state), bearer(tokens[mover]));
    assert.equal(moved.status, 200);
    const woken = await waiting;
    const waited = Date.now() - started;
    assert.equal(woken.status, 200);
    assert.equal(woken.json.moves.length, 1);
    assert.equal(woken.json.moves[0].index, since);
    assert.equal(woken.json.moves[0].notation, moved.json.move.notation);
    assert.ok(Array.isArray(woken.json.moves[0].events) && woken.json.moves[0].events.length > 0);
    assert.ok(woken.json.moves[0].state.board.length >= 1);
    assert.ok(woken.json.lastMoveAt);
    assert.ok(waited < 10_000, "woken by the move, not by the timeout");
  });

  it("returns at the timeout with no new moves when nothing happens", async () => {
    const mover = await turnSeat();
    const other = mover === "A" ? "B" : "A";
    const count = (await http(server.url, "GET", `/api/v1/games/${id}`)).json.moveCount;
    const started = Date.now();
    const r = await http(server.url, "GET", `/api/v1/games/${id}/sync?since=${count}&timeout=1`, undefined, bearer(tokens[other]));
    assert.equal(r.status, 200);
    assert.equal(r.json.moves.length, 0);
    assert.ok(Date.now() - started >= 900);
  });

  it("answers bad_request problem documents for since past the end, negatives, non-integers and timeout above 20", async () => {
    const count = (await http(server.url, "GET", `/api/v1/games/${id}`)).json.moveCount;
    for (const q of [`since=${count + 1}`, "since=-1", "since=1.5", "since=abc", "timeout=21", "timeout=-2", "timeout=2.5", "bogus=1"]) {
      const r = await http(server.url, "GET", `/api/v1/games/${id}/sync?${q}`);
      assert.equal(r.status, 400, q);
      assert.equal(r.json.code, "bad_request", q);
      assert.equal(r.headers.get("content-type"), "application/problem+json; charset=utf-8");
      for (const f of ["status", "error", "code", "hint", "type", "title", "detail", "docs"]) assert.ok(f in r.json, `${q}: ${f}`);
    }
  });

  it("answers not_found for an unknown game and unauthorized for a wrong token", async () => {
    assert.equal((await http(server.url, "GET", `/api/v1/games/g_nope/sync`)).json.code, "not_found");
    const r = await http(server.url, "GET", `/api/v1/games/${id}/sync`, undefined, bearer("pt_" + "z".repeat(43)));
    assert.equal(r.status, 401);
    assert.equal(r.json.code, "unauthorized");
  });
});
