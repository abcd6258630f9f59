import { strict as assert } from "node:assert";
import { join } from "node:path";
import { matchMaker } from "@colyseus/core";
import { Client } from "@colyseus/sdk";
import { cpuMsOf } from "../../loadtest/lib/process-cpu";
import { GAME_ROOM } from "../../src/services/games/room-access";
import type { RunningServer } from "../../src/server";
import { spawnServer } from "../support/process";
import { bootServer, eventually, http } from "../support/server";
import { useTempDir } from "../support/temp-dir";

const WAITING = 2000;

const gameRooms = async () => (await matchMaker.query({ name: GAME_ROOM })).length;

/** Runs `task` for 0..n-1 with at most `width` at once. */
async function inParallel(n: number, width: number, task: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < n) await task(next++);
  }));
}

/**
 * Milliseconds from spawning the server to its "listening" line, logged once every live game is resumed, and
 * the CPU it had used by then: on a machine shared with other work the wall time follows the machine's load,
 * the CPU a start costs much less.
 */
async function startUp(database: string) {
  const started = Date.now();
  const child = await spawnServer({ DATABASE: database, LOG_LEVEL: "info" });
  await eventually(() => child.output().includes("tile arena listening"), "the server to settle", 120_000);
  return { child, ms: Date.now() - started, cpu: cpuMsOf(child.child.pid) };
}

describe("Integration: waiting games cost no room until a second player or a watcher arrives", function () {
  this.timeout(300_000);
  const dir = useTempDir("arena-waiting-");
  const database = () => join(dir(), "waiting.sqlite");
  const codes: string[] = [];
  const hosted: string[] = [];

  it(`stores ${WAITING} waiting friend and hosted games without opening a room, and opens one on a claim or a watch`, async () => {
    let server: RunningServer | undefined = await bootServer({ database: database() });
    try {
      await inParallel(WAITING, 16, async (i) => {
        const r = await http(server!.url, "POST", "/api/v1/games", { opponent: i % 2 ? "hosted" : "friend" });
        assert.equal(r.status, 201, r.text);
        if (i % 2) hosted.push(r.json.game.id);
        else codes.push(r.json.code);
      });
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
      server = undefined;
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

  it("restarts with them settled about as soon as an empty store, and they are still joined lazily", async () => {
    const empty = await startUp(join(dir(), "empty.sqlite"));
    await empty.child.stop();
    const full = await startUp(database());
    try {
      const detail = `start with ${WAITING} waiting games ${full.ms} ms (CPU ${full.cpu} ms), empty store ${empty.ms} ms (CPU ${empty.cpu} ms)`;
      // Generous: resuming 2,000 rooms one by one took several times an empty start.
      assert.ok(full.ms <= 2 * empty.ms + 2000, detail);
      // The target, within 2 s of an empty store's start, held to the CPU (resuming them cost 3-4.5 s of it).
      if (Number.isFinite(full.cpu) && Number.isFinite(empty.cpu)) assert.ok(full.cpu - empty.cpu < 2000, detail);
      const joined = await http(full.child.url, "POST", "/api/v1/games/join", { code: codes[1] });
      assert.equal(joined.status, 200, joined.text);
      assert.equal(joined.json.game.status, "active");
    } finally {
      await full.child.stop();
    }
  });
});
