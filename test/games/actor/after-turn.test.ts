/**
 * The process's queue of work owed after a turn (src/services/games/actor/after-turn.ts): tasks run after the
 * current turn's synchronous work and its I/O callbacks, in the order given, one drain per burst.
 */
import { strict as assert } from "node:assert";
import { AfterTurn } from "../../../src/services/games/actor/after-turn";

describe("AfterTurn: work owed after a turn", () => {
  it("runs tasks after the current turn, in order, including tasks queued by a task (in the next drain)", async () => {
    const queue = new AfterTurn();
    const seen: string[] = [];
    queue.run(() => seen.push("a"));
    queue.run(() => {
      seen.push("b");
      queue.run(() => seen.push("d"));
    });
    queue.run(() => seen.push("c"));
    seen.push("turn");
    assert.deepEqual(seen, ["turn"]);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(seen, ["turn", "a", "b", "c"]);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(seen, ["turn", "a", "b", "c", "d"]);
  });

  it("schedules one setImmediate for a burst of tasks", () => {
    const queue = new AfterTurn();
    const real = global.setImmediate;
    let scheduled = 0;
    global.setImmediate = ((fn: () => void) => {
      scheduled++;
      return real(fn);
    }) as typeof setImmediate;
    try {
      for (let i = 0; i < 100; i++) queue.run(() => undefined);
    } finally {
      global.setImmediate = real;
    }
    assert.equal(scheduled, 1);
  });
});
