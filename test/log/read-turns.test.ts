/**
 * The log's reads are taken in turns: a turn is handed on in the next iteration of the event loop even when
 * nobody waits for it, so what arrived meanwhile (another request's callback) runs between two pages of one
 * reader; at most `slots` pages are read at once, and waiting readers are served in the order they came.
 */
import assert from "node:assert/strict";
import { ReadTurns } from "../../src/services/log/read-turns";

/** A page read that is over at once, as a SQLite read is: it only notes its name. */
const page = (order: string[], name: string) => async () => {
  order.push(name);
  return name;
};

describe("ReadTurns", function () {
  it("hands the turn on in the next iteration even when nobody waits: a callback queued meanwhile runs between a reader's pages", async function () {
    const turns = new ReadTurns(1);
    const order: string[] = [];
    const reader = (async () => {
      for (const name of ["page 1", "page 2", "page 3"]) await turns.run(page(order, name));
    })();
    // Queued while the first page is read, as a request's callback arriving during it would be.
    setImmediate(() => order.push("other"));
    await reader;
    assert.deepEqual(order, ["page 1", "other", "page 2", "page 3"]);
  });

  it("reads at most `slots` pages at once and serves the waiting readers in the order they came", async function () {
    const turns = new ReadTurns(2);
    let running = 0;
    let most = 0;
    const order: string[] = [];
    const read = (name: string) => () =>
      new Promise<string>((resolve) => {
        running++;
        most = Math.max(most, running);
        order.push(name);
        // A read that takes a while (a MongoDB round trip): the others must wait for a free slot.
        setTimeout(() => {
          running--;
          resolve(name);
        }, 5);
      });
    const names = ["a", "b", "c", "d", "e"];
    const got = await Promise.all(names.map((n) => turns.run(read(n))));
    assert.deepEqual(got, names);
    assert.equal(most, 2);
    assert.deepEqual(order, names);
  });

  it("gives the slot back when a read fails", async function () {
    const turns = new ReadTurns(1);
    await assert.rejects(
      turns.run(async () => {
        throw new Error("store down");
      }),
      /store down/,
    );
    assert.equal(await turns.run(async () => "next"), "next");
  });
});
