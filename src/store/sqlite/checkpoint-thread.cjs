// The SQLite store's checkpointer thread (see checkpointer.ts): its own connection to the database file runs
// a PASSIVE checkpoint every `intervalMs`, copying committed WAL frames into the database file and syncing
// it, so that neither the copy nor its fsync runs on the event loop. Under steady writes a PASSIVE
// checkpoint never catches up with the last frame, and only a fully checkpointed WAL is started over by the
// next writer; so once the WAL holds `restartFrames` frames, a RESTART checkpoint follows the PASSIVE one. It
// holds writers off while it copies the few frames written since and syncs (a few milliseconds, once per
// `restartFrames` pages written), and the WAL then starts over. Plain CommonJS: a worker thread does not
// inherit the main thread's TypeScript loader, and this needs none.
const { parentPort, workerData } = require("node:worker_threads");
const Database = require("better-sqlite3");

// Opened at the first checkpoint, not at the thread's start: a file gone by then (deleted under the server)
// is reported as a failed checkpoint, and the thread lives on to answer "stop".
let db = null;

function checkpoint() {
  try {
    if (!db) {
      db = new Database(workerData.path, { fileMustExist: true });
      db.pragma("busy_timeout = 5000");
    }
    const [row] = db.pragma("wal_checkpoint(PASSIVE)");
    if (row && row.log >= workerData.restartFrames) db.pragma("wal_checkpoint(RESTART)");
    parentPort.postMessage({ type: "checkpointed" });
  } catch (err) {
    parentPort.postMessage({ type: "failed", message: String(err && err.message ? err.message : err) });
  }
}

const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on("message", (message) => {
  if (message !== "stop") return;
  clearInterval(timer);
  checkpoint();
  try {
    db?.close();
  } catch (err) {
    // The files may be gone (deleted under the server); closing what is left must still end the thread.
    parentPort.postMessage({ type: "failed", message: String(err && err.message ? err.message : err) });
  }
  parentPort.close();
});
