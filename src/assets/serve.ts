/**
 * Serves the committed files under public/assets (nothing is generated at run time): a manifest of every
 * asset and the assets themselves with strong ETags (the quoted sha256), a year of immutable caching and
 * If-None-Match -> 304. Only paths found at start-up are served, so no request path reaches the disk.
 */
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { extname, join, relative, sep } from "node:path";
import { Router, type Request, type Response } from "express";
import { AppError } from "../errors";
import { PACKAGE_ROOT } from "../package-root";

export const ASSETS_DIR = join(PACKAGE_ROOT, "public", "assets");

const TYPES: Record<string, string> = {
  ".svg": "image/svg+xml",
  ".json": "application/json; charset=utf-8",
  ".wav": "audio/wav",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
};

export interface Asset { path: string; type: string; bytes: number; sha256: string; body: Buffer }

export const IMMUTABLE = "public, max-age=31536000, immutable";
/** The manifest changes with each deploy, so it is revalidated instead of kept for a year. */
const MANIFEST_CACHE = "public, max-age=300, must-revalidate";

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

/** True when If-None-Match names this ETag (or is `*`); weak comparison, as RFC 9110 asks for GET. */
function notModified(req: Request, etag: string): boolean {
  const header = req.headers["if-none-match"];
  if (!header) return false;
  return header.trim() === "*" || header.split(",").some((t) => t.trim().replace(/^W\//, "") === etag);
}

function send(req: Request, res: Response, body: Buffer, type: string, etag: string, cache: string) {
  res.setHeader("ETag", etag);
  res.setHeader("Cache-Control", cache);
  if (notModified(req, etag)) return void res.status(304).end();
  res.status(200).type(type).send(body);
}

export function assetsRouter(assets: Map<string, Asset>, baseUrl: string): Router {
  const r = Router();
  const list = [...assets.values()].map(({ path, type, bytes, sha256 }) => ({ path, type, bytes, sha256, url: `${baseUrl}/api/v1/clients/assets/${path}` }));
  const manifest = Buffer.from(JSON.stringify({ version: 1, count: list.length, assets: list }));
  const manifestTag = `"${createHash("sha256").update(manifest).digest("hex")}"`;

  r.get("/clients/manifest", (req, res) => send(req, res, manifest, "application/json; charset=utf-8", manifestTag, MANIFEST_CACHE));

  r.get("/clients/assets/*path", (req, res) => {
    const parts = (req.params as { path?: string[] }).path ?? [];
    const asset = assets.get(parts.join("/"));
    if (!asset) throw new AppError("not_found", `no client asset ${parts.join("/")}; see /api/v1/clients/manifest`);
    // SVG could carry script if opened directly; the sandbox keeps it inert.
    if (asset.path.endsWith(".svg")) res.setHeader("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox");
    res.setHeader("X-Content-Type-Options", "nosniff");
    send(req, res, asset.body, asset.type, `"${asset.sha256}"`, IMMUTABLE);
  });
  return r;
}
