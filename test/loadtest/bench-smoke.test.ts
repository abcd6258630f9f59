/**
 * Each benchmark runs end to end with tiny parameters: it exits 0 and prints its JSON line with positive
 * figures. No timing is asserted (the machine is shared and noisy); only that the tools work.
 */
import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(__dirname, "../..");

function run(script: string, argv: string[], timeoutMs: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "loadtest", script), ...argv], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${script} did not finish within ${timeoutMs} ms\n${stdout.slice(-2000)}\n${stderr.slice(-2000)}`));
    }, timeoutMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function jsonLine(stdout: string, bench: string): any {
  const line = stdout
    .split("\n")
    .reverse()
    .find((l) => l.startsWith(`{"bench":"${bench}"`));
  assert.ok(line, `no JSON line for ${bench} in:\n${stdout.slice(-2000)}`);
  return JSON.parse(line);
}

describe("Smoke: benchmarks", function () {
  this.timeout(90_000);

  it("room-bench plays games beside the bare room, a stock Colyseus game, the durable floor and boardgame.io and reports every figure", async function () {
    // Every phase, with three servers: on a loaded 2-core machine this takes a few minutes; the bound only catches a hang.
    this.timeout(200_000);
    const r = await run(
      "room-bench.ts",
      [
        "--games",
        "2",
        "--seconds",
        "1",
        "--rounds",
        "1",
        "--mem-games",
        "4",
        "--warmup",
        "0.5",
        // The capacity phase's light generator: seats moving every 200 ms, so that games end and are replaced within the run.
        "--capacity-max",
        "10",
        "--capacity-seconds",
        "2",
        "--capacity-seat-ms",
        "200",
        "--capacity-ramp-seconds",
        "1",
        "--idle-games",
        "10",
        "--idle-seconds",
        "1",
        "--idle-settle-seconds",
        "1",
      ],
      180_000,
    );
    assert.equal(r.code, 0, r.stderr);
    const out = jsonLine(r.stdout, "room");
    assert.ok(out.bare.msgsPerSec > 0 && out.bare.cpuUsPerMsg > 0);
    assert.ok(out.barePatch.msgsPerSec > 0 && out.barePatch.cpuUsPerMsg > 0, "the bare room with a patch per message was measured");
    assert.ok(out.game.movesPerSec > 0 && out.game.cpuUsPerMove > 0 && out.game.setupCpuUsPerGame > 0);
    assert.ok(out.game.bareSetupCpuUs > 0 && out.game.setupRatioToBare > 0, "the bare room's set-up was measured");
    // The state room plays whole games, and starts new ones in place: a throw there would leave messages unacknowledged.
    assert.ok(out.state.msgsPerSec > 0 && out.state.cpuUsPerMsg > 0 && out.steadyCpuRatioToState !== undefined, "the state room was measured");
    assert.ok(Number.isFinite(out.memory.stateRoomHeapKB), "the state room's memory was measured");
    assert.ok(Number.isFinite(out.memory.startToBare.heap) && Number.isFinite(out.memory.midToBare.heap), "memory at the start and mid-game");
    assert.ok(out.bgio.movesPerSec > 0 && out.bgio.cpuUsPerMove > 0);
    // The engine's floor: stock Colyseus games played and replaced in a server process of their own, priced by its CPU.
    assert.ok(out.stock.movesPerSec > 0 && out.stock.cpuUsPerMove > 0 && out.stock.gamesFinished > 0, JSON.stringify(out.stock));
    assert.ok(out.cpuRatioGameToStock > 0 && out.gameAllIn.cpuUsPerGame > 0);
    // The durable floor: the same stock game storing each move (SQLite, FULL, the writer thread) before its ack,
    // in a process of its own; every move it was sent was stored and acknowledged.
    assert.ok(out.stockDurable.movesPerSec > 0 && out.stockDurable.cpuUsPerMove > 0 && out.stockDurable.gamesFinished > 0, JSON.stringify(out.stockDurable));
    assert.equal(out.stockDurable.refused, 0, "the durable floor refused a legal move");
    assert.ok(out.durability.gameToFloor > 0 && out.durability.gameToStock > 0 && out.durability.floorToStock > 0, JSON.stringify(out.durability));
    assert.ok(out.actorAlone.moves > 0 && out.actorAlone.cpuUsPerMove > 0, "the game actor alone was measured");
    assert.ok(out.ratioGameToBare > 0 && out.ratioGameToBgio > 0);
    assert.deepEqual(
      out.commit.map((c: any) => c.synchronous),
      ["FULL", "NORMAL"],
    );
    // The light generator played from its hand messages over raw sockets, replaced finished games, and
    // every move it chose from `legal` was accepted.
    assert.equal(out.capacity.steps.length, 1);
    assert.ok(out.capacity.steps[0].movesPerSec > 0, JSON.stringify(out.capacity));
    assert.ok(out.capacity.total.moves > 0 && out.capacity.total.replaced > 0, JSON.stringify(out.capacity.total));
    assert.equal(out.capacity.total.refused, 0, "the generator's legal move was refused");
    assert.equal(out.capacity.total.errors, 0, "a generator's set-up failed");
    assert.equal(out.capacity.total.dropped, 0, "the server closed a seat's socket mid-game");
    assert.ok(out.capacity.steps[0].clientCpuPct > 0 && out.capacity.steps[0].serverUsPerGameSecond > 0);
    assert.equal(out.targets.length, 13, "every target's figure is printed");
    assert.ok(
      out.targets.some((t: any) => /durable floor/.test(t.figure) && t.value === out.durability.gameToFloor && t.target === "<= 1.3"),
      "the durable floor's target",
    );
    assert.equal(out.idle.games, 10);
    assert.equal(out.idle.waiting, 5, "half the idle games wait for their second seat");
    assert.ok(out.idle.rssMB > 0 && out.targets.some((t: any) => /RSS/.test(t.figure) && t.value === out.idle.rssMB && t.target === "< 1,536"));
    assert.equal(out.game.refused, 0, "a legal move was refused");
    assert.match(r.stdout, /acked\/s/);
  });

  it("room-bench's capacity phase plays the durable floor's stock game at the same pace when asked (--capacity-of floor)", async function () {
    this.timeout(120_000);
    const r = await run(
      "room-bench.ts",
      [
        ...["--only", "bare", "--seconds", "1", "--rounds", "1", "--warmup", "0", "--mem-games", "0", "--idle-games", "0"],
        ...["--capacity-of", "floor", "--capacity-from", "10", "--capacity-max", "10", "--capacity-seconds", "2"],
        ...["--capacity-seat-ms", "200", "--capacity-ramp-seconds", "1"],
      ],
      100_000,
    );
    assert.equal(r.code, 0, r.stderr);
    const out = jsonLine(r.stdout, "room");
    assert.equal(out.capacity.of, "floor");
    // Every stock move the generator sent was stored and acknowledged, and finished games were replaced.
    assert.ok(out.capacity.total.moves > 0 && out.capacity.total.replaced > 0, JSON.stringify(out.capacity.total));
    assert.equal(out.capacity.total.refused + out.capacity.total.errors + out.capacity.total.dropped, 0, JSON.stringify(out.capacity.total));
    // Priced by the floor's process: its CPU, not this server's (whose loop and store are not read there).
    assert.ok(out.capacity.steps[0].serverUsPerGameSecond > 0 && out.capacity.steps[0].server === null && out.capacity.steps[0].store === null);
    // The floor's capacity is not the game's: the capacity target reads "-".
    assert.ok(out.targets.some((t: any) => /^capacity:/.test(t.figure) && t.value === "-"));
  });

  it("http-bench measures sync beside a bare Express route and the long-poll wake", async () => {
    const r = await run(
      "http-bench.ts",
      ["--seconds", "1", "--rounds", "1", "--games", "2", "--samples", "10", "--warmup", "0.5", "--concurrency", "4"],
      40_000,
    );
    assert.equal(r.code, 0, r.stderr);
    const out = jsonLine(r.stdout, "http");
    for (const k of ["bare", "healthz", "sync"]) assert.ok(out[k].reqPerSec > 0 && out[k].errors === 0, `${k}: ${JSON.stringify(out[k])}`);
    assert.ok(out.ratioSyncToBare > 0);
    assert.ok(out.wake.samples > 0 && out.wake.wakeP50Ms > 0);
    assert.equal(out.wake.missed, 0, "a long-poll waiter was not woken by a move");
  });

  it("hardening-bench's floods probe /healthz alone, beside stalled exports and beside entries readers", async () => {
    // 12 exports from 4 addresses, each of 16 MB (more than a stalled reader's socket takes): 2 per address at most are admitted.
    const r = await run(
      "hardening-bench.ts",
      ["--only", "floods", "--flood-entries", "4000", "--flood-entry-bytes", "4000", "--flood-clients", "12", "--flood-seconds", "1"],
      80_000,
    );
    assert.equal(r.code, 0, r.stderr);
    const { floods } = jsonLine(r.stdout, "hardening");
    for (const w of [floods.baseline, floods.exports, floods.entriesFlood]) {
      assert.equal(w.healthz.requests, 20, JSON.stringify(w.healthz));
      assert.ok(w.healthz.p50Ms > 0 && w.healthz.p99Ms >= w.healthz.p50Ms, JSON.stringify(w.healthz));
    }
    const answered = Object.values(floods.exports.statuses as Record<string, number>).reduce((a, b) => a + b, 0);
    assert.equal(answered, 12, JSON.stringify(floods.exports.statuses));
    assert.ok(floods.exports.statuses["200"] <= 8 && floods.exports.statuses["429"] >= 4, JSON.stringify(floods.exports.statuses));
    assert.ok(floods.entriesFlood.reads.statuses["200"] > 0 && floods.entriesFlood.reads.mb > 0, JSON.stringify(floods.entriesFlood.reads));
    assert.equal(typeof floods.exports.met, "boolean");
    assert.match(r.stdout, /target \/healthz p99 < 100 ms/);
  });

  it("house-bench plays house games with the search inline and on a worker thread and reports both", async () => {
    const r = await run("house-bench.ts", ["--games", "1", "--seconds", "2", "--level", "easy"], 40_000);
    assert.equal(r.code, 0, r.stderr);
    const out = jsonLine(r.stdout, "house");
    for (const mode of [out.inline, out.pooled]) {
      assert.ok(mode.houseMoves > 0 && mode.healthzP50Ms > 0, JSON.stringify(mode));
      assert.equal(mode.errors, 0);
    }
    assert.equal(out.inline.aiThreads, 0);
    assert.equal(out.pooled.aiThreads, 1);
  });

  it("the load test plays for its time and stops", async () => {
    const r = await run("loadtest.ts", ["--clients", "4", "--seconds", "3"], 30_000);
    assert.equal(r.code, 0, r.stderr);
    const out = jsonLine(r.stdout, "loadtest");
    assert.ok(out.movesAcked > 0 && out.movesPerSec > 0 && out.gamesStarted > 0);
    assert.equal(out.errors, 0, JSON.stringify(out.firstErrors));
  });

  it("the paced load test offers its pace, not what the machine can do", async () => {
    // 2 pairs, each seat moving every 400 ms: 10 moves a second offered. Unpaced, the same clients play
    // hundreds. The band is wide (game set-up and the first half period of each game take their share).
    const r = await run("loadtest.ts", ["--clients", "4", "--seconds", "8", "--move-every-ms", "400", "--json"], 40_000);
    assert.equal(r.code, 0, r.stderr);
    const out = jsonLine(r.stdout, "loadtest");
    assert.equal(out.pacedMovesPerSec, 10);
    assert.ok(out.movesPerSec >= 4 && out.movesPerSec <= 14, `moves/s ${out.movesPerSec} for 10 offered`);
    assert.equal(out.errors, 0, JSON.stringify(out.firstErrors));
  });

  it("swiss-bench pairs rounds, then creates two real rounds with a room open for each game", async () => {
    const r = await run("swiss-bench.ts", ["--players", "40", "--rounds", "3", "--create-players", "20"], 60_000);
    assert.equal(r.code, 0, r.stderr);
    const out = jsonLine(r.stdout, "swiss");
    assert.equal(out.perRound.length, 3);
    assert.deepEqual(
      out.created.rounds.map((x: any) => [x.round, x.games, x.rooms]),
      [
        [1, 10, 10],
        [2, 10, 10],
      ],
    );
    for (const x of out.created.rounds) assert.ok(x.serverMs > 0 && x.gamesMs > 0, JSON.stringify(x));
  });

  it("the load test's soak mode samples the server in its own process and reports the drift", async () => {
    const r = await run("loadtest.ts", ["--soak", "--clients", "2", "--seconds", "8", "--sample-seconds", "2", "--json"], 40_000);
    assert.equal(r.code, 0, r.stderr);
    const out = jsonLine(r.stdout, "loadtest");
    assert.equal(out.errors, 0, JSON.stringify(out.firstErrors));
    assert.ok(out.soak.samples.length >= 4, JSON.stringify(out.soak));
    for (const s of out.soak.samples) assert.ok(s.rssMb > 0 && s.heapUsedMb > 0 && s.cpuPct >= 0, JSON.stringify(s));
    assert.equal(typeof out.soak.drift.rssPct, "number");
    assert.ok(out.soak.drift.endT > out.soak.drift.baselineT);
    assert.ok(out.soak.forcedGcs.length >= 1 && out.soak.forcedGcs.every((g: any) => g.heapUsedMb > 0), JSON.stringify(out.soak.forcedGcs));
  });
});
