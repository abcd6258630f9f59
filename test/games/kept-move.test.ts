import { strict as assert } from "node:assert";
import { LocalPresence } from "@colyseus/core";
import { fail } from "../../src/errors";
import { GameService } from "../../src/games/service";
import type { RoomAccess } from "../../src/games/room-access";
import type { RunningServer } from "../../src/server";
import { connect } from "../mcp/helpers";
import { pickMove } from "../support/play";
import { bearer, bootServer, http } from "../support/server";

/**
 * A move whose room stopped answering while it was under way (its process ending between storing the move and
 * answering) must not be reported refused when it was kept: the facade looks it up in the store. Here the room
 * is a stand-in that never answers, and the store is a real server's, holding the game and its moves.
 */
describe("Games: a move whose room did not answer is answered from the store", function () {
  this.timeout(20_000);
  let server: RunningServer;
  before(async () => {
    server = await bootServer();
  });
  after(async () => server.close());

  /** The game service as a process that cannot reach the game's room sees it. */
  const unreachable = () => {
    const silent = new Proxy({}, { get: () => async () => fail("unavailable", "the process holding this game did not answer; it is being moved to a live process, retry shortly", { retryAfter: 1 }) });
    const rooms = { localGame: () => undefined, game: () => silent } as unknown as RoomAccess;
    return new GameService(server.store, rooms, undefined as never, new LocalPresence(), server.url, undefined as never);
  };

  it("answers 200 with the kept move, and refuses as unavailable a move that was not kept", async () => {
    const a = await http(server.url, "POST", "/api/v1/games", { opponent: "friend" });
    const b = await http(server.url, "POST", "/api/v1/games/join", { code: a.json.code });
    const id = a.json.game.id as string;
    const tokens: Record<string, string> = { [a.json.seat]: a.json.playerToken, [b.json.seat]: b.json.playerToken };
    const first = (await http(server.url, "GET", `/api/v1/games/${id}`)).json.turn as string;
    const view = (await http(server.url, "GET", `/api/v1/games/${id}/sync`, undefined, bearer(tokens[first]))).json;
    const body = pickMove(view.state);
    const played = await http(server.url, "POST", `/api/v1/games/${id}/moves`, body, bearer(tokens[first]));
    assert.equal(played.status, 200, played.text);

    const games = unreachable();
    // The same move, its answer lost: found in the store, in either notation, whatever the case of the card.
    const kept = await games.move(id, tokens[first], { card: body.card.toLowerCase(), square: body.square });
    assert.equal(kept.move.n, 1);
    assert.equal(kept.move.card, played.json.move.card);
    assert.deepEqual(kept.view.hand, played.json.view.hand);
    assert.equal((await games.move(id, tokens[first], { move: `${body.card}@${body.square}` })).move.n, 1);

    // The other seat's move, never made: refused, nothing claimed.
    const second = first === "A" ? "B" : "A";
    const other = (await http(server.url, "GET", `/api/v1/games/${id}/sync`, undefined, bearer(tokens[second]))).json;
    await assert.rejects(games.move(id, tokens[second], pickMove(other.state)), (e: { code?: string }) => e.code === "unavailable");
    // The same card by the wrong seat is not this move either.
    await assert.rejects(games.move(id, tokens[second], body), (e: { code?: string }) => e.code === "unavailable");
  });
});

/**
 * A client that sends a move again after it was applied (its connection dropped before the answer, or it
 * retried across a restart) reaches a live room, which refuses it as a new move: the facade answers it as the
 * kept move instead. Only this seat's placement of this card on this square is that move.
 */
