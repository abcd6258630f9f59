/**
 * The REST operations are declared once (src/edges/api/route.ts): the declarations are well formed, every
 * list a routes file exports is in the document, and the mount parses a body or query with the declared
 * schema only when the handler asks, so the handler's own checks answer first.
 */
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import express from "express";
import { z } from "zod";
import { jsonBody } from "../../src/edges/api";
import { API_ROUTES } from "../../src/edges/api/openapi/document";
import { errorHandler } from "../../src/edges/api/problem";
import { enteredByFirstSegment, firstSegments, mountRoutes, openApiPath, route, type Route } from "../../src/edges/api/route";
import { AppError } from "../../src/shared/errors";
import { createLogger } from "../../src/shared/logger";

const ROUTES_DIR = join(__dirname, "..", "..", "src", "edges", "api", "routes");

const isRouteList = (v: unknown): v is Route<never>[] =>
  Array.isArray(v) && v.length > 0 && v.every((r) => typeof r === "object" && r !== null && "operationId" in r && "handler" in r);

/** Every list of operations the routes files export, with the file and export it came from. */
async function routeLists(): Promise<Array<{ file: string; name: string; list: Route<never>[] }>> {
  const found: Array<{ file: string; name: string; list: Route<never>[] }> = [];
  for (const file of readdirSync(ROUTES_DIR).filter((f) => f.endsWith(".ts"))) {
    const mod = (await import(join(ROUTES_DIR, file))) as Record<string, unknown>;
    for (const [name, value] of Object.entries(mod)) if (isRouteList(value)) found.push({ file, name, list: value });
  }
  return found;
}

