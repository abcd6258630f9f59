import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { pickMove } from "../support/play";
import { spawnServer } from "../support/process";
import { bearer, bootServer, eventually, http } from "../support/server";
import { joinWs } from "../support/ws";
import type { RunningServer } from "../../src/server";
import { useTempDir } from "../support/temp-dir";

/** A friend game with both seats taken; tokens by seat. */
async function friendGame(base: string) {
  const a = await http(base, "POST", "/api/v1/games", { opponent: "friend" });
  const b = await http(base, "POST", "/api/v1/games/join", { code: a.json.code });
  assert.equal(b.status, 200, b.text);
  const tokens: Record<string, string> = { [a.json.seat]: a.json.playerToken, [b.json.seat]: b.json.playerToken };
  return { id: a.json.game.id as string, tokens };
}

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
    const { id, tokens } = await friendGame(server.url);
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

describe("End-to-end: a crash while batches are committed loses no acknowledged move", function () {
  this.timeout(120_000);
  const dir = useTempDir("arena-batch-crash-");

  it("keeps every move answered 200 before a SIGKILL that lands amid moves of many games", async function () {
    const env = { DATABASE: join(dir(), "crash.sqlite") };
    const first = await spawnServer(env);
    const games = await Promise.all(Array.from({ length: 8 }, () => friendGame(first.url)));
    const acked = new Map<string, string[]>(games.map((g) => [g.id, []]));
    let total = 0;
    let killed = false;
    // Every game moves concurrently, so batches carry several games' writes when the kill lands.
    const players = games.map(async (g) => {
      while (!killed && acked.get(g.id)!.length < 16) {
        try {
          const { token, move } = await nextMove(first.url, g.id, g.tokens);
          const r = await http(first.url, "POST", `/api/v1/games/${g.id}/moves`, move, bearer(token));
          if (r.status === 200) {
            acked.get(g.id)!.push(r.json.move.notation as string);
            total++;
          }
        } catch {
          return; // the connection died with the process
        }
      }
    });
    while (total < 40) await new Promise((r) => setTimeout(r, 5));
    killed = true;
    await first.stop("SIGKILL");
    await Promise.all(players);

    const second = await spawnServer(env, first.port);
    try {
      for (const g of games) {
        const stored = (await http(second.url, "GET", `/api/v1/games/${g.id}`)).json.moves as string[];
        const mine = acked.get(g.id)!;
        assert.deepEqual(stored.slice(0, mine.length), mine, `game ${g.id}: every acknowledged move is kept, in order`);
        assert.ok(stored.length <= mine.length + 1, "at most the one unanswered move of the game was stored besides");
      }
    } finally {
      await second.stop();
    }
  });
});
