/**
 * PM2's agent (@pm2/io), which Colyseus loads when its matchmaker starts, is kept inert outside PM2
 * (src/wiring/pm2-agent.ts): no timers over every open handle, no handlers of its own for uncaught errors.
 * The server's own policy holds instead: an unhandled rejection is logged and the process goes on. Under PM2
 * (`pm_id` set) the agent loads as Colyseus intends. Each case runs the real entry point as a process, with a
 * probe preloaded that reports, on SIGUSR2, what the agent's shared slot holds and then rejects a promise
 * that nothing handles.
 */
import { strict as assert } from "node:assert";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnServer, type ServerProcess } from "../support/process";
import { eventually } from "../support/server";
import { useTempDir } from "../support/temp-dir";

const PROBE = `
process.on("SIGUSR2", () => {
  const agent = globalThis[Symbol.for("@pm2/io")];
  const kind = agent === undefined ? "none" : typeof agent.init === "function" ? "pm2" : "inert";
  console.error("PROBE " + JSON.stringify({ agent: kind, uncaught: process.listenerCount("uncaughtException") }));
  Promise.reject(new Error("a rejection nothing handles"));
});
`;

interface Probe {
  agent: string;
  uncaught: number;
}

async function probe(server: ServerProcess): Promise<Probe> {
  server.child.kill("SIGUSR2");
  await eventually(() => /PROBE \{.*\}/.test(server.output()), "the probe's report");
  return JSON.parse(/PROBE (\{.*\})/.exec(server.output())![1]) as Probe;
}

describe("End-to-end: PM2's agent outside and under PM2", function () {
  this.timeout(60_000);
  const dir = useTempDir("pm2-agent-");
  const start = (env: Record<string, string>) => {
    const file = join(dir(), "probe.cjs");
    writeFileSync(file, PROBE);
    return spawnServer({ DATABASE: join(dir(), `${env.pm_id ?? "plain"}.sqlite`), ...env }, undefined, ["--require", file, "--import", "tsx", "src/main.ts"]);
  };

  it("keeps the agent inert outside PM2, logs an unhandled rejection and keeps serving", async () => {
    const server = await start({});
    try {
      assert.deepEqual(await probe(server), { agent: "inert", uncaught: 0 });
      await eventually(() => server.output().includes("unhandled promise rejection"), "the rejection in the server's log");
      assert.match(server.output(), /a rejection nothing handles/);
      assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
      assert.equal(server.child.exitCode, null);
    } finally {
      await server.stop();
    }
  });

  it("loads the agent under PM2, with its handlers", async () => {
    const server = await start({ pm_id: "0" });
    try {
      const seen = await probe(server);
      assert.equal(seen.agent, "pm2");
      assert.ok(seen.uncaught >= 1, "the agent's uncaught-exception handler");
    } finally {
      await server.stop();
    }
  });
});
