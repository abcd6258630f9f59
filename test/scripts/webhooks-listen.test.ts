/**
 * `npm run webhooks:listen`: the local receiver is started as a process, a real server is given the
 * settings it prints, and the events of a game arrive there verified; a forged delivery is refused.
 */
import { strict as assert } from "node:assert";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { Webhook } from "standardwebhooks";
import { generateSecret } from "../../src/services/events";
import type { RunningServer } from "../../src/server";
import { playToEnd } from "../agents/play";
import { bootServer, eventually, freePort, http } from "../support/server";

describe("End-to-end: the local webhook receiver", function () {
  this.timeout(60_000);
  let child: ChildProcess;
  let server: RunningServer;
  let dir: string;
  const lines: Array<Record<string, unknown>> = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "webhooks-listen-"));
    const port = await freePort();
    child = spawn(process.execPath, ["--import", "tsx", "scripts/webhooks-listen.ts", "--port", String(port), "--dir", dir], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    createInterface({ input: child.stdout! }).on("line", (l) => lines.push(JSON.parse(l) as Record<string, unknown>));
    await eventually(() => lines.length > 0, "the receiver's settings line", 20_000);
  });
  after(async () => {
    child?.kill("SIGTERM");
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("prints the settings to use, then each verified event of a game", async () => {
    const settings = lines[0] as { listening: string; secret: string; server: string };
    assert.match(settings.listening, /^https:\/\/localhost:\d+\/hooks\/arena$/);
    assert.match(settings.server, /^WEBHOOK_ALLOW_PRIVATE=true NODE_EXTRA_CA_CERTS=\S+cert\.pem npm start$/);
    const certFile = /NODE_EXTRA_CA_CERTS=(\S+)/.exec(settings.server)![1];
    // The printed settings, applied in-process: loopback callbacks allowed, the printed certificate trusted.
    server = await bootServer({ webhookAllowPrivate: true }, { webhookCa: readFileSync(certFile) });
    const game = await http(server.url, "POST", "/api/v1/games", { opponent: "house", level: "easy" });
    const sub = await http(server.url, "POST", "/api/v1/games/events/subscribe", {
      name: "game.finished",
      arguments: { game_id: game.json.game.id },
      delivery: { mode: "webhook", url: settings.listening, secret: settings.secret },
    });
    assert.equal(sub.status, 201, sub.text);
    assert.ok(lines.some((l) => l.verification === "answered"));
    await playToEnd(server.url, game.json.game.id, game.json.playerToken);
    await eventually(() => lines.some((l) => l.name === "game.finished"), "the verified game.finished line", 15_000);
    const finished = lines.find((l) => l.name === "game.finished") as { data: { game_id: string } };
    assert.equal(finished.data.game_id, game.json.game.id);
  });

  it("refuses a delivery signed with another secret and prints why", async () => {
    const settings = lines[0] as { listening: string };
    const raw = JSON.stringify({ eventId: "evt_forged", name: "game.finished", data: {} });
    const headers = { "webhook-id": "evt_forged", "webhook-timestamp": String(Math.floor(Date.now() / 1000)) };
    const signature = new Webhook(generateSecret()).sign("evt_forged", new Date(), raw);
    const { request } = await import("node:https");
    const status = await new Promise<number>((ok, fail) => {
      const req = request(
        settings.listening,
        { method: "POST", rejectUnauthorized: false, headers: { ...headers, "webhook-signature": signature, "content-type": "application/json" } },
        (res) => {
          res.resume();
          ok(res.statusCode ?? 0);
        },
      );
      req.on("error", fail);
      req.end(raw);
    });
    assert.equal(status, 401);
    await eventually(() => lines.some((l) => l.id === "evt_forged" && typeof l.refused === "string"), "the refusal line");
  });
});
