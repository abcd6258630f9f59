/**
 * How MCP answers: a tool returns its body as JSON text plus `structuredContent`; a refused tool call is an
 * `isError` result carrying the same stable code and detail as the REST problem document, so one failed
 * call never ends the session. Custom JSON-RPC methods (events/*) answer refusals as JSON-RPC errors.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { AppError, ERROR_CODES, isAppError, type ErrorCode } from "../../shared/errors";
import type { Logger } from "../../shared/logger";

/** JSON-RPC error codes. -32015 is fixed by the spec for a refused callback; -32000 is ours for the rest. */
export const RPC = { invalidParams: -32602, internal: -32603, callbackRefused: -32015, refused: -32000 } as const;

export function toolResult(body: unknown): CallToolResult {
  const structured = body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : { value: body };
  return { content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: structured };
}

/** The problem members an agent needs to act on a refusal (`hint` tells it what to do next). */
function problemOf(e: AppError) {
  return { code: e.code, status: e.status, detail: e.detail, hint: ERROR_CODES[e.code].hint, ...e.extra };
}

/** Unknown errors are logged here (they are bugs) and answered as `internal` without their message. */
export function asAppError(err: unknown, log: Logger, what: string): AppError {
  if (isAppError(err)) return err;
  log.error({ err, what }, "mcp handler failed");
  return new AppError("internal", "an unexpected error occurred");
}

export function toolError(e: AppError): CallToolResult {
  const problem = problemOf(e);
  return { isError: true, content: [{ type: "text", text: JSON.stringify(problem) }], structuredContent: problem };
}

/** A JSON-RPC error the SDK passes through as-is (it reads `code`, `message` and `data`). */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: Record<string, unknown>,
  ) {
    super(message);
    this.name = "RpcError";
  }
}

const RPC_CODE: Partial<Record<ErrorCode, number>> = { bad_request: RPC.invalidParams, callback_refused: RPC.callbackRefused };

export function rpcError(e: AppError): RpcError {
  return new RpcError(RPC_CODE[e.code] ?? (e.code === "internal" ? RPC.internal : RPC.refused), e.detail, problemOf(e));
}
