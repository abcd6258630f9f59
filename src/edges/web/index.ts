/**
 * The web client's router: the HTML pages (`/`, `/play/:id`, `/watch/:id`, `/join/:code`,
 * `/challenge/:token`, `/replay/:id`, `/review/:id`, `/rules`, `/players/:id`, `/leaderboards[/:kind/:id]`,
 * `/tournaments[/:id]`, `/leagues[/:id]`, `/bots`),
 * their scripts (built from web/src, see bundle.ts) and styles under `/web`, the client assets under
 * `/assets`, the Colyseus SDK's browser bundle at `/vendor/colyseus.js`, and an HTML 404 page for browsers. The pages are plain files: all game
 * data comes from the REST API and the game room at run time, so nothing here renders user data.
 */
import { dirname, join } from "node:path";
import express, { Router, type Request, type Response } from "express";
import { ASSETS_DIR } from "../../services/assets/serve";
import { PACKAGE_ROOT } from "../../shared/package-root";
import { lazyClient } from "./bundle";

export const WEB_DIR = join(PACKAGE_ROOT, "web");
/** The SDK's UMD bundle (it defines the global `Colyseus`); resolved from the installed package. */
const SDK_BUNDLE = join(dirname(require.resolve("@colyseus/sdk/package.json")), "dist/colyseus.js");

/**
 * Pages only load their own origin's scripts, styles, images and sockets; no inline script anywhere, so
 * a name that slipped through as markup could not run.
 */
const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "media-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** Same-origin SVGs opened directly stay inert, as on the API's asset route. */
const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

function page(file: string) {
  return (_req: unknown, res: Response) => {
    res.setHeader("Content-Security-Policy", PAGE_CSP);
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "no-referrer");
    // Pages are tiny and change with deploys; revalidating keeps old tabs from loading stale scripts.
    res.setHeader("Cache-Control", "no-cache");
    res.sendFile(join(WEB_DIR, file));
  };
}

/** What the pages look up before answering: whether a player (or bot) profile exists. */
export interface WebDeps {
  playerExists(id: string): Promise<boolean>;
}

/** The HTML 404 page, for a browser asking for a page that does not exist. */
function notFoundPage(req: Request, res: Response): void {
  res.status(404);
  page("404.html")(req, res);
}

export function webRouter(deps: WebDeps): Router {
  const r = Router();
  r.get("/", page("index.html"));
  r.get("/play/:id", page("game.html"));
  r.get("/watch/:id", page("game.html"));
  r.get("/join/:code", page("join.html"));
  r.get("/challenge/:token", page("challenge.html"));
  r.get("/replay/:id", page("replay.html"));
  r.get("/review/:id", page("replay.html"));
  r.get("/rules", page("rules.html"));
  // A profile page for no one is a missing page, as its API answer is: a link or a crawler sees 404, not a page
  // that loads and then says nothing is there. A malformed id is looked up like any other: it exists nowhere.
  r.get("/players/:id", async (req, res, next) => {
    try {
      if (await deps.playerExists(String(req.params.id))) page("player.html")(req, res);
      else notFoundPage(req, res);
    } catch (e) {
      next(e);
    }
  });
  r.get("/leaderboards", page("leaderboards.html"));
  r.get("/leaderboards/:kind/:id", page("leaderboards.html"));
  r.get("/tournaments", page("tournaments.html"));
  r.get("/tournaments/:id", page("tournament.html"));
  r.get("/leagues", page("leagues.html"));
  r.get("/leagues/:id", page("league.html"));
  r.get("/bots", page("bots.html"));

  r.get("/vendor/colyseus.js", (_req, res) => {
    res.setHeader("Cache-Control", "public, max-age=3600");
    res.sendFile(SDK_BUNDLE);
  });

  const nosniff = (res: Response) => res.setHeader("X-Content-Type-Options", "nosniff");
  // The page scripts are built from web/src on first request (see bundle.ts) and revalidated by ETag.
  const client = lazyClient(join(WEB_DIR, "src"));
  r.get("/web/js/:file", async (req, res, next) => {
    try {
      const file = (await client()).get(req.params.file);
      if (!file) return next();
      nosniff(res);
      res.setHeader("Content-Type", file.type);
      res.setHeader("Cache-Control", "no-cache");
      res.setHeader("ETag", file.etag);
      if (req.headers["if-none-match"] === file.etag) return void res.status(304).end();
      res.end(file.body);
    } catch (e) {
      next(e);
    }
  });
  // Only the styles are static files: the HTML is served by the page routes above, with their CSP.
  r.use("/web/css", express.static(join(WEB_DIR, "css"), { index: false, redirect: false, maxAge: 0, setHeaders: nosniff }));
  // The generated assets again, outside /api: a page load fetches a dozen card images, which should
  // not count against the API's per-IP read budget.
  r.use(
    "/assets",
    express.static(ASSETS_DIR, {
      index: false,
      redirect: false,
      maxAge: "1h",
      setHeaders: (res, path) => {
        nosniff(res);
        if (path.endsWith(".svg")) res.setHeader("Content-Security-Policy", SVG_CSP);
      },
    }),
  );
  // A browser asking for a page that does not exist gets a page that says so (with a way home); programs
  // (anything not preferring HTML) and /api paths fall through to the problem document.
  r.use((req, res, next) => {
    const wantsPage = (req.method === "GET" || req.method === "HEAD") && !req.path.startsWith("/api/") && req.accepts(["json", "html"]) === "html";
    if (!wantsPage) return next();
    notFoundPage(req, res);
  });
  return r;
}
