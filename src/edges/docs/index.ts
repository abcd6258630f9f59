/**
 * The service's own documentation, served by the process so that every link a response carries resolves:
 * `/docs` (the API reference, Swagger UI rendering the served OpenAPI document, from the installed
 * swagger-ui-dist package, no CDN), `/docs/errors` (one section per problem `code`, the target of every
 * problem's `docs` link), `/docs/migration` (the notes deprecated routes link to) and `/problems/{code}`
 * (the problem `type` URIs).
 */
import { dirname, join } from "node:path";
import { Router, type Response } from "express";
import { AppError, ERROR_CODES, type ErrorCode } from "../../shared/errors";
import { ERROR_DOCS } from "./errors";
import { DOCS_CSS, escapeHtml, layout, prose, SITE_NAV } from "./html";
import { MIGRATION_NOTES } from "./migration";

/** The installed renderer; only its bundle and stylesheet (and their source maps) are served. */
const SWAGGER_UI_DIR = dirname(require.resolve("swagger-ui-dist/package.json"));
const SWAGGER_UI_FILES = new Set(["swagger-ui-bundle.js", "swagger-ui-bundle.js.map", "swagger-ui.css", "swagger-ui.css.map", "favicon-32x32.png"]);

/** Scripts only from this origin; Swagger UI sets inline styles and shows data: images. */
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const isErrorCode = (code: string): code is ErrorCode => Object.hasOwn(ERROR_CODES, code);

function errorSection(code: ErrorCode): string {
  const meta = ERROR_CODES[code];
  const doc = ERROR_DOCS[code];
  return `<section id="${code}">
<h2><code>${code}</code> · ${escapeHtml(meta.title)} <span class="status">(HTTP ${meta.status})</span></h2>
<p><strong>What causes it.</strong> ${prose(doc.cause)}</p>
<p><strong>What to do.</strong> ${prose(doc.action)}</p>
</section>`;
}

const intro = `<p>A refused request answers an RFC 9457 problem document (<code>application/problem+json</code>) with
<code>status</code>, <code>code</code>, <code>title</code>, <code>detail</code> (what was wrong with this request), <code>hint</code>,
<code>type</code> (<code>/problems/{code}</code> on this service) and <code>docs</code> (a link to the section below). Codes are stable;
clients branch on <code>code</code>, never on <code>detail</code>. The same codes are sent as <code>refused</code> messages by the game
room and as JSON-RPC errors by MCP.</p>`;

const errorsPage = layout("Problem codes", intro + (Object.keys(ERROR_CODES) as ErrorCode[]).map(errorSection).join("\n"));

const migrationPage = layout(
  "Migration notes",
  MIGRATION_NOTES.map((n) => `<section id="${escapeHtml(n.id)}"><h2>${prose(n.title)}</h2>${n.body.map((p) => `<p>${prose(p)}</p>`).join("")}</section>`).join(
    "\n",
  ),
);

/** The reference page: Swagger UI, started by reference.js (no inline script, so the CSP needs none). */
const referencePage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · Tile Arena</title>
<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"><link rel="stylesheet" href="/docs/docs.css"></head>
<body>${SITE_NAV}<nav><a href="/docs">API reference</a><a href="/docs/errors">Problem codes</a><a href="/docs/migration">Migration notes</a>
<a href="/api/v1/openapi.json">openapi.json</a></nav>
<noscript><p>The reference is rendered from the OpenAPI document at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</p></noscript>
<div id="reference"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script><script src="/docs/reference.js"></script>
</body></html>
`;

const referenceScript = `window.ui = SwaggerUIBundle({ url: "/api/v1/openapi.json", dom_id: "#reference", deepLinking: true });\n`;

function send(res: Response, type: string, body: string): void {
  res.setHeader("Content-Security-Policy", CSP);
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Cache-Control", "no-cache");
  res.type(type).send(body);
}

export function docsRouter(): Router {
  const r = Router();
  r.get("/docs", (_req, res) => send(res, "html", referencePage));
  r.get("/docs/reference.js", (_req, res) => send(res, "js", referenceScript));
  r.get("/docs/docs.css", (_req, res) => send(res, "css", DOCS_CSS));
  r.get("/docs/errors", (_req, res) => send(res, "html", errorsPage));
  r.get("/docs/migration", (_req, res) => send(res, "html", migrationPage));
  r.get("/docs/assets/:file", (req, res) => {
    const file = String(req.params.file);
    if (!SWAGGER_UI_FILES.has(file)) throw new AppError("not_found", `no documentation asset ${file}`);
    res.setHeader("Cache-Control", "public, max-age=3600");
    res.sendFile(join(SWAGGER_UI_DIR, file));
  });
  r.get("/problems/:code", (req, res) => {
    const code = String(req.params.code);
    if (!isErrorCode(code)) throw new AppError("not_found", `no problem type ${code}; the list is at /docs/errors`);
    send(res, "html", layout(`Problem: ${code}`, `${errorSection(code)}<p>Every code: <a href="/docs/errors#${code}">/docs/errors</a>.</p>`));
  });
  return r;
}
