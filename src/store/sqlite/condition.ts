/**
 * Whether the SQLite store can keep what it is given, for its writes and for /healthz: its files are still
 * the ones it opened (data-files.ts), and its writes succeed. A read (`SELECT 1`) would succeed on deleted or
 * unwritable files, so the health check writes: one row, stored and synced, reused for PROBE_REUSE_MS.
 */
import type { StoreHealth } from "../port";
import { DataFiles } from "./data-files";
import { isConstraintViolation } from "./record-writes";

/** How long a health check's probe write is reused: /healthz may be asked often, a write costs an fsync. */
const PROBE_REUSE_MS = 1000;

const messageOf = (e: unknown): string => (e as Error | null)?.message ?? String(e);

/** A write the store refused because its files cannot keep it; openStore's guard answers it as `unavailable`. */
export class StoreFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StoreFailure";
  }
}

export class StoreCondition {
  /** The database and WAL files as opened (file databases only). */
  private files: DataFiles | null = null;
  /** Why the last write failed, until one succeeds. */
  private writeFailure: string | null = null;
  private probe: { at: number; done: Promise<string | null> } | null = null;

  /** Watches the files of a file database from now on. */
  watch(paths: string[]): void {
    this.files = new DataFiles(paths);
  }

  /** Throws (so nothing is written, or a write is not acknowledged) once a data file is no longer on disk. */
  refuseIfLost(): void {
    const lost = this.files?.check();
    if (lost) throw this.failed(new StoreFailure(lost));
  }

  /** Notes a write's failure (a refused constraint is none) and returns the error, to be thrown. */
  failed(e: unknown): unknown {
    // A refused constraint is the caller's business (a taken id or index), not a failing store.
    if (!isConstraintViolation(e)) this.writeFailure = messageOf(e);
    return e;
  }

  succeeded(): void {
    this.writeFailure = null;
  }

  /** Healthy when the files are the ones opened, the probe write (`write`) succeeds and no write failed since. */
  async health(write: () => Promise<unknown>): Promise<StoreHealth> {
    const lost = this.files?.check();
    if (lost) return { ok: false, adapter: "sqlite", state: lost };
    const now = performance.now();
    if (!this.probe || now - this.probe.at >= PROBE_REUSE_MS) {
      this.probe = {
        at: now,
        done: write().then(
          () => null,
          (e: unknown) => `writes fail: ${messageOf(e)}`,
        ),
      };
    }
    const failure = (await this.probe.done) ?? (this.writeFailure && `writes fail: ${this.writeFailure}`);
    return failure ? { ok: false, adapter: "sqlite", state: failure } : { ok: true, adapter: "sqlite", state: "open" };
  }
}
