import { strict as assert } from "node:assert";
import type { RunningServer } from "../../src/server";
import { connect } from "../mcp/helpers";
import { pickMove } from "../support/play";
import { bearer, bootServer, http } from "../support/server";

/**
 * A client that sends a move again after it was applied (its connection dropped before the answer, or it
 * retried across a restart) reaches a live room, which refuses it as a new move: the facade answers it as the
 * kept move instead, over REST and MCP. Which retries are that move, and the answer without a live room (from
 * the store), are tested without a server: test/games/kept-move-room.test.ts.
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

});
