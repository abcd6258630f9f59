/**
 * Whether the files an open SQLite connection writes are still the ones on disk. A connection keeps its
 * descriptors: when the database or its WAL is deleted (or replaced) while the server runs, every write
 * still succeeds, into a file nobody will open again, and is lost at the next start. So the files' identity
 * (device and inode) is taken when the store opens and compared after every write and on every health check:
 * two stat calls (microseconds, no disk I/O while the directory is cached).
 */
import { statSync, type Stats } from "node:fs";
import { basename } from "node:path";

interface Identity {
  path: string;
  dev: number;
  ino: number;
}

const identity = (path: string, s: Stats): Identity => ({ path, dev: s.dev, ino: s.ino });

export class DataFiles {
  /** Each file's identity, taken when the store opened it (or, for one not made yet, when first seen). */
  private readonly files: Array<{ path: string; seen: Identity | null }>;
  /** Set once a file is found gone: it cannot come back (its inode is gone), so it is not looked for again. */
  private lost: string | null = null;

  /** Takes the identity of `paths` as they are now. */
  constructor(paths: string[]) {
    this.files = paths.map((path) => {
      const s = statSync(path, { throwIfNoEntry: false });
      return { path, seen: s ? identity(path, s) : null };
    });
  }

  /** Null while every file is the one the store opened; else what happened, for the health report and the log. */
  check(): string | null {
    if (this.lost) return this.lost;
    for (const f of this.files) {
      const now = statSync(f.path, { throwIfNoEntry: false });
      if (!f.seen) {
        if (now) f.seen = identity(f.path, now);
        continue;
      }
      if (!now) this.lost = `${basename(f.path)} was deleted while the store had it open; writes since are lost: restart from a backup`;
      else if (now.ino !== f.seen.ino || now.dev !== f.seen.dev)
        this.lost = `${basename(f.path)} was replaced while the store had it open; restart to open the new file`;
      if (this.lost) return this.lost;
    }
    return null;
  }
}
