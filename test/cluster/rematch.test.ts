/**
 * A rematch between two processes on one store (SQLite file) and one Redis: whichever process each seat's
 * request reaches, the seats see each other's offer, one new game starts, and both seats play it with the
 * tokens they played the finished game with.
 */
import { strict as assert } from "node:assert";
import { playOpening } from "../support/play";
import { redisAvailable } from "../support/redis";
import { bearer, eventually, http } from "../support/server";
import { joinWs } from "../support/ws";
import { friendGame, playUntilAcknowledged, startCluster, type Cluster, type TwoSeatGame } from "./support";

describe("End-to-end: rematches across two processes", function () {
  this.timeout(120_000);
  let c: Cluster | undefined;
  let p1: string;
  let p2: string;

  before(async function () {
    if (!redisAvailable()) this.skip();
    c = await startCluster(2);
    [p1, p2] = c.procs.map((p) => p.url);
  });
  after(async () => c?.stop());

  /** A friend game created through one process and joined through the other, played a little and resigned. */
  async function finished(): Promise<TwoSeatGame> {
    const g = await friendGame(p1, p2);
    await playOpening(p1, g.id, [g.tokens.A, g.tokens.B]);
    const resigned = await http(p2, "POST", `/api/v1/games/${g.id}/resign`, undefined, bearer(g.tokens.B));
    assert.equal(resigned.status, 200, resigned.text);
    return g;
  }

  const rematch = (base: string, g: TwoSeatGame, seat: "A" | "B") => http(base, "POST", `/api/v1/games/${g.id}/rematch`, undefined, bearer(g.tokens[seat]));
  const gameCount = async () => (await c!.store.games.listGames({ limit: 100 })).games.length;
  /** The new game with the old seats swapped: who sat at A plays B with the same token. */
  const swapped = (g: TwoSeatGame, id: string): TwoSeatGame => ({ id, tokens: { A: g.tokens.B, B: g.tokens.A } });

  /** Both seats move in the new game, one through each process. */
  async function bothSeatsMove(g: TwoSeatGame) {
    for (const base of [p1, p2]) assert.equal((await playUntilAcknowledged(base, g)).out.status, 200);
    const record = await http(p1, "GET", `/api/v1/games/${g.id}`);
    assert.equal(record.json.moveCount, 2);
  }

  it("A offers through process 1, B sees it and accepts through process 2: one game, both seats play it", async () => {
    const g = await finished();
    const before = await gameCount();
    const offered = await rematch(p1, g, "A");
    assert.equal(offered.status, 200, offered.text);
    assert.deepEqual(offered.json, { rematch: { offeredBy: "A" } });
    const seen = await http(p2, "GET", `/api/v1/games/${g.id}/sync`, undefined, bearer(g.tokens.B));
    assert.deepEqual(seen.json.rematch, { offeredBy: "A" }, "the other process sees the offer");
    const accepted = await rematch(p2, g, "B");
    assert.equal(accepted.status, 200, accepted.text);
    const newId = accepted.json.game.id as string;
    assert.deepEqual([accepted.json.game.seat, accepted.json.game.playerToken], ["A", g.tokens.B]);
    const offerer = await rematch(p1, g, "A");
    assert.deepEqual([offerer.json.game.id, offerer.json.game.seat, offerer.json.game.playerToken], [newId, "B", g.tokens.A]);
    const view = await http(p1, "GET", `/api/v1/games/${g.id}/sync`, undefined, bearer(g.tokens.A));
    assert.deepEqual(view.json.rematch, { offeredBy: "A", gameId: newId });
    assert.equal((await http(p2, "DELETE", `/api/v1/games/${g.id}/rematch`, undefined, bearer(g.tokens.B))).status, 409);
    assert.equal(await gameCount(), before + 1, "one new game");
    await bothSeatsMove(swapped(g, newId));
  });

  it("a WebSocket seat on the room's process and a REST seat on the other agree", async () => {
    const g = await friendGame(p1, p2);
    await playOpening(p1, g.id, [g.tokens.A, g.tokens.B]);
    const owner = c!.indexOf((await c!.store.games.getGame(g.id))!.owner!);
    const [roomProcess, otherProcess] = [c!.procs[owner].url, c!.procs[1 - owner].url];
    const A = await joinWs(roomProcess, g.id, g.tokens.A);
    const offers: unknown[] = [];
    const starts: any[] = [];
    A.room.onMessage("rematchOffered", (m) => offers.push(m));
    A.room.onMessage("rematchStarted", (m) => starts.push(m));
    assert.equal((await http(otherProcess, "POST", `/api/v1/games/${g.id}/resign`, undefined, bearer(g.tokens.B))).status, 200);
    await eventually(() => A.room.state?.status === "finished", "A sees the end");
    const before = await gameCount();
    assert.equal((await rematch(otherProcess, g, "B")).status, 200);
    await eventually(() => offers.length > 0, "the room on the other process told A of B's offer");
    assert.deepEqual(offers[0], { by: "B" });
    A.room.send("rematch");
    await eventually(() => starts.length > 0, "A told of the start");
    assert.deepEqual([starts[0].seat, starts[0].playerToken], ["B", g.tokens.A]);
    assert.ok(starts[0].seatReservation, "with a seat reservation in the new game");
    const b = await rematch(otherProcess, g, "B");
    assert.deepEqual([b.json.game.id, b.json.game.seat], [starts[0].gameId, "A"]);
    assert.equal(await gameCount(), before + 1, "one new game");
    await A.leave().catch(() => undefined);
    await bothSeatsMove(swapped(g, starts[0].gameId));
  });

  it("starts one game when both seats ask at once through different processes", async () => {
    for (let round = 0; round < 3; round++) {
      const g = await finished();
      const before = await gameCount();
      // Nobody offered yet: of the two first requests one stores its offer and the other, refused by the
      // compare-and-set or reading the offer, accepts it.
      const first = await Promise.all([rematch(p1, g, "A"), rematch(p2, g, "B")]);
      assert.deepEqual(
        first.map((r) => r.status),
        [200, 200],
        first.map((r) => r.text).join("\n"),
      );
      // An accepted rematch asked for again at once by both seats, each through the other process.
      const again = await Promise.all([rematch(p2, g, "A"), rematch(p1, g, "B"), rematch(p1, g, "A"), rematch(p2, g, "B")]);
      const ids = new Set([...first, ...again].filter((r) => r.json.game).map((r) => r.json.game.id as string));
      assert.equal(ids.size, 1, `round ${round}: ${[...first, ...again].map((r) => r.text).join("\n")}`);
      assert.equal(await gameCount(), before + 1, `round ${round}: one new game`);
      const [newId] = [...ids];
      assert.equal((await c!.store.games.getGame(g.id))!.rematch!.gameId, newId);
      if (round === 0) await bothSeatsMove(swapped(g, newId));
    }
  });
});
