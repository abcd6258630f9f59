/**
 * Game ownership between two processes on one store, without servers: only the store's conditional
 * updates keep them apart.
 */
import { strict as assert } from "node:assert";
import { Ownership, type HeldRoom } from "../../src/services/cluster";
import { createLogger } from "../../src/shared/logger";
import { openStore, type Store } from "../../src/store";
import { game } from "../store/fixtures";

const log = createLogger("silent");
const place = (index: number) => ({ gameId: "G1", index, action: { kind: "abort" as const }, at: new Date().toISOString() });

class FakeRoom implements HeldRoom {
  reasons: string[] = [];
  sendAway(reason: string): void {
    this.reasons.push(reason);
  }
}

describe("Unit: game ownership fenced by an owner epoch", () => {
  let store: Store;
  let live: Set<string>;
  const process = (id: string): Ownership => {
    const o = new Ownership(store.games, () => id, log);
    o.setLiveness((p) => live.has(p));
    return o;
  };

  beforeEach(async () => {
    store = await openStore({ database: ":memory:" });
    live = new Set(["p1", "p2"]);
    await store.games.createGame(game("G1", { status: "active" }));
  });
  afterEach(() => store.close());

  it("claims an unowned game, and refuses to take it from a live owner", async () => {
    const [p1, p2] = [process("p1"), process("p2")];
    assert.equal(await p1.claim((await store.games.getGame("G1"))!, new FakeRoom()), 1);
    assert.equal(await p2.claim((await store.games.getGame("G1"))!, new FakeRoom()), null);
    assert.equal(await p1.claim((await store.games.getGame("G1"))!, new FakeRoom()), null, "one room per game in the owner too");
    assert.deepEqual([(await store.games.getGame("G1"))!.owner, (await store.games.getGame("G1"))!.ownerEpoch], ["p1", 1]);
  });

  it("takes a gone owner's game; the old room's writes are then refused and it is sent away", async () => {
    const [p1, p2] = [process("p1"), process("p2")];
    const old = new FakeRoom();
    const e1 = (await p1.claim((await store.games.getGame("G1"))!, old))!;
    const write = (index: number, ownerEpoch: number) => ({ gameId: "G1", actions: [place(index)], patch: {}, ownerEpoch });
    assert.deepEqual(await store.games.commitGames([write(0, e1)]), ["committed"]);
    live.delete("p1"); // p1 stalls past the dead-after time
    const e2 = (await p2.claim((await store.games.getGame("G1"))!, new FakeRoom()))!;
    assert.equal(e2, e1 + 1);
    assert.deepEqual(await store.games.commitGames([write(1, e1)]), ["conflict"]);
    p1.moved("G1", e1); // what the room does with a refused write
    assert.equal(old.reasons.length, 1);
    p1.moved("G1", e1);
    assert.equal(old.reasons.length, 1, "a room is sent away once");
    assert.deepEqual(await store.games.commitGames([{ gameId: "G1", actions: [], patch: { moveCount: 9 }, ownerEpoch: e1 }]), ["conflict"]);
    assert.deepEqual(await store.games.commitGames([write(1, e2)]), ["committed"]);
    assert.deepEqual(
      (await store.games.listActions("G1")).map((a) => a.index),
      [0, 1],
    );
    assert.equal((await store.games.getGame("G1"))!.moveCount, 0);
  });

  it("lets one of two processes re-creating a gone owner's game at once claim it", async () => {
    const [p2, p3] = [process("p2"), process("p3")];
    await store.games.updateGameIf("G1", {}, { owner: "dead", ownerEpoch: 4 });
    const seen = (await store.games.getGame("G1"))!;
    const claims = await Promise.all([p2.claim(seen, new FakeRoom()), p3.claim(seen, new FakeRoom())]);
    assert.deepEqual(
      claims.filter((c) => c !== null),
      [5],
    );
  });

  it("lets one of two rooms of the same process claim a gone owner's game, however their reads and writes interleave", async () => {
    const p2 = process("p2");
    await store.games.updateGameIf("G1", {}, { owner: "dead", ownerEpoch: 4 });
    // The first claim's update is in the store before its promise resolves (a durable write waits for its
    // fsync); the second room reads the record in between and sees this process as the owner.
    const first = p2.claim((await store.games.getGame("G1"))!, new FakeRoom());
    const between = (await store.games.getGame("G1"))!;
    assert.deepEqual([between.owner, between.ownerEpoch], ["p2", 5]);
    const second = p2.claim(between, new FakeRoom());
    assert.deepEqual(await Promise.all([first, second]), [5, null]);
    assert.equal((await store.games.getGame("G1"))!.ownerEpoch, 5);
  });

  it("after a stall, sends away the rooms whose game moved and keeps those it still holds", async () => {
    await store.games.createGame(game("G2", { status: "active" }));
    const [p1, p2] = [process("p1"), process("p2")];
    const moved = new FakeRoom();
    const kept = new FakeRoom();
    await p1.claim((await store.games.getGame("G1"))!, moved);
    await p1.claim((await store.games.getGame("G2"))!, kept);
    live.delete("p1");
    await p2.claim((await store.games.getGame("G1"))!, new FakeRoom());
    assert.deepEqual(await p1.verifyAll(), [kept]);
    assert.equal(moved.reasons.length, 1);
    assert.equal(kept.reasons.length, 0);
    assert.deepEqual(
      p1.heldGames().map((h) => h.gameId),
      ["G2"],
    );
  });
});
