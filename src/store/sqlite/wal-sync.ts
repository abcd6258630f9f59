/**
 * Power-loss durability without blocking the event loop. With synchronous=FULL, SQLite fsyncs the WAL inside
 * every commit, on the calling thread: better-sqlite3 is synchronous, so each fsync (milliseconds on many
 * disks) holds up every room and request of the process. Instead the connection runs with synchronous=NORMAL
 * (a commit writes its WAL frames to the OS, which survives a process crash) and a write resolves only after
 * an fdatasync of the WAL file has run on libuv's thread pool: the same guarantee as FULL (the frames of every
 * resolved commit are on stable storage; a checkpoint syncs the database file itself before the WAL is
 * reused), with the event loop free meanwhile and one fsync covering every commit made before it started.
 */
import { open, type FileHandle } from "node:fs/promises";

export class WalSync {
  private handle: Promise<FileHandle | null> | null = null;
  private running: Promise<void> | null = null;
  private next: Promise<void> | null = null;
  private closed = false;

  constructor(private readonly walPath: string) {}

  /** Resolves once every commit made before the call is on stable storage. */
  sync(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (!this.running) {
      this.running = this.flush().finally(() => (this.running = null));
      return this.running;
    }
    // A flush is under way and may have started before the caller's commit: wait for the one after it.
    this.next ??= this.running.then(() => {
      this.next = null;
      return this.sync();
    });
    return this.next;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.running?.catch(() => undefined);
    const h = await this.handle?.catch(() => null);
    await h?.close();
  }

  private async flush(): Promise<void> {
    // The WAL file exists from the first write on (and while the connection is open).
    this.handle ??= open(this.walPath, "r").catch(() => null);
    const h = await this.handle;
    if (!h) {
      this.handle = null;
      return;
    }
    await h.datasync();
  }
}
