/**
 * Colyseus' WebSocket transport with the limits it leaves to the application. Colyseus answers every frame
 * a socket sends (a PING with a PING, a socket with no room with a PING for a second) and only counts room
 * messages against a rate, so one socket could keep the event loop busy. Here:
 * - an upgrade without a seat reservation in a room of this process is refused before the handshake (checked on
 *   the raw request: Colyseus' `beforeUpgrade` hook would build a fetch Request and its Headers for every socket);
 * - every frame counts against the socket's budget, whatever its protocol type; past it the socket is closed;
 * - a frame sent before the socket has joined its room closes it (the SDK sends nothing until it has);
 * - a room request (protocol 21, which expects a reply) closes the socket before any room sees it: no room
 *   here answers requests, and Colyseus would hand it to a message handler with shifted arguments and send
 *   the handler's error text back;
 * - socket errors (malformed frames) are logged once per connection through the structured logger;
 * - the heartbeat pings a slice of the sockets at a time instead of all of them at once, and skips a socket
 *   that sent a frame since its last visit (./heartbeat.ts).
 */
import { STATUS_CODES, type IncomingMessage, type Server } from "node:http";
import type { Duplex } from "node:stream";
import { createAuthContext, matchMaker } from "@colyseus/core";
import { WebSocketTransport } from "@colyseus/ws-transport";
import type { WebSocket } from "ws";
import { problemBody } from "../api/problem";
import { AppError, ROOM_CODES } from "../../shared/errors";
import type { Logger } from "../../shared/logger";
import { FrameBudget } from "./frame-budget";
import { StaggeredHeartbeat, type Pingable } from "./heartbeat";
import { ConnectionScope, RateLimitedLog } from "./log-once";

export interface GuardOptions {
  /** Frames per second per socket (config `WS_FRAMES_PER_SECOND`). */
  framesPerSecond: number;
  /** Largest frame, in bytes; a larger one closes the socket (1009). */
  maxPayload: number;
  log: Logger;
  /** Origin used for the problem documents' `docs` links. */
  baseUrl: string;
  /** Proxies in front of the service whose X-Forwarded-For is trusted (config TRUST_PROXY). */
  trustProxy: number;
}

/** The close code of a socket past its budget or talking out of turn (a policy violation, in the 4xxx range). */
export const CLOSE_POLICY = ROOM_CODES.policy;
/** Colyseus' ROOM_REQUEST protocol byte (Protocol.ROOM_REQUEST in @colyseus/shared-types). */
const ROOM_REQUEST = 21;

/** The first byte of a `ws` message, whatever form the library hands it over in. */
function firstByte(data: unknown): number | undefined {
  if (Buffer.isBuffer(data)) return data[0];
  if (Array.isArray(data)) return firstByte(data[0]);
  if (data instanceof ArrayBuffer) return new Uint8Array(data)[0];
  return undefined;
}

/** How long a closed socket may take to finish the close handshake before it is cut. */
const CLOSE_GRACE_MS = 1000;

/** Colyseus' socket URL: `/<processId>/<roomId>?sessionId=...[&reconnectionToken=...]`. */
export function reservationOf(url: URL): { roomId: string; sessionId: string; reconnectionToken?: string } | null {
  const roomId = /\/[a-zA-Z0-9_-]+\/([a-zA-Z0-9_-]+)$/.exec(url.pathname)?.[1];
  const sessionId = url.searchParams.get("sessionId");
  if (!roomId || !sessionId) return null;
  return { roomId, sessionId, reconnectionToken: url.searchParams.get("reconnectionToken") ?? undefined };
}

/** True when a room of this process holds a seat (or a reconnection) for the socket's session. */
export function hasReservation(url: URL): boolean {
  const r = reservationOf(url);
  if (!r) return false;
  const room = matchMaker.getLocalRoomById(r.roomId) as { hasReservedSeat(sessionId: string, token?: string): boolean } | undefined;
  return Boolean(room?.hasReservedSeat(r.sessionId, r.reconnectionToken));
}

/**
 * The client's address as Express computes it for the same TRUST_PROXY: the socket's peer, or the entry
 * of X-Forwarded-For that many hops back. Colyseus' own `context.ip` believes any forwarding header, which
 * would let one client pose as many addresses.
 */
