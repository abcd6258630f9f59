/**
 * Colyseus answers a refused matchmaking request with its own status codes (520 to 526, outside HTTP's
 * client-error range) and a `{code, error}` body whose text may be an exception's message. This turns every
 * such answer into the service's problem document with a 4xx status (5xx only for the server's own
 * failures), before a byte of it is sent.
 */
import type { ServerResponse } from "node:http";
import { AppError, roomRefusalOf, type ErrorCode } from "../../shared/errors";
import type { Logger } from "../../shared/logger";
import { problemBody } from "./problem";

/** Colyseus' matchmaking codes (ErrorCode in @colyseus/shared-types), as the client should read them. */
const COLYSEUS: Record<number, [ErrorCode, string]> = {
  520: ["not_found", "not found: no room type or matchmaking method of that name"],
  521: ["bad_request", "no room matches these criteria"],
  522: ["not_found", "room not found: it may have ended, or no process holds it any more"],
  523: ["bad_request", "the matchmaking request was refused: check its method and options"],
  524: ["code_expired", "the reconnection token is invalid or expired: join the game again"],
  525: ["unauthorized", "matchmaking authentication failed"],
  526: ["bad_request", "the room refused the request"],
};

function messageOf(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { error?: unknown };
    return typeof parsed.error === "string" ? parsed.error : undefined;
  } catch {
    return undefined;
  }
}

/** The problem a Colyseus refusal stands for. Only our rooms' own messages reach the client. */
export function matchmakingRefusal(status: number, body: string, log: Logger): AppError {
  const known = COLYSEUS[status];
  if (known) {
    // Colyseus' text may be an exception thrown while creating or joining a room: logged, never sent.
    log.info({ status, reason: messageOf(body) }, "matchmaking request refused");
    return new AppError(known[0], known[1]);
  }
  // A 4xx status a room chose, directly or as a socket code (4000 + status): errors.ts' ROOM_CODES.
  const http = status >= 4000 && status < 4600 ? status - 4000 : status;
  if (http === 503) return new AppError("unavailable", "the server is shutting down; retry shortly");
  if (http >= 400 && http < 500) {
    // A room's ServerError (ours, worded for clients) or Colyseus' own malformed-body answer.
    const detail = messageOf(body) ?? "the matchmaking request was refused";
    return new AppError(roomRefusalOf(http) ?? "bad_request", detail, {}, http);
  }
  log.error({ status, reason: messageOf(body) ?? body.slice(0, 200) }, "matchmaking request failed");
  return new AppError("internal", "an unexpected error occurred");
}

/** Colyseus streams its body as Uint8Array chunks (a web Response's reader). */
const toBuffer = (chunk: unknown): Buffer =>
  chunk instanceof Uint8Array ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength) : Buffer.from(String(chunk));

/**
 * Holds any answer of 400 or more that is not already a problem document, and sends the problem it stands
 * for instead. Installed on a matchmaking response just before Colyseus handles it.
 */
export function refusalsAsProblems(res: ServerResponse, docsBase: string, log: Logger): void {
  type Variadic<T> = (...args: unknown[]) => T;
  const original = {
    writeHead: res.writeHead.bind(res) as Variadic<ServerResponse>,
    write: res.write.bind(res) as Variadic<boolean>,
    end: res.end.bind(res) as Variadic<ServerResponse>,
  };
  let held: Buffer[] | null = null;
  let status = 0;
  const restore = () => Object.assign(res, original);
  res.writeHead = (code: number, ...rest: unknown[]) => {
    const type = String(res.getHeader("content-type") ?? "");
    if (code < 400 || type.startsWith("application/problem+json")) {
      restore();
      return original.writeHead(code, ...rest);
    }
    held = [];
    status = code;
    return res;
  };
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (!held) return original.write(chunk, ...rest);
    held.push(toBuffer(chunk));
    return true;
  }) as typeof res.write;
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (!held) return original.end(chunk, ...rest);
    if (chunk !== undefined && typeof chunk !== "function") held.push(toBuffer(chunk));
    restore();
    const e = matchmakingRefusal(status, Buffer.concat(held).toString("utf8"), log);
    // `message` is what Colyseus' SDK shows as the error's text (it reads `message`, then `error`).
    const body = JSON.stringify({ ...problemBody(e, docsBase), message: e.detail });
    res.statusCode = e.status;
    res.setHeader("content-type", "application/problem+json");
    res.setHeader("content-length", Buffer.byteLength(body));
    return original.end(body);
  }) as typeof res.end;
}
