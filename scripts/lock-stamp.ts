/**
 * Run by `npm ci` (the `prepare` script, after the build): records in node_modules/.lock-hash which
 * package-lock.json and which Node installed the tree, as scripts/test.sh computes it (the sha256 of the lock
 * file followed by `node -v`'s line). The test command then reuses the tree the README's `npm ci` installed
 * instead of installing it again. Nothing is recorded for another npm command (`npm install` may leave a tree
 * that is not exactly the lock file's) or for a tree without the devDependencies the tests need.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";

export const STAMP = "node_modules/.lock-hash";

/** What scripts/test.sh compares: `(cat package-lock.json; node -v) | sha256sum`. */
export function lockHash(lock: Buffer, nodeVersion = process.version): string {
  return createHash("sha256").update(lock).update(`${nodeVersion}\n`).digest("hex");
}

/** Whether the npm command running this installed exactly the lock file, devDependencies included. */
export function installedWhole(env: NodeJS.ProcessEnv): boolean {
  const omitted = (env.npm_config_omit ?? "").split(/[\s,]+/).filter(Boolean);
  return env.npm_command === "ci" && !omitted.includes("dev") && env.NODE_ENV !== "production";
}

if (require.main === module) {
  if (installedWhole(process.env) && existsSync("node_modules")) writeFileSync(STAMP, `${lockHash(readFileSync("package-lock.json"))}\n`);
  else rmSync(STAMP, { force: true });
}