export function clientAddress(req: IncomingMessage, trustProxy: number): string | undefined {
  const forwarded = String(req.headers["x-forwarded-for"] ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const chain = [req.socket.remoteAddress, ...forwarded.reverse()];
  return chain[Math.min(trustProxy, chain.length - 1)];
}

/** Answers an upgrade without a seat reservation with a 403 problem document and closes the socket. */
function refuseUpgrade(socket: Duplex, docs: string): void {
  const e = new AppError("forbidden", "no seat reservation for this socket: join through matchmaking (joinById) first");
  const body = JSON.stringify(problemBody(e, docs));
  const head = [
    `HTTP/1.1 ${e.status} ${STATUS_CODES[e.status] ?? ""}`,
    "Content-Type: application/problem+json",
    "API-Version: 1",
    `Content-Length: ${Buffer.byteLength(body)}`,
    "Connection: close",
  ];
  // The HTTP server stops watching a socket for errors once it hands it to "upgrade" listeners: a client that
  // resets while the refusal is written (ECONNRESET, EPIPE) would otherwise be an uncaught error that ends the process.
  socket.on("error", () => socket.destroy());
  socket.end(`${head.join("\r\n")}\r\n\r\n${body}`);
}

interface Connection {
  ip: string | undefined;
  joined: boolean;
  cut: boolean;
  errorLogged: boolean;
}

export class GuardedTransport extends WebSocketTransport {
  /** The connection whose frame is being handled (for colyseusLogger). */
  readonly scope = new ConnectionScope();
  private readonly guard: GuardOptions;
  private readonly warnings: RateLimitedLog;

  constructor(guard: GuardOptions) {
    super({ maxPayload: guard.maxPayload });
    this.guard = guard;
    this.warnings = new RateLimitedLog(guard.log);
    // The base class registers its handler unbound; re-register it bound so the override can reach `this`.
    this.wss.removeAllListeners("connection");
    this.wss.on("connection", (raw: WebSocket & Pingable, req: IncomingMessage, upgrade?: unknown) => {
      void this.onConnection(raw, req, upgrade);
    });
  }

  protected override async onConnection(raw: WebSocket & Pingable, req: IncomingMessage, upgrade?: unknown): Promise<void> {
    const conn: Connection = { ip: clientAddress(req, this.guard.trustProxy), joined: false, cut: false, errorLogged: false };
    const budget = new FrameBudget(this.guard.framesPerSecond);
    // An unprompted frame (a message or a ping, not a pong answering ours) must come after the join, and
    // shows the socket is alive: the heartbeat skips it on its next pass.
    const count = (unprompted: boolean) => () => {
      this.scope.enter(conn);
      if (conn.cut) return;
      if (unprompted) raw.heard = true;
      if (unprompted && !conn.joined) this.cut(raw, conn, "sent a frame before joining its room");
      else if (!budget.take()) this.cut(raw, conn, `more than ${this.guard.framesPerSecond} frames per second`);
    };
    // Registered before the room's own listener, so the budget is checked first for every frame.
    raw.on("message", count(true));
    // A listener cannot keep a frame from the listeners after it, so room requests are stopped at emit.
    const emit = raw.emit.bind(raw) as (event: string | symbol, ...args: unknown[]) => boolean;
    raw.emit = ((event: string | symbol, ...args: unknown[]) => {
      if (event !== "message" || firstByte(args[0]) !== ROOM_REQUEST) return emit(event, ...args);
      if (!conn.cut) this.cut(raw, conn, "room requests (protocol 21) are not answered here: send messages");
      return true;
    }) as typeof raw.emit;
    raw.on("ping", count(true));
    // A pong may legitimately answer the transport's heartbeat while the join is still running.
    raw.on("pong", count(false));
    // Rooms read the client's address from the auth context (the spectator cap per address).
    const context = (upgrade as { context?: { ip?: string } } | undefined)?.context;
    if (context) context.ip = conn.ip;
    const joining = super.onConnection(raw, req, upgrade as never);
    // Replaces the base class's listener, which prints a stack trace to stderr for every socket error.
    raw.removeAllListeners("error");
    raw.on("error", (err: Error & { code?: string }) => {
      if (conn.errorLogged) return;
      conn.errorLogged = true;
      this.warnings.warn({ ip: conn.ip, code: err.code, reason: err.message }, "websocket error (malformed frame?); socket closed");
    });
    await joining;
    conn.joined = true;
  }

  /**
   * Each upgrade request: refused before the handshake unless a room of this process holds its seat, else
   * upgraded with its URL and auth context as Colyseus' own listener makes them. (Called from the base
   * class's constructor: the handler reads the guard only when a request comes.)
   */
  protected override listenForUpgrade(server: Server, filter?: (req: IncomingMessage) => boolean): void {
    server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (filter && !filter(req)) return;
      const url = new URL(`ws://server${req.url ?? "/"}`);
      if (!hasReservation(url)) return refuseUpgrade(socket, this.guard.baseUrl);
      // The request's own headers, as Colyseus' listener passes them (a repeated header's array is never read).
      const headers = req.headers as Record<string, string | undefined>;
      const context = createAuthContext({ headers, token: url.searchParams.get("_authToken"), remoteAddress: req.socket.remoteAddress });
      this.wss.handleUpgrade(req, socket, head, (ws) => this.wss.emit("connection", ws, req, { url, context }));
    });
  }

  /** Same period and retries as Colyseus' heartbeat, spread over the period. */
  protected override autoTerminateUnresponsiveClients(pingInterval: number, pingMaxRetries: number): void {
    this.pingInterval = new StaggeredHeartbeat(this.wss.clients as Set<WebSocket & Pingable>, pingInterval, pingMaxRetries).start();
  }

  /** Closes a socket that broke the rules; one that does not finish the close handshake is cut. */
  private cut(raw: WebSocket, conn: Connection, why: string): void {
    conn.cut = true;
    // The room stops hearing from it at once; its close handler still runs (a seat may reconnect).
    raw.removeAllListeners("message");
    this.warnings.warn({ ip: conn.ip, why }, "websocket closed by the frame budget");
    raw.close(CLOSE_POLICY, why);
    setTimeout(() => raw.terminate(), CLOSE_GRACE_MS).unref();
  }
}
