/**
 * The light load generator's raw seat (loadtest/lib/wire.ts) against the real server: it joins with the seat
 * reservation of a REST answer, stays connected while silent for longer than the server's heartbeat would
 * allow a socket that never answers its pings, and plays a whole game from its hand messages alone.
 */
import { strict as assert } from "node:assert";
import type { RunningServer } from "../../src/server";
import { HttpClient, openFriendGame, sleep, type Seat } from "../../loadtest/lib/common";
import { WireSeat } from "../../loadtest/lib/wire";
import { bootServer, eventually } from "../support/server";

describe("Load generator: a raw Colyseus seat", function () {
  this.timeout(60_000);
  let server: RunningServer;
  let client: HttpClient;
  before(async () => {
    server = await bootServer();
    client = new HttpClient(server.url, 4);
  });
  after(async () => {
    client.close();
    await server.close();
  });

  it("joins by reservation, outlives the heartbeat while silent, and plays a game to its end from its hands", async function () {
    const game = await openFriendGame(client, "wire", undefined, true);
    const seats = {} as Record<Seat, { wire: WireSeat; legal: string[]; moved: number[]; closed: number | null }>;
    for (const s of ["A", "B"] as const) {
      const wire = await WireSeat.connect(server.url.replace(/^http/, "ws"), game.reservations![s]);
      const seat = { wire, legal: [] as string[], moved: [] as number[], closed: null as number | null };
      wire.listen((type, payload) => {
        const m = payload as { legal?: string[]; n?: number; hand?: { legal: string[] } };
        if (type === "hand") seat.legal = m.legal ?? [];
        if (type === "moved") {
          seat.moved.push(m.n!);
          seat.legal = m.hand?.legal ?? [];
        }
      });
      wire.onClose = (code) => (seat.closed = code);
      seats[s] = seat;
    }
    await eventually(() => seats.A.legal.length + seats.B.legal.length > 0, "the first mover's hand with its legal moves");
    // Colyseus' transport pings every 3 s and cuts a socket after two unanswered pings: 10 s of silence
    // outlasts that, so both seats are still open only if their pongs were answered.
    await sleep(10_000);
    assert.equal(seats.A.closed, null, "seat A's socket was closed while silent");
    assert.equal(seats.B.closed, null, "seat B's socket was closed while silent");
    for (let n = 1; n <= 16; n++) {
      const mover = seats.A.legal.length > 0 ? seats.A : seats.B;
      assert.ok(mover.legal.length > 0, `no seat holds a legal move before move ${n}`);
      mover.wire.send("move", { move: mover.legal[0] });
      mover.legal = [];
      await eventually(() => mover.moved.includes(n), `the ack of move ${n}`);
    }
    assert.deepEqual(
      [...seats.A.moved, ...seats.B.moved].sort((x, y) => x - y),
      Array.from({ length: 16 }, (_, i) => i + 1),
    );
    await Promise.all([seats.A.wire.leave(), seats.B.wire.leave()]);
    assert.equal(seats.A.closed, 4000, "a consented leave closes with CONSENTED");
  });
});
