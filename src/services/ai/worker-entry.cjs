// Entry of an AI pool thread when the service runs from its TypeScript sources: a worker thread does not
// inherit the main thread's tsx loader, so it registers tsx's require hook before loading ./worker.ts.
require("tsx/cjs/api").register();
module.exports = require("./worker.ts");
