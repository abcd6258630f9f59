import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A fresh temporary folder named `prefix…`, made before each test (`each`) or once for the suite (`all`)
 * and removed with everything in it after. Call it inside a `describe`; read the path through the returned
 * function once the hooks have run.
 */
export function useTempDir(prefix: string, scope: "each" | "all" = "all"): () => string {
  let dir = "";
  (scope === "each" ? beforeEach : before)(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  (scope === "each" ? afterEach : after)(() => rmSync(dir, { recursive: true, force: true }));
  return () => dir;
}

/**
 * Paths of files, each `name` (which may name folders, `nested/arena.db`) in a fresh temporary folder named
 * `prefix…`: one folder per call of the returned function, all removed after the suite that called this.
 */
export function tempFiles(prefix: string, name: string): () => string {
  const dirs: string[] = [];
  after(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return join(dir, name);
  };
}
