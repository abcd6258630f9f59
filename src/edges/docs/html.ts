/** A tiny renderer for the service's own documentation pages: escaped text, `code` spans, one layout. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../../shared/package-root";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** Escapes a paragraph, then turns `backtick spans` into <code>. */
export const prose = (s: string): string => escapeHtml(s).replace(/`([^`]+)`/g, "<code>$1</code>");

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem;color:#1d2230}
code{background:#eef0f5;padding:0 .25em;border-radius:3px}section{border-top:1px solid #dde;padding-top:.5rem;margin-top:1.5rem}
h2 code{font-size:1.1em}.status{color:#667}nav a{margin-right:1rem}
header.site{display:flex;gap:1rem;align-items:center;padding:.4rem 0 .6rem;margin-bottom:.6rem;border-bottom:1px solid #dde}
header.site a,nav a{display:inline-flex;align-items:center;min-height:40px}
header.site nav{display:flex;flex-wrap:wrap;gap:0 1rem}header.site nav a{margin-right:0}`;

/**
 * The web pages' header links, read once from web/index.html's `header.top nav`: the docs pages carry the very
 * same links, so a page added to the site's header is in the docs' header too, never a copy left behind.
 */
function siteLinks(): string {
  const nav = /<header class="top">.*?<nav>(.*?)<\/nav>/s.exec(readFileSync(join(PACKAGE_ROOT, "web", "index.html"), "utf8"));
  if (!nav) throw new Error('web/index.html has no <header class="top"> with a <nav>');
  return nav[1].replace(/ aria-current="page"/g, "");
}

/** The site's header, first on every docs page (the API reference too), so a reader can always get back to the game. */
export const SITE_NAV = `<header class="site"><img src="/assets/brand/logo.svg" alt="" width="28" height="28"><a href="/"><strong>Tile Arena</strong></a><nav aria-label="Site">${siteLinks()}</nav></header>`;

/** A whole page; `body` must already be HTML. */
export function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Tile Arena</title><link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
<link rel="stylesheet" href="/docs/docs.css"></head>
<body>${SITE_NAV}<nav><a href="/docs">API reference</a><a href="/docs/errors">Problem codes</a><a href="/docs/migration">Migration notes</a></nav>
<h1>${escapeHtml(title)}</h1>
${body}
</body></html>
`;
}

export const DOCS_CSS = STYLE;
