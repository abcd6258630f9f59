import { strict as assert } from "node:assert";
import { StaggeredHeartbeat, type Pingable } from "../../src/edges/transport/heartbeat";

/** A socket that answers every ping at once (like a live client), unless it is `silent`. */
class FakeSocket implements Pingable {
  pingCount = 0;
  heard = false;
  pings = 0;
  terminated = false;
  constructor(
    private readonly sockets: Set<Pingable>,
    public silent = false,
  ) {
    sockets.add(this);
  }
  ping() {
    this.pings++;
    if (!this.silent) this.pingCount = 0;
  }
  terminate() {
    this.terminated = true;
    this.sockets.delete(this);
  }
}

describe("StaggeredHeartbeat", () => {
  it("pings every socket once per period, a slice per tick", () => {
    const sockets = new Set<Pingable>();
    const all = Array.from({ length: 1000 }, () => new FakeSocket(sockets));
    // A period of 10 slices: at most 100 sockets per tick.
    const hb = new StaggeredHeartbeat(sockets, 1000, 2, 100);
    let before = 0;
    for (let tick = 0; tick < 10; tick++) {
      hb.tick();
      const pinged = all.reduce((n, s) => n + s.pings, 0);
      assert.ok(pinged - before <= 100, `tick ${tick} pinged ${pinged - before} sockets`);
      before = pinged;
    }
    assert.deepEqual(new Set(all.map((s) => s.pings)), new Set([1]));
    // The next tick starts the next period.
    hb.tick();
    assert.equal(all.filter((s) => s.pings === 2).length, 100);
  });

  it("cuts a socket after the allowed unanswered pings and keeps the ones that answer", () => {
    const sockets = new Set<Pingable>();
    const live = Array.from({ length: 30 }, () => new FakeSocket(sockets));
    const silent = new FakeSocket(sockets, true);
    const hb = new StaggeredHeartbeat(sockets, 300, 2, 100);
    for (let tick = 0; tick < 20; tick++) hb.tick();
    assert.equal(silent.terminated, true);
    assert.equal(silent.pings, 2);
    assert.ok(live.every((s) => !s.terminated && s.pings >= 4));
    assert.equal(sockets.size, 30);
  });

  it("reaches sockets that join mid-pass and skips those that left", () => {
    const sockets = new Set<Pingable>();
    const first = Array.from({ length: 10 }, () => new FakeSocket(sockets));
    const hb = new StaggeredHeartbeat(sockets, 500, 2, 100); // 2 sockets per tick at 10 sockets
    hb.tick();
    first[5].terminate();
    const late = new FakeSocket(sockets);
    for (let tick = 0; tick < 4; tick++) hb.tick();
    assert.equal(first[5].pings, 0);
    assert.equal(late.pings, 1);
    assert.ok(first.filter((s) => s !== first[5]).every((s) => s.pings === 1));
  });

  it("pings a lone socket once per period, not once per tick", () => {
    const sockets = new Set<Pingable>();
    const lone = new FakeSocket(sockets);
    const hb = new StaggeredHeartbeat(sockets, 3000, 2, 100);
    for (let tick = 0; tick < 90; tick++) hb.tick();
    assert.equal(lone.pings, 3);
  });

  it("skips a socket that sent a frame since its last visit, and pings and cuts it once it falls silent", () => {
    const sockets = new Set<Pingable>();
    const talker = new FakeSocket(sockets, true); // never answers a ping: only its own frames keep it
    const quiet = new FakeSocket(sockets);
    const hb = new StaggeredHeartbeat(sockets, 300, 2, 100); // a pass every 3 ticks
    for (let pass = 0; pass < 5; pass++) {
      talker.heard = true; // a move (or a ping frame) from the client during each period
      for (let tick = 0; tick < 3; tick++) hb.tick();
    }
    assert.equal(talker.pings, 0);
    assert.equal(talker.terminated, false);
    assert.equal(quiet.pings, 5);
    // Silent from now on: pinged on each of the next two passes, unanswered, then cut on the third.
    for (let tick = 0; tick < 9; tick++) hb.tick();
    assert.equal(talker.pings, 2);
    assert.equal(talker.terminated, true);
    assert.equal(quiet.terminated, false);
  });

  it("does nothing, and costs nothing, with no sockets, and pings a socket that joins within one period", () => {
    // A set that counts the steps taken over it: a pass over no sockets takes none.
    let steps = 0;
    class CountingSet extends Set<Pingable> {
      override values() {
        const inner = super.values();
        const next = inner.next.bind(inner);
        inner.next = () => {
          steps++;
          return next();
        };
        return inner;
      }
    }
    const sockets = new CountingSet();
    const hb = new StaggeredHeartbeat(sockets, 300, 2, 100); // a pass every 3 ticks
    for (let tick = 0; tick < 7; tick++) hb.tick(); // two passes and a third begun, over no sockets
    assert.equal(steps, 0);
    const joined = new FakeSocket(sockets);
    // It joined mid-pass: reached by this pass or the next, so pinged within one period.
    for (let tick = 0; tick < 3; tick++) hb.tick();
    assert.ok(joined.pings >= 1, `pinged ${joined.pings} times in a period`);
    assert.equal(joined.terminated, false);
  });
});
