// Preloaded with `--require` by every node and tsx npm script and by mocha (.mocharc.json). An older Node
// otherwise gets as far as loading better-sqlite3's native binary, built for Node 22, and dies with a raw
// NODE_MODULE_VERSION error that does not say what to do. Plain CommonJS with no imports, so any Node can
// parse it before anything else is loaded.
"use strict";

/** The lowest major version the server runs on (package.json `engines`; Colyseus 0.18 needs Node 22). */
const REQUIRED_MAJOR = 22;

const version = process.versions.node;
const major = Number(version.split(".")[0]);
if (major < REQUIRED_MAJOR) {
  process.stderr.write(
    `Tile Arena needs Node.js >= ${REQUIRED_MAJOR} (22.12 or later); this is Node.js ${version}.\n` +
      `Install Node 22 (for example \`nvm install 22 && nvm use 22\`), then run \`npm ci\` again so the native modules match it.\n`,
  );
  process.exit(1);
}
