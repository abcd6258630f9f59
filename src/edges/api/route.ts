/**
 * A REST operation declared once: its path, its OpenAPI facts (operationId, texts, security, request and
 * answer schemas) and its Express handler side by side. Each file of ./routes exports its list of
 * declarations; `mountRoutes` puts a list on an Express router in order (order decides between overlapping
 * paths: `/bots/me` before `/bots/:id`), and ./openapi/document.ts builds the OpenAPI document from the same
 * lists (test/server/route-declarations.test.ts checks it holds every list), so an operation is not served
 * undocumented, nor documented with other schemas than its body and query are parsed with.
 *
 * Handlers are plain functions of the request and of the deps the mount passes, so the lists are module
 * constants: the document is built without a running server (scripts/client-types.ts).
 */
import type { RouteConfig } from "@asteasolutions/zod-to-openapi";
import type { Request, RequestHandler, Response, Router } from "express";
import type { z } from "zod";
import { parse } from "../../shared/validation";

type Method = "get" | "post" | "delete";
type Schema = z.ZodType | undefined;
/** What the document takes as a query: an object (or one piped through a transform). */
type QuerySchema = NonNullable<NonNullable<RouteConfig["request"]>["query"]>;
/** A parse of the declared schema; no function where nothing is declared. */
type Parser<S extends Schema> = S extends z.ZodType ? () => z.output<S> : undefined;

/** What a handler is given: the request and answer, and the declared body and query parsed on demand. */
export interface RouteContext<B extends Schema, Q extends QuerySchema | undefined> {
  req: Request;
  res: Response;
  /**
   * The JSON body parsed with the declared `request.body` (bad_request "invalid body: ..." when it does not
   * fit). Parsed when called, not before the handler, so what the handler checks first (the path's id, the
   * token) still answers first.
   */
  body: Parser<B>;
  /** The query parsed with the declared `request.query`, when called (bad_request "invalid query: ..."). */
  query: Parser<Q>;
}

export interface RouteDeclaration<D, B extends Schema, Q extends QuerySchema | undefined> {
  method: Method;
  /** Express syntax: `:name` is one segment, `*name` the rest of the path; `openApiPath` spells them `{name}`. */
  path: string;
  operationId: string;
  tags: string[];
  summary: string;
  description: string;
  deprecated?: true;
  /** Absent: the document's default, anonymous. */
  security?: RouteConfig["security"];
  request?: {
    /** A JSON body: published as the operation's request body and parsed by `ctx.body()`. */
    body?: B;
    /** The example the document shows for the body. */
    bodyExample?: B extends z.ZodType ? z.input<B> : never;
    /** Published as the query parameters and parsed by `ctx.query()`. */
    query?: Q;
    /** Published only: path values are checked by the handler (./routes/path-id.ts), which names what was not found. */
    params?: z.ZodObject;
    /** Published only. */
    headers?: z.ZodObject;
  };
  responses: NonNullable<RouteConfig["responses"]>;
  /** Route middleware made once at mount time (a limiter, a deprecation header); it runs before the handler. */
  before?: (deps: D) => RequestHandler[];
  handler(ctx: RouteContext<B, Q>, deps: D): unknown;
}

/** A declaration with its schema types erased: what lists hold, what the mount and the document read. */
export interface Route<D> extends Omit<RouteDeclaration<D, Schema, QuerySchema>, "handler" | "request"> {
  request?: { body?: z.ZodType; bodyExample?: unknown; query?: QuerySchema; params?: z.ZodObject; headers?: z.ZodObject };
  handler(ctx: RouteContext<Schema, QuerySchema>, deps: D): unknown;
}

/** Declares one operation; the schema types of `request` type the handler's `ctx.body()` and `ctx.query()`. */
export function route<D, B extends Schema = undefined, Q extends QuerySchema | undefined = undefined>(declaration: RouteDeclaration<D, B, Q>): Route<D> {
  return declaration as unknown as Route<D>;
}

/** The one conversion between the two path syntaxes: Express's `:id` and `*path` are OpenAPI's `{id}` and `{path}`. */
export function openApiPath(expressPath: string): string {
  return expressPath.replace(/[:*]([A-Za-z_][A-Za-z0-9_]*)/g, "{$1}");
}

/** The declaration as the OpenAPI registry takes it. */
export function routeConfig(r: Route<never>): RouteConfig {
  const { body, bodyExample, query, params, headers } = r.request ?? {};
  const request = {
    ...(params && { params }),
    ...(query && { query }),
    ...(headers && { headers }),
    ...(body && { body: { content: { "application/json": { schema: body, ...(bodyExample !== undefined && { example: bodyExample }) } } } }),
  };
  return {
    method: r.method,
    path: openApiPath(r.path),
    tags: r.tags,
    operationId: r.operationId,
    ...(r.deprecated && { deprecated: r.deprecated }),
    ...(r.security && { security: r.security }),
    summary: r.summary,
    description: r.description,
    ...(Object.keys(request).length > 0 && { request }),
    responses: r.responses,
  };
}

/** Adds the routes to `router` in their order, each with its middleware and a handler given `deps`. */
export function mountRoutes<D>(router: Router, routes: readonly Route<D>[], deps: D): Router {
  for (const r of routes) {
    const { body, query } = r.request ?? {};
    const handle = (req: Request, res: Response) => {
      const ctx = {
        req,
        res,
        body: body && (() => parse(body, req.body, "body")),
        query: query && (() => parse(query, req.query, "query")),
      };
      // Express 5 passes a rejected promise (or a throw) on to the error handler.
      return r.handler(ctx as RouteContext<Schema, QuerySchema>, deps);
    };
    router[r.method](r.path, ...(r.before?.(deps) ?? []), handle);
  }
  return router;
}

/**
 * `router` behind a check of the request path's first segment: Express tries a router's layers one by one,
 * so every /api request walked every route of every router mounted before the one that answers it. The
 * segments are read from the router's own layers at its first request (the routes are all declared by then):
 * a layer whose first segment is a parameter, a pattern or absent (a middleware for every path) makes the
 * router entered for every request. Express matches paths case-insensitively; so does the check.
 */
export function enteredByFirstSegment(router: Router): RequestHandler {
  let segments: Set<string> | "all" | null = null;
  return (req, res, next) => {
    segments ??= firstSegments(router);
    if (segments === "all" || segments.has(firstSegment(req.path))) return router(req, res, next);
    next();
  };
}

const firstSegment = (path: string) => path.split("/", 2)[1]?.toLowerCase() ?? "";

/** The first path segments of a router's layers, or "all" when a layer may match any. */
export function firstSegments(router: Router): Set<string> | "all" {
  const found = new Set<string>();
  for (const layer of router.stack as Array<{ rawPath?: unknown }>) {
    const path = layer.rawPath;
    if (typeof path !== "string") return "all";
    const segment = firstSegment(path);
    if (segment === "" || /[:*{}()?+]/.test(segment)) return "all";
    found.add(segment);
  }
  return found;
}
