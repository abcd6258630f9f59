/**
 * The folder holding the project's package.json. Files the server reads at run time (web/, public/) are
 * found from it rather than relative to a module, so they resolve the same whether the module runs from
 * src/ under tsx or compiled, from dist/src/.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export const PACKAGE_ROOT = findRoot(__dirname);