describe("Unit: REST operation declarations", () => {
  it("spells Express's path parameters as OpenAPI's, the rest-of-path one too", () => {
    assert.equal(openApiPath("/games/:id/sync"), "/games/{id}/sync");
    assert.equal(openApiPath("/bots/challenges/:code/decline"), "/bots/challenges/{code}/decline");
    assert.equal(openApiPath("/clients/assets/*path"), "/clients/assets/{path}");
    assert.equal(openApiPath("/games/quick-match"), "/games/quick-match");
  });

  it("documents every list of operations a routes file exports", async () => {
    const documented = new Set(API_ROUTES);
    const lists = await routeLists();
    for (const { file, name, list } of lists) {
      const missing = list.filter((r) => !documented.has(r)).map((r) => r.operationId);
      assert.deepEqual(missing, [], `${file}: ${name} is not in API_ROUTES (src/edges/api/openapi/document.ts)`);
    }
    assert.ok(lists.length >= 12, `route lists found: ${lists.length}`);
  });

  it("names each operation once, with its texts and every path parameter described", () => {
    const ids = API_ROUTES.map((r) => r.operationId);
    assert.deepEqual(
      ids.filter((id, i) => ids.indexOf(id) !== i),
      [],
    );
    const paths = API_ROUTES.map((r) => `${r.method} ${r.path}`);
    assert.deepEqual(
      paths.filter((p, i) => paths.indexOf(p) !== i),
      [],
    );
    for (const r of API_ROUTES) {
      assert.ok(r.summary.trim() && r.description.trim(), `${r.operationId} has a summary and a description`);
      const inPath = [...r.path.matchAll(/[:*](\w+)/g)].map((m) => m[1]).sort();
      assert.deepEqual(Object.keys(r.request?.params?.shape ?? {}).sort(), inPath, `${r.operationId}: params of ${r.path}`);
    }
  });

  describe("mountRoutes", () => {
    let server: Server;
    let base: string;
    const Body = z.object({ n: z.number().int() }).strict();
    const Query = z.object({ limit: z.string().regex(/^\d+$/).optional() }).strict();
    const routes: Route<{ seen: string[] }>[] = [
      route({
        method: "post",
        path: "/things/:id",
        operationId: "postThing",
        tags: ["test"],
        summary: "s",
        description: "d",
        request: { params: z.object({ id: z.string() }), body: Body },
        responses: {},
        before: (d) => [
          (_req, _res, next) => {
            d.seen.push("before");
            next();
          },
        ],
        handler: ({ req, res, body }, d) => {
          // The handler's own check first: a missing thing is 404 whatever the body.
          if (req.params.id !== "known") throw new AppError("not_found", "no such thing");
          d.seen.push("handler");
          res.status(201).json(body());
        },
      }),
      route({
        method: "get",
        path: "/things",
        operationId: "listThings",
        tags: ["test"],
        summary: "s",
        description: "d",
        request: { query: Query },
        responses: {},
        handler: ({ res, query }) => {
          res.json(query());
        },
      }),
    ];
    const deps = { seen: [] as string[] };

    before(async () => {
      const app = express();
      const router = express.Router();
      router.use(jsonBody());
      app.use("/api", mountRoutes(router, routes, deps));
      app.use(errorHandler(createLogger("silent"), "http://127.0.0.1"));
      server = app.listen(0, "127.0.0.1");
      await new Promise((r) => server.once("listening", r));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
    });
    after(() => new Promise((r) => server.close(r)));

    const post = (path: string, body: unknown) =>
      fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

    it("parses the body with the declared schema when the handler asks, after its own checks and the route's middleware", async () => {
      assert.equal((await post("/things/unknown", { n: "x" })).status, 404);
      const bad = await post("/things/known", { n: "x" });
      assert.equal(bad.status, 400);
      assert.match(((await bad.json()) as { detail: string }).detail, /^invalid body: n: /);
      const ok = await post("/things/known", { n: 3 });
      assert.equal(ok.status, 201);
      assert.deepEqual(await ok.json(), { n: 3 });
      assert.deepEqual(deps.seen, ["before", "before", "handler", "before", "handler"]);
    });

    it("parses the query with the declared schema", async () => {
      assert.deepEqual(await (await fetch(`${base}/things?limit=5`)).json(), { limit: "5" });
      const bad = await fetch(`${base}/things?limit=x`);
      assert.equal(bad.status, 400);
      assert.match(((await bad.json()) as { detail: string }).detail, /^invalid query: limit: /);
    });
  });

  it("enters each routes file's router only for the first path segments of its operations", async () => {
    const lists = await routeLists();
    for (const { file, name, list } of lists) {
      // The operations' methods and paths on a router, as mountRoutes puts them (without their handlers' deps).
      const router = express.Router();
      for (const r of list) router[r.method](r.path, (_req, _res, next) => next());
      const segments = firstSegments(router);
      assert.notEqual(segments, "all", `${file} ${name}: a route begins with a parameter, so its router is entered for every request`);
      for (const r of list) assert.ok((segments as Set<string>).has(r.path.split("/")[1]), `${file} ${name}: ${r.path}`);
    }
    assert.ok(lists.length > 5);
  });

  it("passes a request over a router whose paths it cannot match, and into one that may match it", async () => {
    const games = express.Router();
    games.get("/games/:id", (req, res) => void res.send(`game ${req.params.id}`));
    const catchAll = express.Router();
    catchAll.use((_req, res, next) => (res.setHeader("x-entered", "yes"), next()));
    const app = express();
    app.use(enteredByFirstSegment(games));
    app.use(enteredByFirstSegment(catchAll));
    app.use((_req, res) => void res.status(404).send("past every router"));
    const server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      assert.equal(await (await fetch(`${base}/games/g1`)).text(), "game g1");
      // Express matches paths case-insensitively, and the check does too.
      assert.equal(await (await fetch(`${base}/GAMES/g2`)).text(), "game g2");
      const other = await fetch(`${base}/players/p1`);
      assert.equal(await other.text(), "past every router");
      assert.equal(other.headers.get("x-entered"), "yes", "a router with a middleware for every path is entered for every request");
      assert.equal(firstSegments(catchAll), "all");
    } finally {
      server.close();
    }
  });
});
