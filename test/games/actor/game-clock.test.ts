import { strict as assert } from "node:assert";
import { mock } from "node:test";
import { newGame, legalMoves, type Seat } from "../../../src/engine";
import { advance, step, type GameContext } from "../../../src/services/games/context";
import type { GameRecord } from "../../../src/store/port";
import { GameClock, type ClockHandlers } from "../../../src/services/games/actor/game-clock";
import { game } from "../../store/fixtures";

const T0 = Date.parse("2026-01-01T00:00:00.000Z");
const iso = (ms: number) => new Date(ms).toISOString();
const settings = { houseDelayMs: 500, waitingGameTtlS: 3600, finishedGraceMs: 30_000 };

/** Records which handler fired, in order. */
function recorder(): ClockHandlers & { fired: string[] } {
  const fired: string[] = [];
  return {
    fired,
    onTurnTimeout: () => fired.push("timeout"),
    onWaitingExpired: () => fired.push("waiting"),
    onHouseTurn: (seat: Seat) => fired.push(`house ${seat}`),
    onReleased: () => fired.push("released"),
  };
}

function active(over: Partial<GameRecord> = {}): GameContext {
  const record = game("G1", {
    status: "active",
    startedAt: iso(T0),
    turnSeconds: 10,
    seats: { A: { playerId: "P1", name: "Ada", kind: "human", tokenHash: "aa" }, B: { playerId: "P2", name: "Bo", kind: "human", tokenHash: "bb" } },
    ...over,
  });
  return { record, engine: newGame({ ruleset: "classic" }, 3, "salt"), timeline: [], endEvents: [] };
}

/** The context after one more legal placement, played at `at`. */
function moved(ctx: GameContext, at: number): GameContext {
  const m = legalMoves(ctx.engine!)[0];
  const r = step(ctx, { kind: "place", card: m.card, square: m.square });
  assert.ok(r.ok);
  const next = advance(ctx, r, iso(at));
  return { ...next, record: { ...next.record, lastMoveAt: iso(at) } };
}

describe("GameClock", function () {
  beforeEach(() => mock.timers.enable({ apis: ["setTimeout", "Date"], now: T0 }));
  afterEach(() => mock.timers.reset());

  it("times the turn out at the deadline of the last move, not of an earlier one it kept a timer for", function () {
    const on = recorder();
    const clock = new GameClock(settings, on);
    let ctx = active();
    clock.arm(ctx);
    assert.equal(clock.deadlineMs, T0 + 10_000);
    mock.timers.tick(6_000);
    ctx = moved(ctx, T0 + 6_000);
    clock.arm(ctx);
    assert.equal(clock.deadlineMs, T0 + 16_000);
    mock.timers.tick(4_000); // the first deadline passes: the kept timer fires and waits for the rest
    assert.deepEqual(on.fired, []);
    mock.timers.tick(5_999);
    assert.deepEqual(on.fired, []);
    mock.timers.tick(1);
    assert.deepEqual(on.fired, ["timeout"]);
    mock.timers.tick(60_000);
    assert.deepEqual(on.fired, ["timeout"], "once");
  });

  it("arms an earlier deadline at once, and stops every timer on stop", function () {
    const on = recorder();
    const clock = new GameClock(settings, on);
    clock.arm(active({ turnSeconds: 100 }));
    clock.arm(active({ turnSeconds: 10 }));
    mock.timers.tick(10_000);
    assert.deepEqual(on.fired, ["timeout"]);
    clock.arm(active({ startedAt: iso(T0 + 10_000), turnSeconds: 10 }));
    clock.stop();
    mock.timers.tick(100_000);
    assert.deepEqual(on.fired, ["timeout"]);
  });

  it("replaces a turn timer by the release timer once the game finishes, and by nothing else", function () {
    const on = recorder();
    const clock = new GameClock(settings, on);
    const ctx = active();
    clock.arm(ctx);
    const finished = { ...ctx, engine: { ...ctx.engine!, status: "finished" as const, winner: "A" as const } };
    mock.timers.tick(1_000);
    clock.arm(finished);
    assert.equal(clock.deadlineMs, 0);
    mock.timers.tick(29_999);
    assert.deepEqual(on.fired, [], "neither the old turn deadline nor the release yet");
    mock.timers.tick(1);
    assert.deepEqual(on.fired, ["released"]);
  });

  it("expires a waiting game from its creation, and gives the house its turn after its pause", function () {
    const on = recorder();
    const clock = new GameClock(settings, on);
    clock.arm({ record: game("W", { createdAt: iso(T0 - 3_000_000) }), engine: null, timeline: [], endEvents: [] });
    mock.timers.tick(599_999);
    assert.deepEqual(on.fired, []);
    mock.timers.tick(1);
    assert.deepEqual(on.fired, ["waiting"]);
    const house = active({ seats: { A: { playerId: "P1", name: "Ada", kind: "human", tokenHash: "aa" }, B: { playerId: "H", name: "House", kind: "house" } } });
    const turn = house.engine!.turn;
    const ctx = turn === "B" ? house : moved(house, Date.now());
    clock.arm(ctx);
    mock.timers.tick(500);
    assert.deepEqual(on.fired, ["waiting", "house B"]);
  });
});
