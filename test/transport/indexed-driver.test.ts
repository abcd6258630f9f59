import { strict as assert } from "node:assert";
import { initializeRoomCache, LocalDriver, type IRoomCache } from "@colyseus/core";
import { IndexedLocalDriver } from "../../src/edges/transport";

function listing(roomId: string, over: Partial<IRoomCache> = {}): IRoomCache {
  return initializeRoomCache({ roomId, name: "game", processId: "p1", clients: 0, maxClients: 2, locked: false, ...over } as Partial<IRoomCache>);
}

/** Both drivers given the same listings answer every lookup alike: the index is a shortcut, not a change. */
async function both(fill: (d: LocalDriver) => Promise<void>, ask: (d: LocalDriver) => Promise<unknown>) {
  const stock = new LocalDriver();
  const indexed = new IndexedLocalDriver();
  await fill(stock);
  await fill(indexed);
  assert.deepEqual(await ask(indexed), await ask(stock));
  return ask(indexed);
}

describe("IndexedLocalDriver: room listings found by id", () => {
  const three = async (d: LocalDriver) => {
    for (const id of ["a", "b", "c"]) await d.insert(listing(id, { processId: id === "c" ? "p2" : "p1" }));
  };

  it("finds a listing by room id, the same object the driver holds", async () => {
    const d = new IndexedLocalDriver();
    const b = listing("b");
    await d.insert(listing("a"));
    await d.insert(b);
    assert.equal(await d.findOne({ roomId: "b" }), b);
    assert.equal(await both(three, (x) => x.findOne({ roomId: "c" }).then((r) => r?.roomId)), "c");
  });

  it("does not walk the list of listings to find one by id", async () => {
    const d = new IndexedLocalDriver();
    await three(d);
    // The stock lookup copies the list (Query's constructor) before scanning it.
    d.rooms.slice = () => assert.fail("findOne by id copied the list of every room");
    assert.equal((await d.findOne({ roomId: "a" }))?.roomId, "a");
    assert.throws(() => d.query({ processId: "p1" }), /copied the list/);
  });

  it("answers undefined for an unknown id, as the stock driver does", async () => {
    assert.equal(await both(three, (x) => x.findOne({ roomId: "zz" })), undefined);
  });

  it("forgets a removed listing, and after clear() every listing", async () => {
    const d = new IndexedLocalDriver();
    await three(d);
    assert.equal(d.remove("b"), true);
    assert.equal(d.remove("b"), false);
    assert.equal(await d.findOne({ roomId: "b" }), undefined);
    assert.equal(d.has("b"), false);
    d.clear();
    assert.equal(await d.findOne({ roomId: "a" }), undefined);
    assert.deepEqual(d.query({}), []);
  });

  it("removes a listing without a callback over the listings before it, and keeps the others in order", async () => {
    const d = new IndexedLocalDriver();
    for (const id of ["a", "b", "c", "d", "e"]) await d.insert(listing(id));
    let calls = 0;
    const findIndex = d.rooms.findIndex.bind(d.rooms);
    d.rooms.findIndex = ((predicate: (r: IRoomCache, i: number, all: IRoomCache[]) => boolean) =>
      findIndex((r, i, all) => (calls++, predicate(r, i, all)))) as typeof d.rooms.findIndex;
    assert.equal(d.remove("d"), true);
    assert.ok(calls <= 1, `the stock remove's search called its callback ${calls} times`);
    assert.deepEqual(
      d.query({}).map((r) => r.roomId),
      ["a", "b", "c", "e"],
    );
    assert.equal(d.has("d"), false);
    assert.equal(
      await both(
        async (x) => {
          for (const id of ["a", "b", "c"]) await x.insert(listing(id));
          x.remove("c");
          x.remove("a");
        },
        async (x) => x.query({}).map((r) => r.roomId),
      ).then((ids) => (ids as string[]).join()),
      "b",
    );
  });

  it("keeps other queries (more than the id, or no id) on the stock scan", async () => {
    assert.equal(await both(three, (x) => x.findOne({ roomId: "a", processId: "p2" })), undefined);
    assert.equal(await both(three, (x) => x.findOne({ processId: "p2" }).then((r) => r?.roomId)), "c");
    assert.deepEqual(await both(three, async (x) => x.query({ processId: "p1" }).map((r) => r.roomId)), ["a", "b"]);
  });

  it("drops the listings of a stale process from the index too (cleanup)", async () => {
    const d = new IndexedLocalDriver();
    await three(d);
    await d.cleanup("p1");
    assert.equal(await d.findOne({ roomId: "a" }), undefined);
    assert.equal((await d.findOne({ roomId: "c" }))?.roomId, "c");
  });

  it("indexes a listing created through persist(…, true) and refuses a second insert of the same id", async () => {
    const d = new IndexedLocalDriver();
    assert.equal(d.persist(listing("p"), true), true);
    assert.equal((await d.findOne({ roomId: "p" }))?.roomId, "p");
    assert.equal(await d.insert(listing("p")), false);
  });
});
