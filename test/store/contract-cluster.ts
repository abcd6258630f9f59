/** Contract: what several processes sharing one store rely on (process registry, game ownership fences). */
import assert from "node:assert/strict";
import { type ProcessRecord } from "../../src/store";
import type { StoreRef } from "./contract";
import { at, game } from "./fixtures";

const proc = (id: string, heartbeatAt: string, over: Partial<ProcessRecord> = {}): ProcessRecord =>
  ({ id, sharedPresence: true, pid: 1, host: "h1", startedAt: at(0), heartbeatAt, ...over });
const place = (gameId: string, index: number) => ({ gameId, index, action: { kind: "abort" as const }, at: at(index) });

export function clusterContract(store: StoreRef): void {
  describe("process registry", function () {
    it("registers, renews and lists processes, replacing a record registered again", async function () {
      await store().registerProcess(proc("p2", at(1)));
      await store().registerProcess(proc("p1", at(1), { publicAddress: "127.0.0.1:1" }));
      assert.equal(await store().touchProcess("p1", at(2)), true);
      await store().registerProcess(proc("p2", at(3), { sharedPresence: false }));
      const list = await store().listProcesses();
      assert.deepEqual(list.map((p) => [p.id, p.heartbeatAt, p.sharedPresence]), [["p1", at(2), true], ["p2", at(3), false]]);
      assert.equal(list[0].publicAddress, "127.0.0.1:1");
    });

    it("removes a process only for the caller that saw its last heartbeat, and then refuses its heartbeat", async function () {
      await store().registerProcess(proc("p1", at(1)));
      const removals = await Promise.all([store().removeProcessIf("p1", at(1)), store().removeProcessIf("p1", at(1))]);
      assert.deepEqual(removals.filter(Boolean).length, 1);
      assert.equal(await store().touchProcess("p1", at(2)), false, "a removed process learns it was declared dead");
      await store().registerProcess(proc("p1", at(3)));
      assert.equal(await store().removeProcessIf("p1", at(1)), false, "a renewed heartbeat is not removed");
      assert.equal((await store().listProcesses()).length, 1);
    });
  });

  describe("game ownership", function () {
    it("lets exactly one of racing claims of a game's owner epoch win", async function () {
      await store().createGame(game("G1", { status: "active" }));
      const claims = await Promise.all(["p1", "p2", "p3"].map((owner) =>
        store().updateGameIf("G1", { ownerEpoch: undefined }, { owner, ownerEpoch: 1 })));
      assert.equal(claims.filter(Boolean).length, 1);
      const g = (await store().getGame("G1"))!;
      assert.equal(g.owner, ["p1", "p2", "p3"][claims.indexOf(true)]);
      assert.equal(await store().updateGameIf("G1", { ownerEpoch: undefined }, { owner: "p8", ownerEpoch: 1 }), false, "a claimed game is not unclaimed");
      assert.equal(await store().updateGameIf("G1", { ownerEpoch: 1 }, { owner: "p9", ownerEpoch: 2 }), true);
      assert.equal(await store().updateGameIf("G1", { ownerEpoch: 1 }, { owner: "p8", ownerEpoch: 2 }), false, "a stale epoch claims nothing");
      const claimed = (await store().getGame("G1"))!;
      assert.deepEqual([claimed.owner, claimed.ownerEpoch], ["p9", 2]);
      const { owner: _o, ownerEpoch: _e, updatedAt: _u, ...rest } = claimed;
      const { updatedAt: _v, ...created } = game("G1", { status: "active" });
      assert.deepEqual(rest, created, "a claim changes the owner and its epoch only");
      assert.deepEqual((await store().listGames({ status: "active", limit: 5 })).games.map((x) => x.id), ["G1"]);
      assert.equal(await store().updateGameIf("G1", { status: "waiting", ownerEpoch: 2 }, { owner: "p8", ownerEpoch: 3 }), false, "every expected member must match");
      assert.equal(await store().updateGameIf("G1", { status: "active", owner: "p9", ownerEpoch: 2 }, { owner: "p8", ownerEpoch: 3 }), true);
      assert.deepEqual([(await store().getGame("G1"))!.owner, (await store().getGame("G1"))!.ownerEpoch], ["p8", 3]);
      assert.equal(await store().updateGameIf("ghost", {}, { owner: "p9" }), false);
      assert.equal(await store().updateGameIf("ghost", { ownerEpoch: undefined }, { owner: "p9", ownerEpoch: 1 }), false);
    });

    it("commits a fenced write only while the owner epoch is unchanged", async function () {
      await store().createGame(game("G1", { status: "active", owner: "p1", ownerEpoch: 3 }));
      const write = (index: number, ownerEpoch: number) => ({ gameId: "G1", actions: [place("G1", index)], patch: { moveCount: index + 1 }, ownerEpoch });
      assert.deepEqual(await store().commitGames([write(0, 3)]), ["committed"]);
      await store().updateGameIf("G1", { ownerEpoch: 3 }, { owner: "p2", ownerEpoch: 4 });
      assert.deepEqual(await store().commitGames([write(1, 3)]), ["conflict"], "the old owner is fenced off");
      assert.equal((await store().getGame("G1"))!.moveCount, 1, "nothing of a fenced write is stored");
      assert.deepEqual(await store().commitGames([write(1, 4)]), ["committed"]);
      assert.deepEqual(await store().commitGames([write(1, 4)]), ["conflict"], "an index is written once");
      assert.deepEqual(await store().commitGames([{ gameId: "ghost", actions: [place("ghost", 0)], patch: {}, ownerEpoch: 1 }]), ["conflict"]);
      assert.deepEqual((await store().listActions("G1")).map((a) => a.index), [0, 1]);
      assert.equal((await store().getGame("G1"))!.moveCount, 2);
    });
  });
}
