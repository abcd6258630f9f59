/**
 * Who may start on a store that lists other processes (assertCanJoin), on a real SQLite store: a record of
 * this machine whose pid is gone is a crash left behind and is ignored at the first look, while a record that
 * may be live is looked at twice, a dead-after time apart. The looks are counted, so "at once" is checked
 * without timing anything.
 */
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { hostname } from "node:os";
import { assertCanJoin, ClusterConflictError } from "../../src/services/cluster/registry";
import type { ProcessRecord, Store } from "../../src/store/port";
import { SqliteStore } from "../../src/store/sqlite";

/** The pid of a process that has ended (a child that ran and exited). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "0"]);
  assert.equal(child.status, 0);
  return child.pid;
}

function record(id: string, pid: number, heartbeatAt = new Date().toISOString()): ProcessRecord {
  return { id, sharedPresence: false, pid, host: hostname(), startedAt: heartbeatAt, heartbeatAt };
}

/** The store, with the number of times the process list was read. */
function counted(store: Store): { store: Store; looks: () => number } {
  let looks = 0;
  const listProcesses = store.processes.listProcesses.bind(store.processes);
  store.processes.listProcesses = () => {
    looks++;
    return listProcesses();
  };
  return { store, looks: () => looks };
}

describe("Unit: joining a store other processes are registered on", () => {
  let store: SqliteStore;
  beforeEach(async () => {
    store = new SqliteStore({ path: ":memory:" });
    await store.init();
  });
  afterEach(() => store.close());

  it("starts at once, after one look, next to the fresh record of a process of this machine that was killed", async () => {
    await store.processes.registerProcess(record("killed", deadPid()));
    const { looks } = counted(store);
    // The record stays fresh for the whole dead-after time; a second look would come only after it.
    await assertCanJoin(store, false, { heartbeatMs: 300, deadAfterMs: 5_000 });
    assert.equal(looks(), 1);
  });

  it("looks again a dead-after time later at a record that may be live, and starts when its heartbeat did not move", async () => {
    // This test's own process: it runs, but renews no heartbeat in the store.
    await store.processes.registerProcess(record("silent", process.pid));
    const { looks } = counted(store);
    await assertCanJoin(store, false, { heartbeatMs: 10, deadAfterMs: 50 });
    assert.equal(looks(), 2);
  });

  it("refuses to start, saying why, next to a process whose heartbeat moves", async () => {
    await store.processes.registerProcess(record("live", process.pid));
    const { looks } = counted(store);
    const beat = setInterval(() => void store.processes.touchProcess("live", new Date().toISOString()), 10);
    try {
      await assert.rejects(assertCanJoin(store, false, { heartbeatMs: 10, deadAfterMs: 100 }), (e: Error) => {
        assert.ok(e instanceof ClusterConflictError);
        assert.match(e.message, /another live process shares this store: live \(pid \d+ on /);
        return true;
      });
    } finally {
      clearInterval(beat);
    }
    assert.equal(looks(), 2);
  });
});
