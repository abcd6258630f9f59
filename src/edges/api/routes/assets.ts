/**
 * Serves the client assets read at start-up (src/services/assets/serve.ts): a manifest of every asset and the assets
 * themselves with strong ETags (the quoted sha256), a year of immutable caching and If-None-Match -> 304.
 */
import { createHash } from "node:crypto";
import { Router, type Request, type Response } from "express";
import { AppError } from "../../../shared/errors";
import { IMMUTABLE, type Asset } from "../../../services/assets/serve";

/** The manifest changes with each deploy, so it is revalidated instead of kept for a year. */
const MANIFEST_CACHE = "public, max-age=300, must-revalidate";

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

  // The manifest (R.Manifest) is serialised once, for its ETag, so it goes out as bytes rather than through reply.
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
