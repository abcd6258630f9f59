import { strict as assert } from "node:assert";
import { join } from "node:path";
import { matchMaker } from "@colyseus/core";
import { Client } from "@colyseus/sdk";
import { GAME_ROOM } from "../../src/services/games/room-access";
import type { RunningServer } from "../../src/server";
import { bootServer, http } from "../support/server";
import { useTempDir } from "../support/temp-dir";

/**
 * Enough waiting games that a room each would show at once; test/server/waiting-restart.test.ts (slow suite)
 * restarts a server over 2,000.
 */
const WAITING = 200;

const gameRooms = async () => (await matchMaker.query({ name: GAME_ROOM })).length;

/** Runs `task` for 0..n-1 with at most `width` at once. */
async function inParallel(n: number, width: number, task: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) await task(next++);
    }),
  );
}

/** Creates `n` waiting games, friend (even i) and hosted (odd i): the friend games' codes and the hosted games' ids. */
async function waitingGames(base: string, n: number) {
  const codes: string[] = [];
  const hosted: string[] = [];
  await inParallel(n, 16, async (i) => {
    const r = await http(base, "POST", "/api/v1/games", { opponent: i % 2 ? "hosted" : "friend" });
    assert.equal(r.status, 201, r.text);
    if (i % 2) hosted.push(r.json.game.id);
    else codes.push(r.json.code);
  });
  return { codes, hosted };
}

describe("Integration: waiting games cost no room until a second player or a watcher arrives", function () {
  this.timeout(60_000);
  const dir = useTempDir("arena-waiting-", "each");

  it(`stores ${WAITING} waiting friend and hosted games without opening a room, and opens one on a claim or a watch`, async () => {
    const server: RunningServer = await bootServer({ database: join(dir(), "waiting.sqlite") });
    try {
      const { codes, hosted } = await waitingGames(server.url, WAITING);
      assert.equal(await gameRooms(), 0);
      const listed = await http(server.url, "GET", "/api/v1/games?status=waiting&limit=5");
      assert.equal(listed.json.games.length, 5);

      // A second player's claim opens the room of the game it starts.
      assert.equal((await http(server.url, "POST", "/api/v1/games/join", { code: codes[0] })).status, 200);
      assert.equal(await gameRooms(), 1);
      // A long-poll on a waiting game opens nothing, and the second player's arrival wakes it.
      const waiting = await http(server.url, "POST", "/api/v1/games", { opponent: "friend" });
      const id = waiting.json.game.id as string;
      const polled = http(server.url, "GET", `/api/v1/games/${id}/sync?since=0&timeout=15`);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(await gameRooms(), 1);
      const joined = await http(server.url, "POST", "/api/v1/games/join", { code: waiting.json.code });
      assert.equal(joined.status, 200, joined.text);
      assert.equal((await polled).json.status, "active");

      // A watcher opens the room of a waiting hosted game.
      const watcher = await new Client(server.url).joinById(hosted[0]);
      assert.equal(await gameRooms(), 3);
      await watcher.leave();
    } finally {
      await server.close();
    }
  });

  it("closes a waiting game's room once nobody is connected, and opens it again for the claim", async () => {
    const server = await bootServer({ waitingRoomIdleMs: 300, waitingGameTtlS: 2 });
    try {
      // A seat reservation opens the room; unused, the room closes, and the game goes on waiting without it.
      const created = await http(server.url, "POST", "/api/v1/games", { opponent: "friend", reserveSeat: true });
      assert.equal(created.status, 201, created.text);
      assert.equal(await gameRooms(), 1);
      let rooms = 1;
      for (let i = 0; i < 100 && rooms > 0; i++) {
        await new Promise((r) => setTimeout(r, 50));
        rooms = await gameRooms();
      }
      assert.equal(rooms, 0);
      const joined = await http(server.url, "POST", "/api/v1/games/join", { code: created.json.code });
      assert.equal(joined.status, 200, joined.text);
      assert.equal(joined.json.game.status, "active");
      // Past its waiting time a game nobody joined is aborted without anyone opening it.
      const left = await http(server.url, "POST", "/api/v1/games", { opponent: "hosted" });
      let status = "waiting";
      for (let i = 0; i < 100 && status === "waiting"; i++) {
        await new Promise((r) => setTimeout(r, 100));
        status = (await http(server.url, "GET", `/api/v1/games/${left.json.game.id}`)).json.status;
      }
      assert.equal(status, "finished");
    } finally {
      await server.close();
    }
  });

  it("restarts over them re-creating the active games' rooms only, and they are still joined lazily", async () => {
    const database = join(dir(), "restart.sqlite");
    const first = await bootServer({ database });
    let codes: string[];
    try {
      // A few are enough: a room each would show as one more per game.
      ({ codes } = await waitingGames(first.url, 20));
      // One active game, whose room a restart must re-create.
      assert.equal((await http(first.url, "POST", "/api/v1/games/join", { code: codes[0] })).status, 200);
    } finally {
      await first.close();
    }
    assert.equal(await gameRooms(), 0);
    // The start resumes the games before it resolves: the active game's room, and none for the waiting ones.
    const second = await bootServer({ database });
    try {
      assert.equal(await gameRooms(), 1);
      const joined = await http(second.url, "POST", "/api/v1/games/join", { code: codes[1] });
      assert.equal(joined.status, 200, joined.text);
      assert.equal(joined.json.game.status, "active");
      assert.equal(await gameRooms(), 2);
    } finally {
      await second.close();
    }
  });
});
