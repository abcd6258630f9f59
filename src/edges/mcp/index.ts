/**
 * The MCP server's public face: `createMcpRouter(deps)` returns an Express router to mount at `/mcp`
 * (Streamable HTTP: POST for requests, DELETE to end a session) and `close()` for shutdown. Each session
 * is one McpServer + transport, found again by the `mcp-session-id` header; idle sessions are ended.
 */
import { randomUUID } from "node:crypto";
import { DEFAULTS } from "../../shared/config";
import express, { type ErrorRequestHandler, type Request, type Response, type Router } from "express";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { limiter, type LimiterOptions } from "../api/edges";
import type { LongPolls } from "../api/long-polls";
import type { Events } from "../../services/events";
import type { GameCreation } from "../../services/games/creation";
import type { GamePlay } from "../../services/games/play";
import type { GameReads } from "../../services/games/reads";
import type { QuickMatch } from "../../services/games/quick-match";
import type { Logger } from "../../shared/logger";
import type { PlayerService } from "../../services/players/service";
import type { JoinCaps } from "../api/join-caps";
import type { TournamentService } from "../../services/tournaments";
import type { LeagueService } from "../../services/leagues";
import type { BotDirectory } from "../../services/bots/directory";
import type { LogService } from "../../services/log/service";
import { createSessionServer } from "./session-server";

export interface McpDeps {
  gameCreation: GameCreation;
  gamePlay: GamePlay;
  gameReads: GameReads;
  quick: QuickMatch;
  players: PlayerService;
  tournaments: TournamentService;
  /** The caps on tournament joins per minute, shared with REST (absent: no cap). */
  tournamentJoins?: JoinCaps;
  leagues: LeagueService;
  /** The bot directory (GET /bots). */
  bots: BotDirectory;
  /** The public game log's reads. */
  publicLog: LogService;
  events: Pick<Events, "subscriptions">;
  log: Logger;
  /** The per-IP limiter options of the API (the `mcp` policy: 120 requests per minute). */
  limits: LimiterOptions;
  /** A session unused for this long is ended (config MCP_IDLE_S). Default 5 minutes. */
  idleMs?: number;
  /** Sessions open at once; beyond it new sessions are refused with 503 (config MCP_MAX_SESSIONS). Default 5000. */
  maxSessions?: number;
  /** Sessions one client address may hold; beyond it 429 (config MCP_SESSIONS_PER_ADDRESS). Default 20. */
  sessionsPerAddress?: number;
  /** Long-polls waiting per address, shared with REST. */
  longPolls: LongPolls;
  /** Largest request body, in bytes (config MAX_BODY_BYTES). Default 64 KiB. */
  maxBodyBytes?: number;
}

export type McpRouter = Router & { close(): Promise<void> };

interface Session {
  transport: StreamableHTTPServerTransport;
  mcp: McpServer;
  lastSeen: number;
  address: string;
}

/** A JSON-RPC error sent outside any session (the SDK answers inside one). */
function rpcFailure(res: Response, status: number, code: number, message: string): void {
  res.status(status).json({ jsonrpc: "2.0", id: null, error: { code, message } });
}

// The API's JSON parser is mounted on /api only; a malformed body here is a JSON-RPC parse error.
const jsonErrors: ErrorRequestHandler = (err: { type?: string }, _req, res, next) => {
  if (err?.type === "entity.parse.failed") return rpcFailure(res, 400, -32700, "parse error: the body is not valid JSON");
  if (err?.type === "entity.too.large")
    return rpcFailure(res, 413, -32600, `the request body is larger than ${(err as { limit?: number }).limit ?? DEFAULTS.maxBodyBytes} bytes`);
  next(err);
};

export function createMcpRouter(deps: McpDeps): McpRouter {
  const idleMs = deps.idleMs ?? DEFAULTS.mcpIdleS * 1000;
  const maxSessions = deps.maxSessions ?? DEFAULTS.mcpMaxSessions;
  const perAddress = deps.sessionsPerAddress ?? DEFAULTS.mcpSessionsPerAddress;
  const sessions = new Map<string, Session>();
  /** Open sessions per client address: one address cannot fill the process-wide cap. */
  const byAddress = new Map<string, number>();
  const router = express.Router() as McpRouter;

  // Checked five times per idle period, so a session ends at most 20% past its idle time.
  const sweep = setInterval(
    () => {
      const cutoff = Date.now() - idleMs;
      for (const s of sessions.values()) if (s.lastSeen < cutoff) void s.mcp.close();
    },
    Math.max(1000, Math.min(60_000, idleMs / 5)),
  );
  sweep.unref();

  const opened = (id: string, s: Session) => {
    sessions.set(id, s);
    byAddress.set(s.address, (byAddress.get(s.address) ?? 0) + 1);
  };
  const closed = (id: string) => {
    const s = sessions.get(id);
    if (!s) return;
    sessions.delete(id);
    const left = (byAddress.get(s.address) ?? 1) - 1;
    if (left > 0) byAddress.set(s.address, left);
    else byAddress.delete(s.address);
  };

  router.use(limiter("mcp", deps.limits));
  router.use(express.json({ limit: deps.maxBodyBytes ?? DEFAULTS.maxBodyBytes, type: ["application/json", "application/*+json"] }), jsonErrors);

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
    // A batch would run up to a hundred calls (a hundred creates, a hundred long-polls) as one request of
    // the rate limit. MCP 2025-06-18 removed JSON-RPC batching, so a batch is refused as a whole.
    if (Array.isArray(req.body)) {
      return rpcFailure(res, 400, -32600, "invalid request: JSON-RPC batches are not supported (removed in MCP 2025-06-18); send one request per POST");
    }
    if (req.get("mcp-session-id") || !isInitializeRequest(req.body)) {
      const s = existing(req, res);
      return s && s.transport.handleRequest(req, res, req.body);
    }
    const address = req.ip ?? req.socket.remoteAddress ?? "unknown";
    if ((byAddress.get(address) ?? 0) >= perAddress) {
      res.setHeader("Retry-After", String(Math.ceil(idleMs / 1000)));
      return rpcFailure(res, 429, -32000, `this address holds ${perAddress} open sessions, the most allowed: end one (DELETE /mcp) or let one go idle`);
    }
    if (sessions.size >= maxSessions) return rpcFailure(res, 503, -32000, "too many open sessions; retry shortly");
    const mcp = createSessionServer({ ...deps, version: "1.0.0", address });
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // Plain JSON answers: nothing here is streamed, and it keeps the endpoint usable with curl.
      enableJsonResponse: true,
      onsessioninitialized: (id) => opened(id, { transport, mcp, lastSeen: Date.now(), address }),
    });
    transport.onclose = () => {
      if (transport.sessionId) closed(transport.sessionId);
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
    byAddress.clear();
  };
  return router;
}
