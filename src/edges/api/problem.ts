/**
 * The one error path of the REST surface: every error becomes an RFC 9457 problem document with the
 * spec's members (status, error, code, hint, type, title, detail, docs) plus any extra members.
 */
import type { ErrorRequestHandler, RequestHandler, Response } from "express";
import { DEFAULTS } from "../../shared/config";
import { AppError, ERROR_CODES } from "../../shared/errors";
import type { Logger } from "../../shared/logger";

/** Problem `type` URIs and `docs` links both resolve on the service itself (src/edges/docs serves them). */
export function problemBody(e: AppError, docsBase: string) {
  const meta = ERROR_CODES[e.code];
  return {
    type: `${docsBase}/problems/${e.code}`,
    title: meta.title,
    status: e.status,
    detail: e.detail,
    error: meta.title,
    code: e.code,
    hint: meta.hint,
    docs: `${docsBase}/docs/errors#${e.code}`,
    ...e.extra,
  };
}

export function sendProblem(res: Response, e: AppError, docsBase: string): void {
  // A refusal that knows when to come back (a game moving to another process) says so the standard way.
  if (typeof e.extra.retryAfter === "number") res.setHeader("Retry-After", String(e.extra.retryAfter));
  res
    .status(e.status)
    .type("application/problem+json")
    .send(JSON.stringify(problemBody(e, docsBase)));
}

/** Maps what Express and body-parser throw onto our codes; anything unknown is a logged 500. */
function toAppError(err: unknown, log: Logger): AppError {
  if (err instanceof AppError) return err;
  const e = err as { type?: string; status?: number; statusCode?: number; message?: string; limit?: number };
  const status = e?.status ?? e?.statusCode;
  if (e?.type === "entity.parse.failed") return new AppError("bad_request", "the request body is not valid JSON");
  if (e?.type === "entity.too.large") return new AppError("payload_too_large", `the request body is larger than ${e.limit ?? DEFAULTS.maxBodyBytes} bytes`);
  if (e?.type === "encoding.unsupported" || e?.type === "charset.unsupported") return new AppError("bad_request", "unsupported body encoding");
  if (status && status >= 400 && status < 500) return new AppError("bad_request", e.message ?? "bad request", {}, status);
  log.error({ err }, "unhandled error");
  return new AppError("internal", "an unexpected error occurred");
}

export function errorHandler(log: Logger, docsBase: string): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    if (res.headersSent) return;
    sendProblem(res, toAppError(err, log), docsBase);
  };
}

export const notFoundHandler: RequestHandler = (req, _res, next) => next(new AppError("not_found", `no route for ${req.method} ${req.path}`));
