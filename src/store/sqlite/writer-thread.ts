/**
 * The SQLite store's writer thread (see writer.ts): its own connection to the database file commits the
 * rooms' game writes, so no SQL of a move runs on the event loop. Classic group commit: the thread takes
 * every request queued on its port, commits them in one transaction, fsyncs the WAL (with FULL), answers,
 * and then takes whatever arrived meanwhile as the next batch. No timer spaces the commits: at a slow pace a
 * write is committed as soon as it arrives, under load one fsync carries every write that queued during the
 * previous one. With FULL and a sync interval (COMMIT_WINDOW_MS), a batch that would start sooner than that after
 * the last fsync waits for the interval's end first: at a few thousand moves a second an fsync takes about
 * as long as the gap between two moves, so without it nearly every move would pay a commit and an fsync of
 * its own; with it they share one per interval, each move waiting at most the interval.
 */
import { closeSync, fdatasyncSync, openSync } from "node:fs";
import { receiveMessageOnPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";
import { prepareStatements } from "./statements";
import { RecordWrites } from "./record-writes";
import type { WriterAnswer, WriterData, WriterReply, WriterRequest, WrittenError } from "./writer";

const { path, synchronous, busyWaitMs, syncIntervalMs, port } = workerData as WriterData;
/** Where the thread sleeps out the rest of a sync interval (Atomics.wait: nothing else runs here meanwhile). */
const sleeper = new Int32Array(new SharedArrayBuffer(4));
/** When the last fsync ended (performance.now()). */
let lastSync = -Infinity;

const errorOf = (e: unknown): WrittenError => ({ message: (e as Error | null)?.message ?? String(e), code: (e as { code?: string } | null)?.code });
const reply = (m: WriterReply) => port.postMessage(m);

let db: Database.Database | null = null;
let writes: RecordWrites | null = null;
/** The WAL, opened at the first fsync (it exists from the first commit on, while a connection is open). */
let wal: number | null = null;

try {
  // The main thread made the file, its schema and WAL mode before starting this thread.
  db = new Database(path, { fileMustExist: true });
  // A commit writes its WAL frames to the OS (surviving a process crash); FULL's power-loss durability is the
  // fdatasync after it, timed for the metrics (wal-sync.ts does the same for the main thread's writes).
  db.pragma("synchronous = NORMAL");
  // Waiting for the write lock blocks this thread only, never the event loop.
  db.pragma(`busy_timeout = ${busyWaitMs}`);
  db.pragma("wal_autocheckpoint = 0");
  writes = new RecordWrites(db, prepareStatements(db));
} catch (e) {
  reply({ type: "unopened", error: errorOf(e) });
  db?.close();
  port.close();
}

/** Runs after a commit: every commit made so far is on stable storage once it returns (null: no fsync ran). */
function syncWal(): number | null {
  if (synchronous !== "FULL") return null;
  if (wal === null) {
    try {
      wal = openSync(`${path}-wal`, "r");
    } catch {
      // No WAL: the files were deleted under the server; the main thread's file check refuses the write.
      return null;
    }
  }
  const started = performance.now();
  fdatasyncSync(wal);
  lastSync = performance.now();
  return (lastSync - started) / 1000;
}

type Request = Exclude<WriterRequest, { type: "stop" }>;

/** One transaction and one fsync for every request of `batch`; each request is answered on its own. */
function commit(batch: Request[]): void {
  let outcomes;
  let fsyncSeconds: number | null;
  try {
    outcomes = writes!.commitItems(batch.map((r) => (r.type === "commit" ? { writes: r.writes } : { create: r.create })));
    fsyncSeconds = syncWal();
  } catch (e) {
    // The transaction rolled back (or its fsync failed): every request of the batch is refused.
    reply({ type: "failed", ids: batch.map((r) => r.id), error: errorOf(e) });
    return;
  }
  const answers = batch.map((r, i): WriterAnswer => {
    const outcome = outcomes[i];
    if (outcome instanceof Error) return { id: r.id, refused: errorOf(outcome) };
    return { id: r.id, results: outcome ?? [] };
  });
  reply({ type: "committed", answers, fsyncSeconds });
}

function stop(): void {
  if (wal !== null) closeSync(wal);
  wal = null;
  db?.close();
  port.close();
}

port.on("message", (first: WriterRequest) => {
  let next: WriterRequest | null = first;
  while (next) {
    if (next.type === "stop") return stop();
    const wait = lastSync + syncIntervalMs - performance.now();
    if (wait > 0) Atomics.wait(sleeper, 0, 0, wait);
    // The batch: this request and every one queued behind it (sent while the last commit ran or the interval).
    const batch: Request[] = [next];
    next = null;
    for (let m = receiveMessageOnPort(port); m; m = receiveMessageOnPort(port)) {
      const request = m.message as WriterRequest;
      if (request.type === "stop") {
        next = request;
        break;
      }
      batch.push(request);
    }
    commit(batch);
    // What arrived during this commit is the next batch.
    const queued = next ?? (receiveMessageOnPort(port)?.message as WriterRequest | undefined);
    next = queued ?? null;
  }
});
