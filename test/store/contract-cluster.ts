/** Contract: what several processes sharing one store rely on (process registry, game ownership fences). */
import assert from "node:assert/strict";
import { type ProcessRecord } from "../../src/store";
import type { StoreRef, TwinRef } from "./contract";
import { at, game, player } from "./fixtures";

const proc = (id: string, heartbeatAt: string, over: Partial<ProcessRecord> = {}): ProcessRecord => ({
  id,
  sharedPresence: true,
  pid: 1,
  host: "h1",
  startedAt: at(0),
  heartbeatAt,
  ...over,
});
const place = (gameId: string, index: number) => ({ gameId, index, action: { kind: "abort" as const }, at: at(index) });

export function clusterContract(store: StoreRef, twin?: TwinRef): void {
  describe("process registry", function () {
    it("registers, renews and lists processes, replacing a record registered again", async function () {
      await store().processes.registerProcess(proc("p2", at(1)));
      await store().processes.registerProcess(proc("p1", at(1), { publicAddress: "127.0.0.1:1" }));
      assert.equal(await store().processes.touchProcess("p1", at(2)), true);
      await store().processes.registerProcess(proc("p2", at(3), { sharedPresence: false }));
      const list = await store().processes.listProcesses();
      assert.deepEqual(
        list.map((p) => [p.id, p.heartbeatAt, p.sharedPresence]),
        [
          ["p1", at(2), true],
          ["p2", at(3), false],
        ],
      );
      assert.equal(list[0].publicAddress, "127.0.0.1:1");
    });

    it("takes every one of racing first registrations of a process", async function () {
      await Promise.all(Array.from({ length: 8 }, (_, i) => store().processes.registerProcess(proc("p1", at(i)))));
      assert.equal((await store().processes.listProcesses()).length, 1);
    });

    it("removes a process only for the caller that saw its last heartbeat, and then refuses its heartbeat", async function () {
      await store().processes.registerProcess(proc("p1", at(1)));
      const removals = await Promise.all([store().processes.removeProcessIf("p1", at(1)), store().processes.removeProcessIf("p1", at(1))]);
      assert.deepEqual(removals.filter(Boolean).length, 1);
      assert.equal(await store().processes.touchProcess("p1", at(2)), false, "a removed process learns it was declared dead");
      await store().processes.registerProcess(proc("p1", at(3)));
      assert.equal(await store().processes.removeProcessIf("p1", at(1)), false, "a renewed heartbeat is not removed");
      assert.equal((await store().processes.listProcesses()).length, 1);
    });
  });

  describe("game ownership", function () {
    it("lets exactly one of racing claims of a game's owner epoch win", async function () {
      await store().games.createGame(game("G1", { status: "active" }));
      const claims = await Promise.all(
        ["p1", "p2", "p3"].map((owner) => store().games.updateGameIf("G1", { ownerEpoch: undefined }, { owner, ownerEpoch: 1 })),
      );
      assert.equal(claims.filter(Boolean).length, 1);
      const g = (await store().games.getGame("G1"))!;
      assert.equal(g.owner, ["p1", "p2", "p3"][claims.indexOf(true)]);
      assert.equal(await store().games.updateGameIf("G1", { ownerEpoch: undefined }, { owner: "p8", ownerEpoch: 1 }), false, "a claimed game is not unclaimed");
      assert.equal(await store().games.updateGameIf("G1", { ownerEpoch: 1 }, { owner: "p9", ownerEpoch: 2 }), true);
      assert.equal(await store().games.updateGameIf("G1", { ownerEpoch: 1 }, { owner: "p8", ownerEpoch: 2 }), false, "a stale epoch claims nothing");
      const claimed = (await store().games.getGame("G1"))!;
      assert.deepEqual([claimed.owner, claimed.ownerEpoch], ["p9", 2]);
      const { owner: _o, ownerEpoch: _e, updatedAt: _u, ...rest } = claimed;
      const { updatedAt: _v, ...created } = game("G1", { status: "active" });
      assert.deepEqual(rest, created, "a claim changes the owner and its epoch only");
      assert.deepEqual(
        (await store().games.listGames({ status: "active", limit: 5 })).games.map((x) => x.id),
        ["G1"],
      );
      assert.equal(
        await store().games.updateGameIf("G1", { status: "waiting", ownerEpoch: 2 }, { owner: "p8", ownerEpoch: 3 }),
        false,
        "every expected member must match",
      );
      assert.equal(await store().games.updateGameIf("G1", { status: "active", owner: "p9", ownerEpoch: 2 }, { owner: "p8", ownerEpoch: 3 }), true);
      assert.deepEqual([(await store().games.getGame("G1"))!.owner, (await store().games.getGame("G1"))!.ownerEpoch], ["p8", 3]);
      assert.equal(await store().games.updateGameIf("ghost", {}, { owner: "p9" }), false);
      assert.equal(await store().games.updateGameIf("ghost", { ownerEpoch: undefined }, { owner: "p9", ownerEpoch: 1 }), false);
    });

    it("commits a fenced write only while the owner epoch is unchanged", async function () {
      await store().games.createGame(game("G1", { status: "active", owner: "p1", ownerEpoch: 3 }));
      const write = (index: number, ownerEpoch: number) => ({ gameId: "G1", actions: [place("G1", index)], patch: { moveCount: index + 1 }, ownerEpoch });
      assert.deepEqual(await store().games.commitGames([write(0, 3)]), ["committed"]);
      await store().games.updateGameIf("G1", { ownerEpoch: 3 }, { owner: "p2", ownerEpoch: 4 });
      assert.deepEqual(await store().games.commitGames([write(1, 3)]), ["conflict"], "the old owner is fenced off");
      assert.equal((await store().games.getGame("G1"))!.moveCount, 1, "nothing of a fenced write is stored");
      assert.deepEqual(await store().games.commitGames([write(1, 4)]), ["committed"]);
      assert.deepEqual(await store().games.commitGames([write(1, 4)]), ["conflict"], "an index is written once");
      assert.deepEqual(await store().games.commitGames([{ gameId: "ghost", actions: [place("ghost", 0)], patch: {}, ownerEpoch: 1 }]), ["conflict"]);
      assert.deepEqual(
        (await store().games.listActions("G1")).map((a) => a.index),
        [0, 1],
      );
      assert.equal((await store().games.getGame("G1"))!.moveCount, 2);
    });

    it("commits a write's profile writes with it, and stores nothing of the game's part when one does not hold", async function () {
      await store().games.createGame(game("G1", { status: "active", owner: "p1", ownerEpoch: 1 }));
      await store().games.createGame(game("G2", { status: "active", owner: "p1", ownerEpoch: 1 }));
      await store().players.createPlayer(player("P1", 1500, { version: 1 }));
      await store().players.createPlayer(player("P2", 1500, { version: 1 }));
      const finish = (gameId: string, version: number, rating: number) => ({
        gameId,
        actions: [],
        patch: { status: "finished" as const, winner: "A" as const },
        ownerEpoch: 1,
        players: [
          { id: "P1", expected: { version }, patch: { rating, version: version + 1 } },
          { id: "P2", expected: { version }, patch: { rating: 1400, version: version + 1 } },
        ],
      });
      // G2's write expects P1 at a version G1's write (earlier in the batch) has just moved past.
      assert.deepEqual(await store().games.commitGames([finish("G1", 1, 1520), finish("G2", 1, 1530)]), ["committed", "stale"]);
      assert.equal((await store().games.getGame("G1"))!.status, "finished");
      assert.deepEqual([(await store().players.getPlayer("P1"))!.rating, (await store().players.getPlayer("P2"))!.rating], [1520, 1400]);
      assert.equal((await store().games.getGame("G2"))!.status, "active", "a stale write's game part is not stored");
      assert.equal((await store().players.getPlayer("P1"))!.version, 2);
      const fenced = { ...finish("G2", 2, 1540), ownerEpoch: 9 };
      assert.deepEqual(await store().games.commitGames([fenced]), ["conflict"], "the fence still holds for a write with profiles");
      assert.equal((await store().games.getGame("G2"))!.status, "active");
      assert.deepEqual(
        await store().games.commitGames([finish("G2", (await store().players.getPlayer("P1"))!.version!, 1550)]),
        ["committed"],
        "read again, it is stored",
      );
      assert.equal((await store().games.getGame("G2"))!.status, "finished");
      assert.equal((await store().players.getPlayer("P1"))!.rating, 1550);
    });

    it("stores a write's new guest profiles with it, and nothing of it when a guest's id is taken", async function () {
      await store().games.createGame(game("G1", { status: "waiting", owner: "p1", ownerEpoch: 1 }));
      await store().players.createPlayer(player("P1", 1500));
      const claim = (guestId: string, ownerEpoch = 1) => ({
        gameId: "G1",
        actions: [],
        patch: { status: "active" as const },
        ownerEpoch,
        guests: [player(guestId, 1500)],
      });
      assert.deepEqual(await store().games.commitGames([claim("P1")]), ["stale"], "a taken id refuses the write");
      assert.equal((await store().games.getGame("G1"))!.status, "waiting", "nothing of the game's part is stored");
      assert.deepEqual(await store().games.commitGames([claim("P2")]), ["committed"]);
      assert.equal((await store().games.getGame("G1"))!.status, "active");
      assert.equal((await store().players.getPlayer("P2"))!.id, "P2");
    });
  });

  // Two stores on one database stand for two processes: the owner that lost its game and the one that took
  // it over. Every write of the old owner after the take-over must be refused and leave nothing behind.
  (twin ? describe : describe.skip)("two stores on one database", function () {
    const write = (index: number, ownerEpoch: number, by: string) => ({
      gameId: "G1",
      actions: [{ ...place("G1", index), at: at(index), action: { kind: "timeout" as const, seat: by === "old" ? ("A" as const) : ("B" as const) } }],
      patch: { moveCount: index + 1 },
      ownerEpoch,
    });

    it("refuses every write of the old owner once another store has bumped the epoch, between any two of its steps", async function () {
      const old = store();
      const next = await twin!();
      await old.games.createGame(game("G1", { status: "active" }));
      assert.equal(await old.games.updateGameIf("G1", { ownerEpoch: undefined }, { owner: "p1", ownerEpoch: 1 }), true);
      assert.deepEqual(await old.games.commitGames([write(0, 1, "old")]), ["committed"]);
      // The take-over, through the other store: the new owner reads the log and claims the next epoch.
      assert.deepEqual(
        (await next.games.listActions("G1")).map((a) => a.index),
        [0],
      );
      assert.equal(await next.games.updateGameIf("G1", { ownerEpoch: 1 }, { owner: "p2", ownerEpoch: 2 }), true);
      assert.deepEqual(await old.games.commitGames([write(1, 1, "old")]), ["conflict"], "the old owner's next move");
      assert.deepEqual(await next.games.commitGames([write(1, 2, "new")]), ["committed"]);
      assert.deepEqual(await old.games.commitGames([write(2, 1, "old")]), ["conflict"], "the old owner at the new end of the log");
      assert.deepEqual(
        await old.games.commitGames([{ gameId: "G1", actions: [], patch: { status: "finished" }, ownerEpoch: 1 }]),
        ["conflict"],
        "a record-only write",
      );
      // A third claim, back through the first store, fences the second owner in turn.
      assert.equal(await old.games.updateGameIf("G1", { ownerEpoch: 2 }, { owner: "p1", ownerEpoch: 3 }), true);
      assert.deepEqual(await next.games.commitGames([write(2, 2, "new")]), ["conflict"]);
      const log = await old.games.listActions("G1");
      assert.deepEqual(
        log.map((a) => [a.index, a.action]),
        [
          [0, { kind: "timeout", seat: "A" }],
          [1, { kind: "timeout", seat: "B" }],
        ],
      );
      const g = (await next.games.getGame("G1"))!;
      assert.deepEqual([g.moveCount, g.status, g.owner, g.ownerEpoch], [2, "active", "p1", 3]);
    });

    it("lets one of two stores accepting the same rematch at once store its new game's id", async function () {
      const [one, other] = [store(), await twin!()];
      for (let round = 0; round < 10; round++) {
        const id = `M${round}`;
        await one.games.createGame(game(id, { status: "finished", rematch: { version: 1, offeredBy: "A", at: at(1) } }));
        const accept = (s: typeof one, gameId: string) => s.games.updateRematchIf(id, 1, { version: 2, offeredBy: "A", at: at(1), gameId });
        const won = await Promise.all([accept(one, "N1"), accept(other, "N2")]);
        assert.equal(won.filter(Boolean).length, 1, `round ${round}: ${JSON.stringify(won)}`);
        assert.equal((await other.games.getGame(id))!.rematch!.gameId, won[0] ? "N1" : "N2");
      }
    });

    it("decides a write racing a take-over one way: stored whole and answered committed, or not stored at all", async function () {
      const old = store();
      const next = await twin!();
      for (let round = 0; round < 10; round++) {
        const id = `R${round}`;
        await old.games.createGame(game(id, { status: "active", owner: "p1", ownerEpoch: 1 }));
        const move = {
          gameId: id,
          actions: [{ gameId: id, index: 0, action: { kind: "abort" as const }, at: at(1) }],
          patch: { moveCount: 1, status: "finished" as const },
          ownerEpoch: 1,
        };
        const [result, claimed] = await Promise.all([
          old.games.commitGames([move]),
          next.games.updateGameIf(id, { ownerEpoch: 1 }, { owner: "p2", ownerEpoch: 2 }),
        ]);
        assert.equal(claimed, true, "the claim never waits on the old owner");
        const stored = await next.games.listActions(id);
        const g = (await next.games.getGame(id))!;
        if (result[0] === "committed") {
          assert.deepEqual([stored.length, g.moveCount, g.status], [1, 1, "finished"], `round ${round}: committed`);
        } else {
          assert.deepEqual([stored.length, g.moveCount, g.status], [0, 0, "active"], `round ${round}: refused`);
        }
        assert.deepEqual([g.owner, g.ownerEpoch], ["p2", 2]);
      }
    });
  });
}
