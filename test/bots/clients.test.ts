/**
 * The clients' starter bots play whole games against a real server, run as a newcomer runs them (the
 * commands of docs/BOTS.md): the TypeScript one always, the Python one when python3 is installed, and the
 * page's own-move-choice examples as saved from the page. The offline engine plays too.
 */
import { strict as assert } from "node:assert";
import { execFile, execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { promisify } from "node:util";
import type { RunningServer } from "../../src/server";
import { Webhook } from "standardwebhooks";
import { verifyWebhook } from "../../clients/typescript/client";
import { playOffline } from "../../clients/typescript/simulate";
import { generateSecret } from "../../src/services/events";
import { bootServer } from "../support/server";

const run = promisify(execFile);

function hasPython(): boolean {
  try {
    execFileSync("python3", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

describe("Integration: starter bots against a real server", function () {
  this.timeout(120_000);
  let server: RunningServer;
  before(async () => (server = await bootServer()));
  after(async () => server?.close());

  const expectFinished = (stdout: string) => {
    assert.match(stdout, /registered BOT-\S+; keep the key: TILE_ARENA_KEY=bk_/);
    assert.match(stdout, /result: (win|loss|draw) \(board full/);
    assert.match(stdout, /replay: http:\/\/127\.0\.0\.1:\d+\/replay\/g_/);
  };

  it("plays a whole game with the TypeScript starter bot", async () => {
    const { stdout } = await run(process.execPath, ["--import", "tsx", "clients/typescript/random-bot.ts"], {
      env: { ...process.env, TILE_ARENA_URL: server.url },
    });
    expectFinished(stdout);
  });

  it("plays a whole game with the Python starter bot (standard library only)", async function () {
    if (!hasPython()) this.skip();
    const { stdout } = await run("python3", ["clients/python/random_bot.py"], { env: { ...process.env, TILE_ARENA_URL: server.url } });
    expectFinished(stdout);
  });

  it("plays whole games with the greedy starter bots", async function () {
    const ts = await run(process.execPath, ["--import", "tsx", "clients/typescript/greedy-bot.ts"], { env: { ...process.env, TILE_ARENA_URL: server.url } });
    expectFinished(ts.stdout);
    if (!hasPython()) return;
    const py = await run("python3", ["clients/python/greedy_bot.py"], { env: { ...process.env, TILE_ARENA_URL: server.url } });
    expectFinished(py.stdout);
  });

  it("runs docs/BOTS.md's own move choice, in TypeScript and in Python, saved where the page says", async function () {
    const page = readFileSync("docs/BOTS.md", "utf8");
    const block = (lang: string) => new RegExp("```" + lang + "\\n([\\s\\S]*?)```").exec(page)![1];
    // Saved beside the clients as the page says, under names of this run's own so nothing in the tree is touched.
    const ts = `clients/typescript/.doc-bot-${process.pid}.ts`;
    const py = `clients/python/.doc_bot_${process.pid}.py`;
    writeFileSync(ts, block("ts"));
    writeFileSync(py, block("python"));
    try {
      const env = { ...process.env, TILE_ARENA_URL: server.url };
      const out = await run(process.execPath, ["--import", "tsx", ts], { env });
      assert.match(out.stdout, /^(win|loss|draw) board full\b/);
      if (!hasPython()) return;
      const pyOut = await run("python3", [py], { env });
      assert.match(pyOut.stdout, /^(win|loss|draw) board full\b/);
    } finally {
      rmSync(ts, { force: true });
      rmSync(py, { force: true });
    }
  });

  it("reuses a bot's key: the second game is played under the same profile", async () => {
    const first = await run(process.execPath, ["--import", "tsx", "clients/typescript/random-bot.ts"], { env: { ...process.env, TILE_ARENA_URL: server.url } });
    const key = /TILE_ARENA_KEY=(bk_\S+)/.exec(first.stdout)![1];
    const second = await run(process.execPath, ["--import", "tsx", "clients/typescript/random-bot.ts"], {
      env: { ...process.env, TILE_ARENA_URL: server.url, TILE_ARENA_KEY: key },
    });
    assert.doesNotMatch(second.stdout, /registered/);
    assert.match(second.stdout, /result: (win|loss|draw)/);
  });

  it("verifies a Standard Webhooks signature with the TypeScript client, and refuses a changed body", async () => {
    const secret = generateSecret();
    const at = new Date();
    const body = JSON.stringify({ type: "game.turn", data: { your_turn: true } });
    const headers = { id: "msg_1", timestamp: String(Math.floor(at.getTime() / 1000)), signature: new Webhook(secret).sign("msg_1", at, body) };
    assert.equal(await verifyWebhook(secret, headers, body), true);
    assert.equal(await verifyWebhook(secret, headers, `${body} `), false);
    assert.equal(await verifyWebhook(generateSecret(), headers, body), false);
  });

  it("simulates whole games offline with the engine the server runs", () => {
    for (let seed = 1; seed <= 5; seed++) assert.ok(["win", "loss", "draw"].includes(playOffline(seed)!));
  });
});
