/**
 * One span per HTTP request the Express app answers, named by its route (`POST /api/v1/games/:id/moves`)
 * once routing has found it, with the standard HTTP attributes. A `traceparent` header from the caller makes
 * it a child of the caller's trace. `url.path` is written without the capabilities some paths carry (an
 * agent challenge's token): a trace collector is not a place for them.
 */
import { context, propagation, trace, SpanKind, SpanStatusCode } from "@opentelemetry/api";
import type { NextFunction, Request, Response } from "express";
import { redactPath } from "../redaction";

export function tracingMiddleware() {
  return (req: Request, res: Response, next: NextFunction) => {
    const parent = propagation.extract(context.active(), req.headers);
    const span = trace
      .getTracer("tile-arena")
      .startSpan(`${req.method}`, { kind: SpanKind.SERVER, attributes: { "http.request.method": req.method, "url.path": redactPath(req.path) } }, parent);
    // The route's full path is known only while its router runs: Express resets req.baseUrl when a
    // request leaves a router (as a refusal does, on its way to the app's error handler). So the route is
    // read when the router assigns req.route, with the baseUrl of that moment.
    let route: string | undefined;
    let matched: unknown;
    Object.defineProperty(req, "route", {
      configurable: true,
      enumerable: true,
      get: () => matched,
      set: (value: { path?: unknown } | undefined) => {
        matched = value;
        if (typeof value?.path === "string") route = req.baseUrl + value.path;
      },
    });
    res.on("finish", () => {
      if (route) {
        span.setAttribute("http.route", route);
        span.updateName(`${req.method} ${route}`);
      }
      span.setAttribute("http.response.status_code", res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    context.with(trace.setSpan(parent, span), next);
  };
}
