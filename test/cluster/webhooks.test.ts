/**
 * Webhook deliveries of a game whose process is killed go on from the process that takes the game over:
 * every `game.move` arrives, and an event sent twice (a delivery cut off by the kill) keeps its eventId.
 */
import { strict as assert } from "node:assert";
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateSecret } from "../../src/services/events/index";
import { startReceiver, testCert, type Receiver } from "../events/helpers";
import { redisAvailable } from "../support/redis";
import { http } from "../support/server";
import { friendGame, playOne, playUntilAcknowledged, startCluster, type Cluster } from "./support";

describe("End-to-end: webhooks of games moved off a killed process", function () {
  this.timeout(180_000);
  let c: Cluster | undefined;
  let receiver: Receiver | undefined;
  const caFile = join(tmpdir(), `arena-ca-${process.pid}.pem`);

  before(function () {
    if (!redisAvailable()) this.skip();
  });
  after(async () => {
    await c?.stop();
    await receiver?.close();
    rmSync(caFile, { force: true });
  });

  it("delivers every game.move of a game taken over after a SIGKILL, duplicates only with the same eventId", async () => {
    // The delivery of move 3 is cut off by the kill: the receiver holds its first attempt unanswered.
    receiver = await startReceiver((r) => {
      if (r.json?.type === "verification") return { status: 200, body: { challenge: r.json.challenge } };
      const first = r.json?.data?.move_index === 3 && receiver!.events().filter((e) => e.json?.eventId === r.json.eventId).length === 1;
      return first ? { status: 204, delayMs: 60_000 } : { status: 204 };
    });
    writeFileSync(caFile, testCert().cert);
    // The default lease (120 s): a delivery held by the killed process is taken over when it is declared dead.
    c = await startCluster(2, { WEBHOOK_ALLOW_PRIVATE: "true", NODE_EXTRA_CA_CERTS: caFile });
    const [p1, p2] = c.procs as [(typeof c.procs)[0], (typeof c.procs)[0]];
    const g = await friendGame(p1.url, p2.url);
    const sub = await http(p2.url, "POST", "/api/v1/games/events/subscribe", {
      name: "game.move",
      arguments: { game_id: g.id },
      delivery: { mode: "webhook", url: receiver.url, secret: generateSecret() },
    });
    assert.equal(sub.status, 201, sub.text);
    for (let m = 0; m < 4; m++) assert.equal((await playOne(p1.url, g)).status, 200);
    await receiver.waitFor(4, 10_000);
    const owner = c.indexOf((await c.store.games.getGame(g.id))!.owner!);
    const survivor = c.procs[1 - owner];
    await c.procs[owner].stop("SIGKILL");
    await playUntilAcknowledged(survivor.url, g);
    for (let guard = 0; guard < 20; guard++) {
      const out = await playOne(survivor.url, g);
      assert.equal(out.status, 200, JSON.stringify(out));
      if (out.finished) break;
    }
    // Every move index 0..15 arrives; an index delivered twice carries one eventId.
    const byIndex = new Map<number, Set<string>>();
    const until = Date.now() + 60_000;
    while (byIndex.size < 16) {
      assert.ok(Date.now() < until, `only ${byIndex.size} of 16 moves delivered`);
      byIndex.clear();
      for (const e of receiver.events()) {
        if (e.json?.name !== "game.move" || e.json.data?.game_id !== g.id) continue;
        const ids = byIndex.get(e.json.data.move_index) ?? new Set<string>();
        ids.add(e.json.eventId);
        byIndex.set(e.json.data.move_index, ids);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.deepEqual(
      [...byIndex.keys()].sort((a, b) => a - b),
      Array.from({ length: 16 }, (_, i) => i),
    );
    for (const [index, ids] of byIndex) assert.equal(ids.size, 1, `move ${index} was sent under ${ids.size} eventIds`);
    const cut = [...byIndex.get(3)!][0];
    assert.ok(receiver.events().filter((e) => e.json?.eventId === cut).length >= 2, "the cut-off delivery was sent again");
  });
});
