/**
 * The process registry: every server process records itself in the shared store and renews a heartbeat.
 * It is how processes sharing a store learn about each other even without Redis (a second process
 * without shared presence refuses to start), and how a dead process is told from a live one.
 */
import { hostname } from "node:os";
import type { Logger } from "../../shared/logger";
import type { ProcessRecord, Store } from "../../store/port";

export interface ClusterTiming {
  /** How often a process renews its heartbeat and looks at its peers. */
  heartbeatMs: number;
  /** A process whose heartbeat is older than this is dead: its rooms are taken over. */
  deadAfterMs: number;
}

export interface Self {
  id: string;
  sharedPresence: boolean;
  publicAddress?: string;
}

/** Raised at start when this process must not share the store with the live processes already on it. */
export class ClusterConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ClusterConflictError";
  }
}

const describe = (p: ProcessRecord) => `${p.id} (pid ${p.pid} on ${p.host}${p.publicAddress ? `, ${p.publicAddress}` : ""}, heartbeat ${p.heartbeatAt})`;

/** Whether a process of this machine with that pid still runs (a record left by a crash of this host). */
function runsHere(p: ProcessRecord): boolean {
  if (p.host !== hostname()) return true;
  try {
    process.kill(p.pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Refuses to start next to live processes this one cannot cooperate with: without shared presence each
 * would believe it is alone and resume every unfinished game (two rooms per game, last writer wins).
 * A record with a fresh heartbeat may be a process that just crashed (a restart after kill -9): a record of
 * this machine whose pid is gone is ignored, and any other must renew its heartbeat within the dead-after
 * time to count as live.
 */
export async function assertCanJoin(store: Pick<Store, "processes">, sharedPresence: boolean, timing: ClusterTiming): Promise<void> {
  const conflicting = async () =>
    (await store.processes.listProcesses()).filter(
      (p) => Date.now() - Date.parse(p.heartbeatAt) < timing.deadAfterMs && runsHere(p) && (!sharedPresence || !p.sharedPresence),
    );
  const first = await conflicting();
  if (first.length === 0) return;
  await new Promise((r) => setTimeout(r, timing.deadAfterMs));
  const seen = new Map(first.map((p) => [p.id, p.heartbeatAt]));
  const live = (await conflicting()).filter((p) => seen.has(p.id) && seen.get(p.id) !== p.heartbeatAt);
  if (live.length === 0) return;
  if (!sharedPresence) {
    throw new ClusterConflictError(
      `another live process shares this store: ${live.map(describe).join(", ")}. Processes sharing one store must share presence: ` +
        "set the same REDIS_URL on every process, or give this one its own DATABASE.",
    );
  }
  throw new ClusterConflictError(
    `a live process runs on this store without shared presence: ${live.map(describe).join(", ")}. ` +
      "Restart it with the same REDIS_URL as this one before starting more processes.",
  );
}

export class ProcessRegistry {
  private timer?: NodeJS.Timeout;
  private lastBeat = "";
  private peers: ProcessRecord[] = [];
  private beating = false;

  constructor(
    private readonly store: Pick<Store, "processes">,
    private readonly self: Self,
    readonly timing: ClusterTiming,
    private readonly log: Logger,
    /** Called when this process finds it was declared dead (it was stalled): its rooms may have moved. */
    private readonly onDeclaredDead: () => Promise<void>,
    /** Called after every heartbeat with the processes on the store (the failover's scan). */
    private readonly onPeers: (peers: ProcessRecord[]) => Promise<void> = () => Promise.resolve(),
  ) {}

  get id(): string {
    return this.self.id;
  }

  async start(): Promise<void> {
    await this.register();
    this.peers = await this.store.processes.listProcesses();
    // Alone on the store, records of dead processes (crashes before a restart) have nobody else to clear them.
    // A process of this machine whose pid is gone is dead at once, whatever its heartbeat says: a restart right
    // after kill -9 must not wait out the dead-after time before it may resume the games that process held.
    if (!this.self.sharedPresence) {
      const dead = this.peers.filter((p) => p.id !== this.self.id && (!this.isLive(p.id) || !runsHere(p)));
      for (const p of dead) await this.store.processes.removeProcessIf(p.id, p.heartbeatAt);
      this.peers = this.peers.filter((p) => !dead.includes(p));
    }
    this.timer = setInterval(() => void this.beat(), this.timing.heartbeatMs);
    this.timer.unref();
  }

  /** Whether the process is registered with a fresh heartbeat, as of the last look. Unknown ids are not live. */
  isLive(processId: string, now = Date.now()): boolean {
    if (processId === this.self.id) return true;
    const p = this.peers.find((r) => r.id === processId);
    return Boolean(p && now - Date.parse(p.heartbeatAt) < this.timing.deadAfterMs);
  }

  /** Leaves the registry (graceful stop): peers take over whatever this process still owned. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.store.processes.removeProcessIf(this.self.id, this.lastBeat).catch((err) => this.log.warn({ err }, "could not leave the process registry"));
  }

  private async register(): Promise<void> {
    this.lastBeat = new Date().toISOString();
    await this.store.processes.registerProcess({
      id: this.self.id,
      sharedPresence: this.self.sharedPresence,
      ...(this.self.publicAddress ? { publicAddress: this.self.publicAddress } : {}),
      pid: process.pid,
      host: hostname(),
      startedAt: this.lastBeat,
      heartbeatAt: this.lastBeat,
    });
  }

  private async beat(): Promise<void> {
    if (this.beating || !this.timer) return;
    this.beating = true;
    try {
      const at = new Date().toISOString();
      if (await this.store.processes.touchProcess(this.self.id, at)) {
        this.lastBeat = at;
      } else {
        this.log.warn({ processId: this.self.id }, "this process was declared dead by a peer (it was stalled); giving up the games it lost");
        await this.onDeclaredDead();
        await this.register();
      }
      this.peers = await this.store.processes.listProcesses();
      await this.onPeers(this.peers);
    } catch (err) {
      this.log.warn({ err }, "process heartbeat failed");
    } finally {
      this.beating = false;
    }
  }
}
