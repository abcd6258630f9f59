/**
 * Serves the client assets read at start-up (src/services/assets/serve.ts): a manifest of every asset and the assets
 * themselves with strong ETags (the quoted sha256), a year of immutable caching and If-None-Match -> 304.
 */
import { createHash } from "node:crypto";
import { Router, type Request, type Response } from "express";
import { z } from "zod";
import { AppError } from "../../../shared/errors";
import { IMMUTABLE, type Asset } from "../../../services/assets/serve";
import * as R from "../openapi/responses";
import { json, problems } from "../openapi/parts";
import { mountRoutes, route, type Route } from "../route";

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

/** What the routes serve: the assets by path, and the manifest made of them with its ETag. */
interface Served {
  assets: Map<string, Asset>;
  manifest: Buffer;
  manifestTag: string;
}

export const assetRoutes: Route<Served>[] = [
  // The manifest (R.Manifest) is serialised once, for its ETag, so it goes out as bytes rather than through reply.
  route({
    method: "get",
    path: "/clients/manifest",
    operationId: "getClientManifest",
    tags: ["clients"],
    summary: "Read the client asset manifest",
    description: "Every client asset with its size, sha256 and URL.",
    responses: { 200: json(R.Manifest), 304: { description: "not modified (If-None-Match)" }, ...problems() },
    handler: ({ req, res }, d) => send(req, res, d.manifest, "application/json; charset=utf-8", d.manifestTag, MANIFEST_CACHE),
  }),
  route({
    method: "get",
    path: "/clients/assets/*path",
    operationId: "getClientAsset",
    tags: ["clients"],
    summary: "Download a client asset",
    description: "Strong ETag (quoted sha256), immutable for a year; If-None-Match gives 304. `path` may contain slashes.",
    request: { params: z.object({ path: z.string() }) },
    responses: {
      200: { description: "the asset, with its own content type", content: { "*/*": { schema: z.string().describe("bytes") } } },
      304: { description: "not modified" },
      ...problems(404),
    },
    handler: ({ req, res }, d) => {
      const parts = (req.params as { path?: string[] }).path ?? [];
      const asset = d.assets.get(parts.join("/"));
      if (!asset) throw new AppError("not_found", `no client asset ${parts.join("/")}; see /api/v1/clients/manifest`);
      // SVG could carry script if opened directly; the sandbox keeps it inert.
      if (asset.path.endsWith(".svg")) res.setHeader("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox");
      res.setHeader("X-Content-Type-Options", "nosniff");
      send(req, res, asset.body, asset.type, `"${asset.sha256}"`, IMMUTABLE);
    },
  }),
];

export function assetsRouter(assets: Map<string, Asset>, baseUrl: string): Router {
  const list = [...assets.values()].map(({ path, type, bytes, sha256 }) => ({ path, type, bytes, sha256, url: `${baseUrl}/api/v1/clients/assets/${path}` }));
  const manifest = Buffer.from(JSON.stringify({ version: 1, count: list.length, assets: list }));
  const manifestTag = `"${createHash("sha256").update(manifest).digest("hex")}"`;
  return mountRoutes(Router(), assetRoutes, { assets, manifest, manifestTag });
}
