/**
 * The documented front, run as documented: nginx (Debian package) in front of three processes started by
 * the cluster launcher. REST is spread round-robin, a WebSocket seat lands on the process that owns its
 * room, and seats of a killed process rejoin by game id through the front and finish their game.
 */
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client, type Room } from "@colyseus/sdk";
import { launchCluster, type LaunchedCluster } from "../../src/services/cluster/launch";
import { nginxConfig } from "../../src/services/cluster/nginx";
import { SqliteStore } from "../../src/store/sqlite";
import { redisAvailable } from "../support/redis";
import { http } from "../support/server";
import { FAST_CLUSTER, friendGame, playOne } from "./support";

const nginxAvailable = (): boolean => spawnSync("nginx", ["-v"]).status === 0;

/** The part of the game room's schema state a seat reads to move (its hand and legal moves are messages). */
interface SeatState {
  status: string;
  moveCount: number;
}

/**
 * A WebSocket seat that plays to the end and, like the browser client, joins again by game id whenever its
 * connection ends before the game does (its process died, or the game moved: close code 4012).
 */
function seatPlayer(front: string, gameId: string, playerToken: string, moveDelayMs: number) {
  let rejoins = 0;
  let room: Room | undefined;
  const finished = new Promise<{ status: string; moveCount: number }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`seat of ${gameId} did not finish (rejoined ${rejoins} times)`)), 90_000);
    const join = async (): Promise<void> => {
      for (;;) {
        try {
          room = await new Client(front).joinById(gameId, { playerToken });
          break;
        } catch {
          await new Promise((r) => setTimeout(r, 300)); // the game is being moved: its room is not listed yet
        }
      }
      let sentAt = -1;
      /** The last `hand` message: sent on every join and whenever this seat's turn begins. */
      let hand: { n: number; legal: string[] } | undefined;
      const act = (s: SeatState | undefined) => {
        if (s?.status === "finished") {
          clearTimeout(timer);
          resolve({ status: s.status, moveCount: s.moveCount });
          return;
        }
        if (s?.status !== "active" || !hand || hand.legal.length === 0 || sentAt === hand.n) return;
        sentAt = hand.n;
        const move = { move: hand.legal[0] };
        const current = room!;
        // A human pace, so the game is still being played when its process is killed.
        setTimeout(() => current.connection.isOpen && current.send("move", move), moveDelayMs);
      };
      room.onMessage("moved", () => undefined);
      room.onMessage("hand", (m: { n: number; legal: string[] }) => {
        hand = m;
        act(room?.state as SeatState | undefined);
      });
      room.onMessage("refused", () => undefined);
      room.onStateChange((state) => act(state as SeatState));
      room.onLeave(() => {
        rejoins++;
        void join();
      });
      act(room.state as SeatState | undefined);
    };
    void join();
  });
  return { finished, rejoins: () => rejoins, room: () => room };
}

describe("End-to-end: three processes behind nginx", function () {
  this.timeout(240_000);
  let cluster: LaunchedCluster | undefined;

  before(function () {
    if (!redisAvailable() || !nginxAvailable()) {
      console.log("    nginx front tests skipped: redis-server or nginx is not installed (apt-get install redis-server nginx)");
      this.skip();
    }
  });
  after(async () => cluster?.stop());

  it("ships the tested recipe as deploy/nginx.conf", function () {
    const shipped = readFileSync(join(__dirname, "../../deploy/nginx.conf"), "utf8");
    assert.equal(shipped, nginxConfig({ listen: 80, backends: ["10.0.0.1:2567", "10.0.0.2:2567", "10.0.0.3:2567"] }));
  });

  it("spreads REST round-robin, routes WebSocket seats to the owner, and moves them when it is killed", async () => {
    cluster = await launchCluster({ processes: 3, nginxPort: 0, env: { ...FAST_CLUSTER, LOG_LEVEL: "warn", HOUSE_DELAY_MS: "0", RATE_LIMIT_SCALE: "1000" } });
    const front = cluster.url;
    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) seen.add((await http(front, "GET", "/healthz")).json.processId);
    assert.equal(seen.size, 3, "REST reaches every process");
    const ids = await Promise.all(cluster.members.map(async (m) => (await http(m.url, "GET", "/healthz")).json.processId as string));

    // Twenty live games made through the front: seventeen played over REST, three by WebSocket seats.
    const rest = [];
    for (let i = 0; i < 17; i++) rest.push(await friendGame(front, front));
    const wsGames = [await friendGame(front, front), await friendGame(front, front), await friendGame(front, front)];
    const ws = wsGames[0];
    const acked = new Map<string, number>();
    for (const g of rest) {
      for (let m = 0; m < 2; m++) {
        const out = await playOne(front, g);
        assert.equal(out.status, 200, JSON.stringify(out));
        acked.set(g.id, out.moveCount!);
      }
    }
    const seats = wsGames.flatMap((g) => (["A", "B"] as const).map((s) => seatPlayer(front, g.id, g.tokens[s], 400)));
    const store = new SqliteStore({ path: cluster.database });
    await store.init();
    try {
      // Wait until the WebSocket game is under way, then kill the process that owns it.
      for (let guard = 0; (await store.games.getGame(ws.id))!.moveCount < 2; guard++) {
        assert.ok(guard < 200, "the WebSocket game did not start");
        await new Promise((r) => setTimeout(r, 50));
      }
      const victim = ids.indexOf((await store.games.getGame(ws.id))!.owner!);
      assert.ok(victim >= 0);
      await cluster.signal(victim, "SIGKILL");

      // Spectators read every game through the front while it moves.
      for (const g of [...rest, ...wsGames]) assert.equal((await http(front, "GET", `/api/v1/games/${g.id}`)).status, 200);
      // Every WebSocket seat finishes; those of the killed process rejoin by game id through the front.
      const ends = await Promise.all(seats.map((p) => p.finished));
      for (const end of ends) assert.deepEqual(end, { status: "finished", moveCount: 16 });
      assert.ok(
        seats.slice(0, 2).every((p) => p.rejoins() >= 1),
        "the killed owner's seats lost their connection and joined again",
      );
      // Every REST game plays on through the front; no acknowledged move is lost.
      for (const g of rest) {
        for (let guard = 0; guard < 20; guard++) {
          const out = await playOne(front, g);
          if (out.status === 503) {
            await new Promise((r) => setTimeout(r, 300));
            continue;
          }
          assert.equal(out.status, 200, JSON.stringify(out));
          if (out.finished) break;
        }
        const stored = (await store.games.listActions(g.id)).length;
        assert.ok(stored >= acked.get(g.id)!);
        assert.equal((await store.games.getGame(g.id))!.status, "finished");
      }
      for (const g of [...rest, ...wsGames]) assert.notEqual((await store.games.getGame(g.id))!.owner, ids[victim]);
    } finally {
      await store.close();
    }
  });
});
