import { strict as assert } from "node:assert";
import { mock } from "node:test";
import type { Seat } from "../../../src/engine";
import { rebuildContext } from "../../../src/services/games/context";
import { replayBody } from "../../../src/services/games/views";
import { game } from "../../store/fixtures";
import { GameActor } from "../../../src/services/games/actor/game-actor";
import type { GameWrite } from "../../../src/store/port";
import { activeGame, actorOf, deps, iso, nextMove, Ports, seats, settle, storedBy, T0 } from "./actor-fixtures";

/** An active game in which each seat has moved once (a resignation now finishes it, rather than aborting it). */
async function playedGame(id: string) {
  const record = game(id, { status: "active", createdAt: iso(T0), startedAt: iso(T0), turnSeconds: 10, seats });
  const { actor, ports } = actorOf(record);
  for (let i = 0; i < 2; i++) {
    const { seat, move } = nextMove(actor);
    assert.ok((await actor.play(seat, move)).ok);
  }
  return { record, actor, ports };
}

describe("GameActor: the move pipeline without a server", function () {
  beforeEach(() => mock.timers.enable({ apis: ["setTimeout", "Date"], now: T0 }));
  afterEach(() => mock.timers.reset());

  it("runs concurrent actions one at a time, in arrival order, each validated after the one before is stored", async function () {
    const { actor, ports } = activeGame();
    ports.told.length = 0;
    ports.hold = true;
    const first = nextMove(actor);
    const other: Seat = first.seat === "A" ? "B" : "A";
    const move = actor.play(first.seat, first.move, "c1");
    // Sent before the first move is stored: both pass the early checks (the turn is still theirs to judge).
    const again = actor.play(first.seat, first.move, "c1");
    const resign = actor.resignAs(other);
    await settle();
    assert.equal(ports.writes.length, 1, "the second action waits for the first one's write");
    assert.deepEqual(ports.told, [], "nothing is shown before the write is stored");
    ports.release();
    const moved = await move;
    assert.ok(moved.ok);
    assert.equal(moved.value.move.n, 1);
    const refused = await again;
    assert.ok(!refused.ok && refused.code === "not_your_turn", "validated again inside the queue, after the first move");
    await settle();
    assert.equal(ports.writes.length, 2);
    ports.release();
    const resigned = await resign;
    assert.ok(resigned.ok);
    assert.deepEqual(
      ports.writes.map((w) => w.actions.map((a) => `${a.index}:${a.action.kind}`).join()),
      ["0:place", "1:abort"], // a resignation before each seat has moved aborts the game
    );
    assert.deepEqual(
      ports.writes.map((w) => w.ownerEpoch),
      [7, 7],
    );
    assert.equal(ports.told[0], `ack c1 ${first.seat} 1`, "the mover's hand is taken before the change is shown");
    assert.equal(ports.told[1], "changed");
  });

  it("refuses a move whose write fails and changes nothing; the same move is then accepted", async function () {
    const { actor, ports, deps: d } = activeGame();
    ports.told.length = 0;
    const before = actor.ctx;
    const { seat, move } = nextMove(actor);
    ports.answer = new Error("disk full");
    const out = await actor.play(seat, move, "c1");
    assert.ok(!out.ok);
    assert.equal(out.code, "unavailable");
    await settle();
    assert.equal(actor.ctx, before, "the game is the same object as before");
    assert.equal(actor.ctx.engine!.moves.length, 0);
    assert.deepEqual(ports.told, [], "nothing was shown or acknowledged");
    assert.deepEqual(d.published, [], "no long-poll was woken");
    assert.deepEqual(d.events.emitted, [], "no event was emitted");
    ports.answer = "committed";
    const retried = await actor.play(seat, move, "c1");
    assert.ok(retried.ok);
    assert.equal(ports.writes.at(-1)!.actions[0].index, 0, "stored at the index the refused move would have taken");
  });

  it("refuses a move the owner fence refuses, and tells the fence the game moved", async function () {
    const { actor, ports } = activeGame();
    const { seat, move } = nextMove(actor);
    ports.answer = "conflict";
    const out = await actor.play(seat, move);
    assert.ok(!out.ok);
    assert.equal(out.code, "unavailable");
    assert.ok(ports.told.includes("moved G1 7"));
    assert.equal(actor.ctx.engine!.moves.length, 0);
  });

  it("aborts a waiting game when its waiting time runs out, and tells the room", async function () {
    const {
      actor,
      ports,
      deps: d,
    } = actorOf(game("G2", { createdAt: iso(T0), seats: { A: seats.A, B: { playerId: "", name: "", kind: "human", code: "INV" } } }));
    mock.timers.tick(59_000);
    await settle();
    assert.equal(actor.status(), "waiting");
    mock.timers.tick(1_000);
    await settle();
    assert.equal(actor.status(), "finished");
    assert.equal(actor.ctx.record.decidedBy, "aborted");
    assert.equal(actor.ctx.record.winner, null);
    assert.deepEqual(
      ports.writes.map((w) => w.patch.decidedBy),
      ["aborted"],
    );
    assert.ok(ports.told.includes("aborted"));
    assert.deepEqual(d.published, [0]);
    const late = await actor.claimSeat("INV", { playerId: "P2", name: "Bo", kind: "human", tokenHash: "bb" });
    assert.ok(!late.ok && late.code === "code_expired");
  });

  it("times the seat to move out when the turn clock fires, settles the finish and releases after the grace period", async function () {
    const { actor, ports, deps: d } = activeGame();
    for (let i = 0; i < 2; i++) {
      const { seat, move } = nextMove(actor);
      assert.ok((await actor.play(seat, move)).ok);
    }
    const late = actor.ctx.engine!.turn;
    mock.timers.tick(9_999);
    await settle();
    assert.equal(actor.status(), "active");
    const woken = d.published.length;
    mock.timers.tick(1);
    await settle();
    assert.equal(actor.status(), "finished");
    const timeout = ports.writes[2];
    assert.deepEqual(
      timeout.actions.map((a) => a.action),
      [{ kind: "timeout", seat: late }],
    );
    assert.equal(timeout.patch.status, undefined, "the finishing action is stored before the game is marked finished");
    assert.equal(ports.writes[3].patch.status, "finished");
    assert.equal(ports.writes[3].patch.decidedBy, "timeout");
    assert.equal(ports.writes[3].patch.winner, late === "A" ? "B" : "A", "the seat that ran out of time loses");
    assert.ok(d.published.length > woken, "long-polls are woken by the end");
    assert.ok(ports.told.includes("finished"));
    assert.ok(d.events.emitted.includes("game.finished"));
    assert.ok(!ports.told.includes("released"));
    mock.timers.tick(30_000);
    assert.equal(ports.told.at(-1), "released");
    const after = await actor.play(actor.ctx.engine!.turn, { move: "x" });
    assert.ok(!after.ok && after.code === "game_over");
  });

  it("aborts a game whose first seat never moves when the turn clock fires (not yet played: nobody loses)", async function () {
    const { actor, ports } = activeGame();
    mock.timers.tick(10_000);
    await settle();
    assert.equal(actor.status(), "finished");
    assert.deepEqual(
      ports.writes[0].actions.map((a) => a.action.kind),
      ["abort"],
    );
    assert.equal(actor.ctx.engine!.winner, null);
  });

  it("claims the open seat by its code, starts the game, and refuses the code once used", async function () {
    const {
      actor,
      ports,
      deps: d,
    } = actorOf(game("G3", { createdAt: iso(T0), seats: { A: seats.A, B: { playerId: "", name: "", kind: "human", code: "INV" } } }));
    assert.ok(!(await actor.claimSeat("NOPE", { playerId: "P2", name: "Bo", kind: "human", tokenHash: "bb" })).ok);
    assert.equal(ports.writes.length, 0, "a wrong code writes nothing");
    const out = await actor.claimSeat("INV", { playerId: "P2", name: "Bo", kind: "human", tokenHash: "bb" });
    assert.ok(out.ok);
    assert.deepEqual(out.value, { seat: "B", status: "active" });
    assert.equal(ports.writes[0].patch.status, "active");
    assert.equal(ports.writes[0].patch.seats?.B?.tokenHash, "bb");
    assert.equal(actor.status(), "active");
    assert.ok(actor.ctx.engine, "the engine starts with the second seat");
    assert.ok(d.events.emitted.includes("game.started"));
    const again = await actor.claimSeat("INV", { playerId: "P3", name: "Cy", kind: "human", tokenHash: "cc" });
    assert.ok(!again.ok && again.code === "already_joined");
  });

  it("refuses a claim whose write fails and leaves the seat open", async function () {
    const { actor, ports } = actorOf(game("G4", { createdAt: iso(T0), seats: { A: seats.A, B: { playerId: "", name: "", kind: "human", code: "INV" } } }));
    ports.answer = new Error("disk full");
    const out = await actor.claimSeat("INV", { playerId: "P2", name: "Bo", kind: "human", tokenHash: "bb" });
    assert.ok(!out.ok && out.code === "unavailable");
    assert.equal(actor.status(), "waiting");
    assert.equal(actor.ctx.engine, null);
    ports.answer = "committed";
    assert.ok((await actor.claimSeat("INV", { playerId: "P2", name: "Bo", kind: "human", tokenHash: "bb" })).ok);
  });

  it("ends a played game on resignation: the other seat wins, moves after the end are refused, the stored game replays it", async function () {
    const { record, actor, ports } = await playedGame("G5");
    const resigning = actor.ctx.engine!.turn;
    const out = await actor.resign(seats[resigning].tokenHash);
    assert.ok(out.ok);
    assert.deepEqual([out.value.status, out.value.decidedBy, out.value.winner], ["finished", "resignation", resigning === "A" ? "B" : "A"]);
    const late = await actor.move(seats[resigning].tokenHash, { card: "E1", square: "a1" });
    assert.ok(!late.ok && late.code === "game_over");
    const store = storedBy(record, ports);
    const replay = replayBody(rebuildContext((await store.getGame("G5"))!, await store.listActions("G5")), "http://127.0.0.1:1");
    assert.equal(replay?.decidedBy, "resignation");
  });

  it("stores a finish cut off between its two writes when the game is opened next: rated, finished at the finishing action's time", async function () {
    // A finish is two writes: the finishing action (the record not yet finished), then ratings and the finished
    // record (with the public log's mark). A process that dies between them leaves the action alone stored.
    const { record, actor, ports } = await playedGame("G6");
    const lost: GameWrite[] = [];
    const commit = ports.commit.bind(ports);
    ports.commit = (w) => (w.patch.status === "finished" ? (lost.push(w), Promise.reject(new Error("the process died"))) : commit(w));
    const resigning = actor.ctx.engine!.turn;
    assert.ok((await actor.resign(seats[resigning].tokenHash)).ok, "the resignation was stored, so it is answered");
    assert.equal(lost.length, 1, "the finish write was the one cut off");
    const store = storedBy(record, ports);
    const stored = (await store.getGame("G6"))!;
    const actions = await store.listActions("G6");
    assert.equal(stored.status, "active", "the record was left before the end");
    assert.equal(actions.at(-1)!.action.kind, "resign");

    // The next process opens the game from the store, as a room does (rooms/game-room.ts onCreate).
    const next = new Ports();
    const d = deps();
    const rated: string[] = [];
    const finishedHook: string[] = [];
    d.players.recordResult = async (g) => void rated.push(g.id);
    d.onFinished = async (g) => void finishedHook.push(g.status);
    const reopened = new GameActor<string>("G6", 8, rebuildContext(stored, actions), d, next, next);
    assert.equal(await reopened.reconcile(actions.at(-1)!.at), true);
    assert.equal(next.writes.length, 1);
    const w = next.writes[0];
    assert.deepEqual(
      [w.patch.status, w.patch.finishedAt, w.actions.length, w.ownerEpoch],
      ["finished", actions.at(-1)!.at, 0, 8],
      "the record alone, finished when the action was taken, under the new owner's epoch",
    );
    assert.deepEqual(rated, ["G6"], "the game was rated once");
    assert.deepEqual(finishedHook, ["finished"]);
    assert.equal(reopened.status(), "finished");
    const again = storedBy(stored, next);
    assert.equal((await again.getGame("G6"))!.winner, resigning === "A" ? "B" : "A");
  });

  it("refuses a move out of turn, a card not in hand, a malformed notation and a taken square, writing nothing", async function () {
    const { actor, ports } = activeGame();
    const mover = actor.ctx.engine!.turn;
    const waiter: Seat = mover === "A" ? "B" : "A";
    const card = actor.ctx.engine!.hands[mover][0];
    const code = async (seat: Seat, input: Parameters<typeof actor.play>[1]) => {
      const out = await actor.play(seat, input);
      return out.ok ? "accepted" : out.code;
    };
    assert.equal(await code(waiter, { card: actor.ctx.engine!.hands[waiter][0], square: "a1" }), "not_your_turn");
    assert.equal(await code(mover, { card: "ZZ9", square: "a1" }), "illegal_move");
    assert.equal(await code(mover, { move: "hello" }), "bad_request");
    assert.equal(ports.writes.length, 0, "no refusal wrote anything");
    assert.equal(actor.ctx.engine!.moves.length, 0);
    assert.equal(await code(mover, { move: `${card}@a1` }), "accepted");
    const taken = await actor.play(waiter, { card: actor.ctx.engine!.hands[waiter][0], square: "a1" });
    assert.ok(!taken.ok && taken.code === "illegal_move");
    assert.match(taken.detail, /a1/);
    assert.equal(ports.writes.length, 1);
  });
});
