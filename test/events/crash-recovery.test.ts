import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { generateSecret } from "../../src/services/events";
import { pickMove } from "../support/play";
import { spawnServer } from "../support/process";
import { bearer, http } from "../support/server";
import { echo, startReceiver, testCert, type Receiver } from "./helpers";

describe("End-to-end: a webhook delivery cut off by a crash is sent after the restart", function () {
  this.timeout(90_000);
  let dir: string;
  let receiver: Receiver;
  let env: Record<string, string>;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "arena-outbox-"));
    const ca = join(dir, "ca.pem");
    writeFileSync(ca, testCert().cert);
    env = { DATABASE: join(dir, "arena.sqlite"), WEBHOOK_ALLOW_PRIVATE: "true", NODE_EXTRA_CA_CERTS: ca };
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("re-sends the move event with the same eventId and body, freshly signed, once the server is back", async () => {
    const first = await spawnServer(env);
    const a = await http(first.url, "POST", "/api/v1/games", { opponent: "friend" });
    const b = await http(first.url, "POST", "/api/v1/games/join", { code: a.json.code });
    const id = a.json.game.id;
    const secret = generateSecret();
    const sub = await http(first.url, "POST", "/api/v1/games/events/subscribe", {
      name: "game.move",
      arguments: { game_id: id },
      delivery: { mode: "webhook", url: receiver.url, secret },
    });
    assert.equal(sub.status, 201, sub.text);

    // The receiver takes the first delivery and never answers; the server dies while it waits.
    receiver.respond = (r) => (r.json?.type === "verification" ? echo(r, 0) : { status: 204, delayMs: 60_000 });
    const tokens: Record<string, string> = { [a.json.seat]: a.json.playerToken, [b.json.seat]: b.json.playerToken };
    const turn = (await http(first.url, "GET", `/api/v1/games/${id}`)).json.turn as string;
    const view = (await http(first.url, "GET", `/api/v1/games/${id}/sync`, undefined, bearer(tokens[turn]))).json;
    const moved = await http(first.url, "POST", `/api/v1/games/${id}/moves`, pickMove(view.state), bearer(tokens[turn]));
    assert.equal(moved.status, 200, moved.text);
    await receiver.waitFor(1);
    await first.stop("SIGKILL");
    const cut = receiver.events()[0];

    receiver.respond = echo;
    const second = await spawnServer(env, first.port);
    try {
      await receiver.waitFor(2, 10_000);
      const again = receiver.events()[1];
      assert.equal(again.headers["webhook-id"], cut.headers["webhook-id"]);
      assert.equal(again.raw, cut.raw);
      assert.equal(again.json.data.move_index, 0);
      assert.equal(again.json.data.game_id, id);
      const verified = new Webhook(secret).verify(again.raw, {
        "webhook-id": again.headers["webhook-id"],
        "webhook-timestamp": again.headers["webhook-timestamp"],
        "webhook-signature": again.headers["webhook-signature"],
      });
      assert.equal((verified as { eventId: string }).eventId, again.headers["webhook-id"]);
      // Delivered: nothing more arrives, even after another restart.
      await second.stop("SIGTERM");
      const third = await spawnServer(env, first.port);
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(receiver.events().length, 2);
      await third.stop();
    } finally {
      await second.stop();
    }
  });
});
