/**
 * The browser client's build: esbuild bundles each page of `web/src/pages/*.ts` (TypeScript typed by the
 * API's generated client types, with the pure rules engine) into one ES module, in memory, the first time a
 * page script is asked for. Nothing is written to disk, so there is no build output to commit or to forget to
 * rebuild: `npm start` (or any server start) serves the client built from the sources it runs with.
 */
import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { build } from "esbuild";

export interface BuiltFile {
  body: Uint8Array;
  etag: string;
  type: string;
}

const TYPES: Record<string, string> = { ".js": "text/javascript; charset=utf-8", ".map": "application/json; charset=utf-8" };

/** Builds every page entry of `srcDir/pages`; the map is keyed by output file name (`game.js`, `game.js.map`, chunks). */
export async function buildClient(srcDir: string): Promise<Map<string, BuiltFile>> {
  const pagesDir = join(srcDir, "pages");
  const entryPoints = readdirSync(pagesDir)
    .filter((f) => f.endsWith(".ts"))
    .map((f) => join(pagesDir, f));
  const out = await build({
    entryPoints,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    sourcemap: "linked",
    outdir: "/bundle",
    entryNames: "[name]",
    chunkNames: "chunk-[hash]",
    write: false,
    logLevel: "silent",
  });
  const files = new Map<string, BuiltFile>();
  for (const f of out.outputFiles) {
    const name = basename(f.path);
    const ext = name.endsWith(".map") ? ".map" : ".js";
    files.set(name, { body: f.contents, etag: `"${createHash("sha256").update(f.contents).digest("base64url").slice(0, 22)}"`, type: TYPES[ext] });
  }
  return files;
}

/** One build per process, started on first use; a failed build is retried on the next request. */
export function lazyClient(srcDir: string): () => Promise<Map<string, BuiltFile>> {
  let pending: Promise<Map<string, BuiltFile>> | null = null;
  return () => {
    pending ??= buildClient(srcDir).catch((e: unknown) => {
      pending = null;
      throw e;
    });
    return pending;
  };
}
