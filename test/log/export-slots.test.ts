/**
 * Open exports are bounded per client address (429) and in all (503), each refusal a problem document with
 * Retry-After; a slot is given back when its export ends, and an export whose reader stopped reading is cut
 * after the stall time, so it does not keep its slot. Clients are told apart by their loopback address.
 */
import assert from "node:assert/strict";
import type { RunningServer } from "../../src/server";
import { fillLog } from "../support/log-fill";
import { bootServer } from "../support/server";
import { stalledGet, type HeldAnswer } from "../support/slow-reader";

const EXPORT = "/api/v1/exports/games";

describe("Open exports: bounds per address and in all, and the stall cut", function () {
  this.timeout(60_000);
  let server: RunningServer;
  const held: HeldAnswer[] = [];
  before(async function () {
    server = await bootServer({ exports: { perAddress: 2, inAll: 3, stallMs: 1500 } });
    // About 16 MB of entries: more than a stalled reader's socket buffers take, so its export has to wait for it.
    await fillLog(server.store.log, 8000, 2000);
  });
  after(async function () {
    held.forEach((h) => h.close());
    await server?.close();
  });

  const open = async (address: string) => {
    const answer = await stalledGet(server.url, EXPORT, address);
    held.push(answer);
    return answer;
  };

  it("refuses an address's third export with 429 and the fourth in all with 503, and admits one once another ends", async function () {
    const a1 = await open("127.0.0.2");
    const a2 = await open("127.0.0.2");
    assert.deepEqual([a1.status, a2.status], [200, 200]);
    const a3 = await open("127.0.0.2");
    assert.equal(a3.status, 429);
    assert.equal(a3.problem?.code, "rate_limited");
    assert.match(String(a3.headers["content-type"]), /application\/problem\+json/);
    assert.ok(Number(a3.headers["retry-after"]) > 0);

    const b1 = await open("127.0.0.3");
    assert.equal(b1.status, 200, "another address has its own two");
    const c1 = await open("127.0.0.4");
    assert.equal(c1.status, 503, "three are running in all");
    assert.equal(c1.problem?.code, "unavailable");
    assert.match(String(c1.headers["content-type"]), /application\/problem\+json/);
    assert.ok(Number(c1.headers["retry-after"]) > 0);

    // One ends (its reader goes away): its slot is given back once the server has seen the close, and the
    // next export is admitted (refused meanwhile: a few tries).
    a1.close();
    await a1.closed;
    let admitted: HeldAnswer | undefined;
    for (let i = 0; i < 50 && admitted?.status !== 200; i++) {
      admitted = await open("127.0.0.4");
      if (admitted.status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(admitted?.status, 200);
  });

  it("cuts an export whose reader stopped reading, and gives its slot back", async function () {
    // The exports held since the test above stalled (their readers still connected, reading nothing): the
    // server is at its bound in all now, and admits another only once it has cut them.
    const refused = await open("127.0.0.2");
    assert.equal(refused.problem?.code, "unavailable");
    let admitted: HeldAnswer | undefined;
    for (let i = 0; i < 100 && admitted?.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 200));
      admitted = await open("127.0.0.2");
    }
    assert.equal(admitted?.status, 200, "admitted once the stalled exports were cut");
  });
});
