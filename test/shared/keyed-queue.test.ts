import { strict as assert } from "node:assert";
import { KeyedQueue } from "../../src/shared/keyed-queue";

/** A promise and its resolve, for work that finishes when the test says so. */
function gate() {
  let open!: () => void;
  const done = new Promise<void>((r) => (open = r));
  return { done, open };
}

describe("KeyedQueue: work one at a time per key", () => {
  it("starts a key's work once the earlier work on it has settled, failed or not; other keys do not wait", async () => {
    const queue = new KeyedQueue();
    const log: string[] = [];
    const first = gate();
    const a1 = queue.run("a", async () => {
      log.push("a1 start");
      await first.done;
      throw new Error("a1 failed");
    });
    const a2 = queue.run("a", async () => {
      log.push("a2 start");
      return 2;
    });
    const b1 = queue.run("b", async () => {
      log.push("b1 start");
      return "b";
    });
    assert.equal(await b1, "b");
    assert.deepEqual(log, ["a1 start", "b1 start"], "a2 waits for a1; b1 does not");
    first.open();
    await assert.rejects(a1, /a1 failed/);
    assert.equal(await a2, 2, "a failure does not stop the key's next work");
    assert.deepEqual(log, ["a1 start", "b1 start", "a2 start"]);
  });

  it("runs work queued on a key whose earlier work has all finished at once", async () => {
    const queue = new KeyedQueue();
    await queue.run("a", async () => 1);
    let ran = false;
    const later = queue.run("a", async () => {
      ran = true;
    });
    await later;
    assert.ok(ran);
  });
});
