/**
 * The arena benchmark runs end to end with tiny parameters: it exits 0 and prints its JSON line with games
 * played and counted, every wait and the CPU per game measured, and no client error. No timing is asserted.
 */
import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(__dirname, "../..");

function run(argv: string[], timeoutMs: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "loadtest", "arena-bench.ts"), ...argv], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`arena-bench did not finish within ${timeoutMs} ms\n${stdout.slice(-2000)}\n${stderr.slice(-2000)}`));
    }, timeoutMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe("Smoke: arena benchmark", function () {
  this.timeout(90_000);

  it("plays a short arena of six bots and reports waits and CPU per game", async () => {
    const r = await run(["--entrants", "6", "--seconds", "5", "--move-ms", "0"], 80_000);
    assert.equal(r.code, 0, r.stderr);
    const line = r.stdout
      .split("\n")
      .reverse()
      .find((l) => l.startsWith('{"bench":"arena"'));
    assert.ok(line, `no JSON line in:\n${r.stdout.slice(-2000)}`);
    const out = JSON.parse(line);
    assert.equal(out.entrants, 6);
    assert.ok(out.games >= 3, `games: ${out.games}`);
    // Every game the server paired was played to its end by both seats (the last ones included).
    assert.equal(out.clientSeatGames, 2 * out.games);
    assert.equal(out.clientErrors, 0, out.errorSamples.join("\n"));
    assert.ok(Number.isFinite(out.waitMaxMs) && out.waitMaxMs >= out.waitP99Ms && out.waitP99Ms >= 0);
    assert.ok(Number.isFinite(out.eligibleWaitMaxMs) && out.eligibleWaitMaxMs <= out.waitMaxMs);
    assert.ok(out.cpuMsPerGame > 0 && out.docKB > 0);
  });
});
