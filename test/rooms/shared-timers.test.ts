import { strict as assert } from "node:assert";
import { mock } from "node:test";
import { SharedTimers } from "../../rooms/shared-timers";

const T0 = Date.parse("2026-01-01T00:00:00.000Z");

describe("SharedTimers", function () {
  beforeEach(() => mock.timers.enable({ apis: ["setTimeout", "Date"], now: T0 }));
  afterEach(() => mock.timers.reset());

  it("fires each deadline when it is due, in order of time whatever the order they were added in", function () {
    const timers = new SharedTimers();
    const fired: string[] = [];
    for (const [name, ms] of [
      ["c", 3000],
      ["a", 1000],
      ["d", 3000],
      ["b", 2000],
    ] as const)
      timers.add(T0 + ms, () => fired.push(name));
    mock.timers.tick(999);
    assert.deepEqual(fired, []);
    mock.timers.tick(1);
    assert.deepEqual(fired, ["a"]);
    mock.timers.tick(1000);
    assert.deepEqual(fired, ["a", "b"]);
    mock.timers.tick(1000);
    assert.deepEqual(fired.slice(2).sort(), ["c", "d"]);
    assert.equal(timers.size, 0);
  });

  it("never fires a cancelled deadline, the earliest included, and still fires the rest on time", function () {
    const timers = new SharedTimers();
    const fired: number[] = [];
    const deadlines = [500, 1000, 1500, 2000].map((ms) => timers.add(T0 + ms, () => fired.push(ms)));
    timers.cancel(deadlines[0]);
    timers.cancel(deadlines[2]);
    timers.cancel(deadlines[2]);
    timers.cancel(undefined);
    mock.timers.tick(999);
    assert.deepEqual(fired, []);
    mock.timers.tick(1);
    assert.deepEqual(fired, [1000]);
    timers.cancel(deadlines[1]); // already fired: nothing happens
    mock.timers.tick(1000);
    assert.deepEqual(fired, [1000, 2000]);
  });

  it("arms for a deadline added earlier than the one it waits for, and one already past fires at once", function () {
    const timers = new SharedTimers();
    const fired: string[] = [];
    timers.add(T0 + 10_000, () => fired.push("late"));
    timers.add(T0 + 100, () => fired.push("early"));
    timers.add(T0 - 5, () => fired.push("past"));
    mock.timers.tick(0);
    assert.deepEqual(fired, ["past"]);
    mock.timers.tick(100);
    assert.deepEqual(fired, ["past", "early"]);
    mock.timers.tick(9_900);
    assert.deepEqual(fired, ["past", "early", "late"]);
  });

  it("lets a firing deadline add and cancel others: one due by then fires in the same turn", function () {
    const timers = new SharedTimers();
    const fired: string[] = [];
    let doomed = timers.add(T0 + 3000, () => fired.push("doomed"));
    timers.add(T0 + 1000, () => {
      fired.push("first");
      timers.cancel(doomed);
      doomed = timers.add(T0 + 500, () => fired.push("already due"));
      timers.add(T0 + 2000, () => fired.push("next"));
    });
    mock.timers.tick(1000);
    assert.deepEqual(fired, ["first", "already due"]);
    mock.timers.tick(5000);
    assert.deepEqual(fired, ["first", "already due", "next"]);
  });

  it("keeps the heap's order through many random adds and cancels", function () {
    const timers = new SharedTimers();
    const fired: number[] = [];
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const live = new Map<number, ReturnType<SharedTimers["add"]>>();
    for (let i = 0; i < 500; i++) {
      const at = T0 + 1 + Math.floor(rand() * 10_000);
      live.set(
        i,
        timers.add(at, () => fired.push(at)),
      );
      if (rand() < 0.3) {
        const victim = Math.floor(rand() * i);
        timers.cancel(live.get(victim));
        live.delete(victim);
      }
    }
    mock.timers.tick(10_001);
    assert.equal(fired.length, live.size);
    assert.deepEqual(
      fired,
      [...fired].sort((a, b) => a - b),
    );
    assert.deepEqual(
      fired.sort((a, b) => a - b),
      [...live.values()].map((d) => d.at).sort((a, b) => a - b),
    );
  });
});
