import { strict as assert } from "node:assert";
import { join } from "node:path";
import { Client } from "@colyseus/sdk";
import { playRest, pickMove, seatedFriendGame } from "../support/play";
import { spawnServer } from "../support/process";
import { bearer, http } from "../support/server";
import { useTempDir } from "../support/temp-dir";

describe("End-to-end: a restarted server loses no accepted move", function () {
  this.timeout(120_000);
  const dir = useTempDir("arena-restart-");

  async function playMoves(base: string, id: string, tokens: Record<string, string>, count: number) {
    const played: string[] = [];
    for (let i = 0; i < count; i++) {
      const turn = (await http(base, "GET", `/api/v1/games/${id}`)).json.turn as string;
      const view = (await http(base, "GET", `/api/v1/games/${id}/sync`, undefined, bearer(tokens[turn]))).json;
      const r = await http(base, "POST", `/api/v1/games/${id}/moves`, pickMove(view.state), bearer(tokens[turn]));
      assert.equal(r.status, 200, r.text);
      played.push(r.json.move.notation);
    }
    return played;
  }

  for (const signal of ["SIGTERM", "SIGKILL"] as const) {
    it(`finishes a game begun before a ${signal}, with every acknowledged move kept`, async () => {
      const env = { DATABASE: join(dir(), `${signal}.sqlite`) };
      const first = await spawnServer(env);
      const { id, tokens } = await seatedFriendGame(first.url);
      const played = await playMoves(first.url, id, tokens, 5);
      const code = await first.stop(signal);
      if (signal === "SIGTERM") assert.equal(code, 0, first.output());

      const second = await spawnServer(env, first.port);
      try {
        const game = await http(second.url, "GET", `/api/v1/games/${id}`);
        assert.equal(game.status, 200);
        assert.deepEqual(game.json.moves, played);
        const ends = await Promise.all([playRest(second.url, id, tokens.A), playRest(second.url, id, tokens.B)]);
        assert.equal(ends[0].status, "finished");
        const replay = await http(second.url, "GET", `/api/v1/games/${id}/replay`);
        assert.equal(replay.json.moveCount, 16);
        assert.deepEqual(
          replay.json.moves.slice(0, 5).map((m: any) => m.notation),
          played,
        );
      } finally {
        await second.stop();
      }
    });
  }

  it("answers a move sent again after a restart as the move it kept, storing it once", async () => {
    const env = { DATABASE: join(dir(), "retry.sqlite") };
    const first = await spawnServer(env);
    const { id, tokens } = await seatedFriendGame(first.url);
    const turn = (await http(first.url, "GET", `/api/v1/games/${id}`)).json.turn as string;
    const view = (await http(first.url, "GET", `/api/v1/games/${id}/sync`, undefined, bearer(tokens[turn]))).json;
    const body = pickMove(view.state);
    const played = await http(first.url, "POST", `/api/v1/games/${id}/moves`, body, bearer(tokens[turn]));
    assert.equal(played.status, 200, played.text);
    await first.stop("SIGKILL");

    const second = await spawnServer(env, first.port);
    try {
      // The client never read its answer: it sends the move again to the restarted server.
      const again = await http(second.url, "POST", `/api/v1/games/${id}/moves`, body, bearer(tokens[turn]));
      assert.equal(again.status, 200, again.text);
      assert.deepEqual(again.json.move, played.json.move);
      assert.equal((await http(second.url, "GET", `/api/v1/games/${id}`)).json.moveCount, 1);
    } finally {
      await second.stop();
    }
  });

  it("resumes the house opponent's turn after a restart", async () => {
    const env = { DATABASE: join(dir(), "house.sqlite"), HOUSE_DELAY_MS: "300" };
    const first = await spawnServer(env);
    const g = await http(first.url, "POST", "/api/v1/games", { opponent: "house", level: "easy" });
    await first.stop("SIGKILL");
    const second = await spawnServer({ ...env, HOUSE_DELAY_MS: "0" }, first.port);
    try {
      const end = await playRest(second.url, g.json.game.id, g.json.playerToken);
      assert.equal(end.status, "finished");
      assert.equal(end.moveCount, 16);
    } finally {
      await second.stop();
    }
  });

  it("stops on SIGTERM without waiting out the reconnection window of connected WebSocket seats", async () => {
    const env = { DATABASE: join(dir(), "ws.sqlite") };
    const first = await spawnServer(env);
    const a = await http(first.url, "POST", "/api/v1/games", { opponent: "friend" });
    const b = await http(first.url, "POST", "/api/v1/games/join", { code: a.json.code });
    const id = a.json.game.id;
    const seats = await Promise.all([a, b].map((r) => new Client(first.url).joinById(id, { playerToken: r.json.playerToken })));
    const left = seats.map((room) => new Promise<number>((resolve) => room.onLeave((code) => resolve(code))));
    // Seats that drop are otherwise held for 60 s; a shutdown must not wait for them.
    const stopped = await Promise.race([first.stop("SIGTERM"), new Promise((r) => setTimeout(() => r("still running"), 20_000))]);
    assert.equal(stopped, 0, first.output());
    await Promise.all(left);

    const second = await spawnServer(env, first.port);
    try {
      const ends = await Promise.all([playRest(second.url, id, a.json.playerToken), playRest(second.url, id, b.json.playerToken)]);
      assert.equal(ends[0].status, "finished");
    } finally {
      await second.stop();
    }
  });
});
