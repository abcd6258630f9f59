/**
 * `npm run build`: compiles the server to dist/ for `npm start`. esbuild transpiles each TypeScript file
 * on its own (no bundling, no type check: `npm run typecheck` does that) with the tsconfig's settings, the
 * same transform tsx applies in development, so the compiled server behaves as the sources do; source maps
 * let `node --enable-source-maps` point stack traces at the TypeScript. The plain CommonJS files that run
 * on worker threads are copied beside their modules. Files read at run time (web/, public/) stay where they
 * are and are found from the package root (src/shared/package-root.ts).
 */
import { copyFileSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { build } from "esbuild";

/** The folders the server's code lives in (loadtest/lib: the progress bars the CLI tools share). */
const SOURCES = ["src", "rooms", "loadtest/lib"];
const OUT = "dist";

function files(dir: string, ext: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(ext) && !f.endsWith(".d.ts"))
    .map((f) => join(dir, f));
}

async function main() {
  const started = Date.now();
  rmSync(OUT, { recursive: true, force: true });
  const entryPoints = SOURCES.flatMap((d) => files(d, ".ts"));
  await build({
    entryPoints,
    outdir: OUT,
    outbase: ".",
    format: "cjs",
    platform: "node",
    target: "node22",
    sourcemap: "linked",
    tsconfig: "tsconfig.json",
    logLevel: "warning",
  });
  // The *-entry.cjs files exist only to load a thread's TypeScript through tsx (the AI pool's worker.ts, the
  // SQLite writer's writer-thread.ts); compiled, their modules are started as .js directly.
  const copied = SOURCES.flatMap((d) => files(d, ".cjs")).filter((f) => !f.endsWith("-entry.cjs"));
  for (const f of copied) {
    mkdirSync(dirname(join(OUT, f)), { recursive: true });
    copyFileSync(f, join(OUT, f));
  }
  console.log(`built ${entryPoints.length} modules and ${copied.length} thread files into ${OUT}/ in ${Date.now() - started} ms`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
