// Entry of the SQLite store's writer thread when the service runs from its TypeScript sources: a worker thread
// does not inherit the main thread's tsx loader, so it registers tsx's require hook before loading
// ./writer-thread.ts (compiled, writer.ts starts writer-thread.js itself).
require("tsx/cjs/api").register();
require("./writer-thread.ts");
