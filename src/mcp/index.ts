/**
 * The MCP server's public face: `createMcpRouter(deps)` returns an Express router to mount at `/mcp`
 * (Streamable HTTP: POST for requests, DELETE to end a session) and `close()` for shutdown. Each session
 * is one McpServer + transport, found again by the `mcp-session-id` header; idle sessions are ended.
 */
import { randomUUID } from "node:crypto";
import express, { type ErrorRequestHandler, type Request, type Response, type Router } from "express";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { limiter, type LimiterOptions } from "../api/edges";
import type { Events } from "../events";
import type { GameService } from "../games/service";
import type { QuickMatch } from "../games/quick-match";
import type { Logger } from "../logger";
import type { PlayerService } from "../players/service";
import { createSessionServer } from "./session-server";

export interface McpDeps {
  games: GameService;
  quick: QuickMatch;
  players: PlayerService;
  events: Pick<Events, "subscriptions">;
  log: Logger;
  /** The per-IP limiter options of the API (the `mcp` policy: 120 requests per minute). */
  limits: LimiterOptions;
  /** A session unused for this long is ended. Default 30 minutes. */
  idleMs?: number;
  /** Sessions open at once; beyond it new sessions are refused with 503. Default 5000. */
  maxSessions?: number;
}

export type McpRouter = Router & { close(): Promise<void> };

interface Session { transport: StreamableHTTPServerTransport; mcp: McpServer; lastSeen: number }

/** A JSON-RPC error sent outside any session (the SDK answers inside one). */
function rpcFailure(res: Response, status: number, code: number, message: string): void {
  res.status(status).json({ jsonrpc: "2.0", id: null, error: { code, message } });
}

// The API's JSON parser is mounted on /api only; a malformed body here is a JSON-RPC parse error.
const jsonErrors: ErrorRequestHandler = (err: { type?: string }, _req, res, next) => {
  if (err?.type === "entity.parse.failed") return rpcFailure(res, 400, -32700, "parse error: the body is not valid JSON");
  if (err?.type === "entity.too.large") return rpcFailure(res, 413, -32600, "the request body is larger than 64 KiB");
  next(err);
};

export function createMcpRouter(deps: McpDeps): McpRouter {
  const idleMs = deps.idleMs ?? 30 * 60_000;
  const maxSessions = deps.maxSessions ?? 5000;
  const sessions = new Map<string, Session>();
  const router = express.Router() as McpRouter;

  const sweep = setInterval(() => {
    const cutoff = Date.now() - idleMs;
    for (const s of sessions.values()) if (s.lastSeen < cutoff) void s.mcp.close();
  }, Math.min(60_000, idleMs));
  sweep.unref();

  router.use(limiter("mcp", deps.limits));
  router.use(express.json({ limit: "64kb", type: ["application/json", "application/*+json"] }), jsonErrors);

  const existing = (req: Request, res: Response): Session | undefined => {
    const id = req.get("mcp-session-id");
    const s = id ? sessions.get(id) : undefined;
    if (!id) rpcFailure(res, 400, -32000, "no mcp-session-id header: start with an initialize request");
    else if (!s) rpcFailure(res, 404, -32001, "unknown or expired session: initialize a new one");
    // Counted from the end of a request too, so a long sync does not make its own session look idle.
    if (s) {
      s.lastSeen = Date.now();
      res.on("finish", () => (s.lastSeen = Date.now()));
    }
    return s;
  };

  router.post("/", async (req, res) => {
    if (req.get("mcp-session-id") || !isInitializeRequest(req.body)) {
      const s = existing(req, res);
      return s && s.transport.handleRequest(req, res, req.body);
    }
    if (sessions.size >= maxSessions) return rpcFailure(res, 503, -32000, "too many open sessions; retry shortly");
    const mcp = createSessionServer({ ...deps, version: "1.0.0" });
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // Plain JSON answers: nothing here is streamed, and it keeps the endpoint usable with curl.
      enableJsonResponse: true,
      onsessioninitialized: (id) => void sessions.set(id, { transport, mcp, lastSeen: Date.now() }),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await mcp.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });

  router.delete("/", async (req, res) => {
    const s = existing(req, res);
    if (s) await s.transport.handleRequest(req, res);
  });

  // The service sends no server-initiated messages (events go to webhooks), so no standing SSE stream:
  // the Streamable HTTP spec lets a server answer this GET with 405.
  router.get("/", (_req, res) => {
    res.setHeader("Allow", "POST, DELETE");
    rpcFailure(res, 405, -32000, "this server offers no SSE stream; send requests with POST");
  });

  router.close = async () => {
    clearInterval(sweep);
    await Promise.allSettled([...sessions.values()].map((s) => s.mcp.close()));
    sessions.clear();
  };
  return router;
}