describe("Games: a move sent again after it was applied is answered as that move", function () {
  this.timeout(30_000);
  let server: RunningServer;
  before(async () => {
    server = await bootServer();
  });
  after(async () => server.close());

  async function friendGame() {
    const a = await http(server.url, "POST", "/api/v1/games", { opponent: "friend" });
    const b = await http(server.url, "POST", "/api/v1/games/join", { code: a.json.code });
    const id = a.json.game.id as string;
    const tokens: Record<string, string> = { [a.json.seat]: a.json.playerToken, [b.json.seat]: b.json.playerToken };
    return { id, tokens };
  }
  /** The seat to move, its token and its view. */
  async function turn(id: string, tokens: Record<string, string>) {
    const seat = (await http(server.url, "GET", `/api/v1/games/${id}`)).json.turn as string;
    const view = (await http(server.url, "GET", `/api/v1/games/${id}/sync`, undefined, bearer(tokens[seat]))).json;
    return { seat, token: tokens[seat], view };
  }
  const move = (id: string, body: object, token: string) => http(server.url, "POST", `/api/v1/games/${id}/moves`, body, bearer(token));
  const moveCount = async (id: string) => (await http(server.url, "GET", `/api/v1/games/${id}`)).json.moveCount as number;

  it("answers the same move sent twice with 200 both times, the same move, and one stored action", async () => {
    const { id, tokens } = await friendGame();
    const t = await turn(id, tokens);
    const body = pickMove(t.view.state);
    const first = await move(id, body, t.token);
    assert.equal(first.status, 200, first.text);
    const again = await move(id, body, t.token);
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.json.move, first.json.move);
    assert.deepEqual(again.json.view, first.json.view);
    assert.equal(again.json.status, "active");
    // In the other notation too; the retries stored nothing.
    const notation = await move(id, { move: `${body.card}@${body.square}` }, t.token);
    assert.equal(notation.status, 200, notation.text);
    assert.equal(notation.json.move.n, 1);
    assert.equal(await moveCount(id), 1);
    assert.equal((await server.store.listActions(id)).length, 1);
  });

  it("answers a retry after the opponent has moved (the seat's turn again) with the kept move and the view now", async () => {
    const { id, tokens } = await friendGame();
    const t = await turn(id, tokens);
    const body = pickMove(t.view.state);
    const first = await move(id, body, t.token);
    assert.equal(first.status, 200, first.text);
    const o = await turn(id, tokens);
    assert.notEqual(o.seat, t.seat);
    assert.equal((await move(id, pickMove(o.view.state), o.token)).status, 200);

    const again = await move(id, body, t.token);
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.json.move, first.json.move);
    const now = (await http(server.url, "GET", `/api/v1/games/${id}/sync`, undefined, bearer(t.token))).json;
    assert.deepEqual(again.json.view.hand, now.state.hand);
    assert.equal(again.json.view.turn, t.seat);
    assert.equal(await moveCount(id), 2);
  });

  it("answers a retry of the game's last move with 200, not game_over", async () => {
    const { id, tokens } = await friendGame();
    for (let n = 0; n < 15; n++) {
      const t = await turn(id, tokens);
      assert.equal((await move(id, pickMove(t.view.state), t.token)).status, 200);
    }
    const last = await turn(id, tokens);
    const body = pickMove(last.view.state);
    const finishing = await move(id, body, last.token);
    assert.equal(finishing.status, 200, finishing.text);
    assert.equal(finishing.json.status, "finished");
    const again = await move(id, body, last.token);
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.json.move, finishing.json.move);
    assert.equal(again.json.status, "finished");
    assert.equal(await moveCount(id), 16);
    // The same card on another square (one taken before) is not that move: still game_over.
    const other = await move(id, { card: body.card, square: last.view.state.board[0].square }, last.token);
    assert.equal(other.status, 409);
    assert.equal(other.json.code, "game_over");
  });

  it("still refuses the same card on another square", async () => {
    const { id, tokens } = await friendGame();
    const t = await turn(id, tokens);
    const body = pickMove(t.view.state);
    assert.equal((await move(id, body, t.token)).status, 200);
    const elsewhere = { card: body.card, square: body.square === "a1" ? "d4" : "a1" };
    const early = await move(id, elsewhere, t.token);
    assert.equal(early.status, 409, early.text);
    assert.equal(early.json.code, "not_your_turn");
    // A kept move claimed with other captures than it made is not that move either.
    const captures = await move(id, { move: `${body.card}@${body.square}x3` }, t.token);
    assert.equal(captures.json.code, "not_your_turn");

    const o = await turn(id, tokens);
    assert.equal((await move(id, pickMove(o.view.state), o.token)).status, 200);
    const later = await move(id, elsewhere, t.token);
    assert.equal(later.status, 422, later.text);
    assert.equal(later.json.code, "illegal_move");
    assert.equal(await moveCount(id), 2);
  });

  it("answers the same move sent again over MCP (the move tool) as that move", async () => {
    const { id, tokens } = await friendGame();
    const t = await turn(id, tokens);
    const body = pickMove(t.view.state);
    const mcp = await connect(server.url);
    try {
      const args = { game_id: id, player_token: t.token, move: `${body.card}@${body.square}` };
      const first = await mcp.ok("move", args);
      const again = await mcp.ok("move", args);
      assert.deepEqual(again.move, first.move);
      assert.equal(await moveCount(id), 1);
      const elsewhere = await mcp.raw("move", { ...args, move: `${body.card}@${body.square === "a1" ? "d4" : "a1"}` });
      assert.equal(elsewhere.isError, true);
      assert.equal(elsewhere.structuredContent?.code, "not_your_turn");
    } finally {
      await mcp.close();
    }
  });

  it("refuses the other seat's token sending the opponent's kept move", async () => {
    const { id, tokens } = await friendGame();
    const t = await turn(id, tokens);
    const body = pickMove(t.view.state);
    assert.equal((await move(id, body, t.token)).status, 200);
    const otherSeat = t.seat === "A" ? "B" : "A";
    const stolen = await move(id, body, tokens[otherSeat]);
    assert.equal(stolen.status, 422, stolen.text);
    assert.equal(stolen.json.code, "illegal_move");
    const wrong = await move(id, body, "pt_" + "x".repeat(43));
    assert.equal(wrong.status, 401);
    assert.equal(await moveCount(id), 1);
  });
});
