/**
 * A group commit that fails (a real error inside its transaction) refuses its moves over REST and WebSocket and
 * changes nothing; the same move plays afterwards. A SIGKILL amid group commits is
 * test/server/group-commit-crash.test.ts (slow suite).
 */
import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { pickMove, seatedFriendGame } from "../support/play";
import { bearer, bootServer, eventually, http } from "../support/server";
import { joinWs } from "../support/ws";
import type { RunningServer } from "../../src/server";

/** The seat to move's token and a legal move for it. */
async function nextMove(base: string, id: string, tokens: Record<string, string>) {
  const turn = (await http(base, "GET", `/api/v1/games/${id}`)).json.turn as string;
  const view = (await http(base, "GET", `/api/v1/games/${id}/sync`, undefined, bearer(tokens[turn]))).json;
  return { token: tokens[turn], move: pickMove(view.state) };
}

describe("Integration: a failed group commit refuses its moves and changes nothing", function () {
  let dir: string;
  let server: RunningServer;
  let admin: Database.Database;

  before(async function () {
    dir = mkdtempSync(join(tmpdir(), "arena-batch-"));
    const database = join(dir, "arena.sqlite");
    server = await bootServer({ database });
    admin = new Database(database);
  });
  after(async function () {
    admin.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers unavailable over REST and WebSocket while the store refuses writes, and plays the same move afterwards", async function () {
    const { id, tokens } = await seatedFriendGame(server.url);
    const first = await nextMove(server.url, id, tokens);
    const accepted = await http(server.url, "POST", `/api/v1/games/${id}/moves`, first.move, bearer(first.token));
    assert.equal(accepted.status, 200, accepted.text);
    const before = (await http(server.url, "GET", `/api/v1/games/${id}`)).json;

    // A real failure inside the commit's transaction (as a full disk would raise), not a stubbed store.
    admin.exec(`CREATE TRIGGER refuse_actions BEFORE INSERT ON actions BEGIN SELECT RAISE(ABORT, 'no space left'); END`);
    try {
      const { token, move } = await nextMove(server.url, id, tokens);
      const refused = await http(server.url, "POST", `/api/v1/games/${id}/moves`, move, bearer(token));
      assert.equal(refused.status, 503, refused.text);
      assert.equal(refused.json.code, "unavailable");

      const ws = await joinWs(server.url, id, token);
      try {
        ws.room.send("move", move);
        await eventually(() => ws.refused.length > 0, "the refusal");
        assert.equal(ws.refused[0].code, "unavailable");
        assert.equal(ws.room.state.moveCount, before.moveCount, "no patch announced the refused move");
      } finally {
        await ws.leave();
      }

      const after = (await http(server.url, "GET", `/api/v1/games/${id}`)).json;
      assert.deepEqual(
        { moves: after.moves, turn: after.turn, score: after.score, hands: after.hands },
        { moves: before.moves, turn: before.turn, score: before.score, hands: before.hands },
      );
      const stored = admin.prepare("SELECT count(*) AS n FROM actions WHERE game_id = ?").get(id) as { n: number };
      assert.equal(stored.n, 1);
    } finally {
      admin.exec("DROP TRIGGER refuse_actions");
    }

    const { token, move } = await nextMove(server.url, id, tokens);
    const retried = await http(server.url, "POST", `/api/v1/games/${id}/moves`, move, bearer(token));
    assert.equal(retried.status, 200, retried.text);
    assert.equal(retried.json.move.n, 2);
  });
});
