import { strict as assert } from "node:assert";
import { join } from "node:path";
import { Agent, get } from "node:http";
import { pickMove, seatedFriendGame } from "../support/play";
import { spawnServer, type ServerProcess } from "../support/process";
import { bearer, http } from "../support/server";
import { useTempDir } from "../support/temp-dir";

const WAITERS = 1500;
/** Spread over this many client addresses (X-Forwarded-For, one proxy trusted), each well within its limits. */
const ADDRESSES = 150;

/** The server's longest event-loop delay since the last scrape, in ms (`arena_nodejs_eventloop_lag_max_seconds`). */
async function loopDelayMaxMs(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith("arena_nodejs_eventloop_lag_max_seconds "));
  assert.ok(line, "the event-loop delay is exported");
  return Number(line.split(" ")[1]) * 1000;
}

describe("End-to-end: one move waking 1,500 parked long-polls leaves the process responsive", function () {
  this.timeout(180_000);
  const dir = useTempDir("arena-wake-");
  let server: ServerProcess;
  before(async () => {
    server = await spawnServer({ DATABASE: join(dir(), "wake.sqlite"), TRUST_PROXY: "1", LOG_LEVEL: "error" });
  });
  after(async () => server?.stop());

  it("answers every waiter and keeps /healthz prompt while they are woken", async () => {
    const { id, tokens } = await seatedFriendGame(server.url, { create: { public: true } });

    // The waiters' own connections (node:http), apart from the probes' (fetch).
    const pollers = new Agent({ keepAlive: false, maxSockets: Infinity });
    const sent: Promise<void>[] = [];
    const answers = Array.from(
      { length: WAITERS },
      (_, i) =>
        new Promise<{ status: number; body: { moveCount: number } }>((resolve, reject) => {
          const url = `${server.url}/api/v1/games/${id}/sync?since=0&timeout=20`;
          const req = get(url, { agent: pollers, headers: { "x-forwarded-for": `10.1.${i % ADDRESSES}.7` } }, (res) => {
            let text = "";
            res.on("data", (d: Buffer) => (text += d.toString()));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as { moveCount: number } }));
          }).on("error", reject);
          sent.push(new Promise((r) => req.once("finish", r)));
        }),
    );
    // Parked: every request written, then one more asked after them. On a loaded machine 1,500 requests take
    // seconds to be read and parked, and a probe meanwhile waits behind them: that is not the wake-up, so the
    // probes start once the server has answered a request sent after all of them, and only probes answered
    // after the move was sent are judged.
    await Promise.all(sent);
    await (await fetch(`${server.url}/healthz`)).arrayBuffer();
    await new Promise((r) => setTimeout(r, 500));

    // Two probes in turn: /healthz, and a read that touches neither the disk nor the game (/api/v1/rules).
    // /healthz writes and syncs a probe row once a second, so on a disk shared with other work it also measures
    // the disk; the rules read measures only whether the process gets to it.
    const probes: Array<{ path: string; start: number; ms: number }> = [];
    let probing = true;
    const prober = (async () => {
      for (let i = 0; probing; i++) {
        const path = i % 2 ? "/api/v1/rules" : "/healthz";
        const t = performance.now();
        const h = await fetch(`${server.url}${path}`);
        await h.arrayBuffer();
        probes.push({ path, start: t, ms: performance.now() - t });
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    await new Promise((r) => setTimeout(r, 200));
    const turn = (await http(server.url, "GET", `/api/v1/games/${id}`)).json.turn as string;
    const view = (await http(server.url, "GET", `/api/v1/games/${id}/sync`, undefined, bearer(tokens[turn]))).json;
    // The process's own measure of its event loop: the longest delay since the previous scrape (prom-client
    // resets it on each), so this scrape starts the window and the one after the wake-up reads it.
    await loopDelayMaxMs(server.url);
    const moveAt = performance.now();
    const moved = await http(server.url, "POST", `/api/v1/games/${id}/moves`, pickMove(view.state), bearer(tokens[turn]));
    const moveMs = performance.now() - moveAt;
    assert.equal(moved.status, 200, moved.text);
    const woken = await Promise.all(answers);
    const wokenMs = performance.now() - moveAt;
    const loopMs = await loopDelayMaxMs(server.url);
    await new Promise((r) => setTimeout(r, 200));
    probing = false;
    await prober;
    pollers.destroy();

    assert.equal(woken.filter((w) => w.status === 200 && w.body.moveCount === 1).length, WAITERS);
    // Generous bounds (a functional check, not a benchmark). Woken in one turn of the event loop, as before,
    // the wake-up held the loop for its whole length: 1.6 s, and every probe waited for it. A probe already
    // under way when the move was sent counts too (it may be the one the wake-up held).
    const judged = probes.filter((p) => p.start + p.ms >= moveAt);
    const worst = (path: string) => Math.max(...judged.filter((p) => p.path === path).map((p) => p.ms));
    const detail =
      `move ${Math.round(moveMs)} ms, all answered ${Math.round(wokenMs)} ms after it, longest event-loop delay ${Math.round(loopMs)} ms, ` +
      `slowest /healthz ${Math.round(worst("/healthz"))} ms and /api/v1/rules ${Math.round(worst("/api/v1/rules"))} ms of ${judged.length} probes`;
    assert.ok(judged.length >= 2, detail);
    assert.ok(loopMs < 500, `the server's event loop was held too long: ${detail}`);
    assert.ok(worst("/api/v1/rules") < 500, `a read waited too long: ${detail}`);
    assert.ok(worst("/healthz") < 2000, `/healthz waited too long: ${detail}`);
    assert.ok(moveMs < 500, `the move that woke them was slow: ${detail}`);
  });
});
