/**
 * The webhook benchmark runs end to end with tiny parameters: it exits 0 and prints its JSON line with
 * positive figures and no lost, duplicated or badly signed delivery. No timing is asserted.
 */
import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(__dirname, "../..");

function run(argv: string[], timeoutMs: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "loadtest", "webhook-bench.ts"), ...argv], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`webhook-bench did not finish within ${timeoutMs} ms\n${stdout.slice(-2000)}\n${stderr.slice(-2000)}`));
    }, timeoutMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe("Smoke: webhook benchmark", function () {
  this.timeout(45_000);

  it("plays games, receives every signed delivery once and reports positive figures", async () => {
    const r = await run(["--subscribers", "5", "--games", "2", "--seconds", "2", "--warmup", "0.5", "--drain", "15"], 40_000);
    assert.equal(r.code, 0, r.stderr);
    const line = r.stdout
      .split("\n")
      .reverse()
      .find((l) => l.startsWith('{"bench":"webhooks"'));
    assert.ok(line, `no JSON line in:\n${r.stdout.slice(-2000)}`);
    const out = JSON.parse(line);
    assert.ok(out.movesAcked > 0 && out.movesPerSec > 0, JSON.stringify(out));
    assert.ok(out.deliveriesPerSec > 0 && out.received > 0 && out.expected > 0, JSON.stringify(out));
    assert.ok(out.latencyP50Ms > 0 && out.latencyP99Ms > 0, JSON.stringify(out));
    assert.equal(out.lost, 0, "deliveries were lost");
    assert.equal(out.duplicates, 0, "an eventId arrived twice");
    assert.equal(out.repeatedMoves, 0, "a subscriber received one move twice");
    assert.equal(out.badSignatures, 0);
    assert.equal(out.errors, 0, r.stdout.slice(-1000));
    assert.match(r.stdout, /latency ack -> delivery/);
  });
});
