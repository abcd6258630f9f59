/**
 * Reads the committed files under public/assets once, at start-up (nothing is generated at run time), each
 * with its type and sha256; src/edges/api/routes/assets.ts serves them. Only paths found here are served, so no
 * request path reaches the disk.
 */
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { extname, join, relative, sep } from "node:path";
import { PACKAGE_ROOT } from "../../shared/package-root";

export const ASSETS_DIR = join(PACKAGE_ROOT, "public", "assets");

const TYPES: Record<string, string> = {
  ".svg": "image/svg+xml",
  ".json": "application/json; charset=utf-8",
  ".wav": "audio/wav",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
};

export interface Asset {
  path: string;
  type: string;
  bytes: number;
  sha256: string;
  body: Buffer;
}

export const IMMUTABLE = "public, max-age=31536000, immutable";

async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(entries.map((e) => (e.isDirectory() ? walk(join(dir, e.name)) : Promise.resolve(e.isFile() ? [join(dir, e.name)] : []))));
  return nested.flat();
}

/** Reads every servable file once; unknown extensions are skipped (never served with a guessed type). */
export async function loadAssets(dir = ASSETS_DIR): Promise<Map<string, Asset>> {
  const out = new Map<string, Asset>();
  for (const file of (await walk(dir)).sort()) {
    const type = TYPES[extname(file).toLowerCase()];
    if (!type) continue;
    const body = await readFile(file);
    const path = relative(dir, file).split(sep).join("/");
    out.set(path, { path, type, bytes: body.length, sha256: createHash("sha256").update(body).digest("hex"), body });
  }
  return out;
}
