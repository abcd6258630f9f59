/**
 * Reads `./.env` into process.env, when there is one, before the server's modules load: `npm start` and
 * `npm run dev` preload this file (`--require`). A variable already set in the environment wins over the
 * file's, as with node's `--env-file`; a missing file is no message (node 22's `--env-file-if-exists`
 * prints one on every start).
 */
try {
  process.loadEnvFile(".env");
} catch (err) {
  if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
}

export {};
