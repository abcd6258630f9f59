/**
 * The first listener of the HTTP server, in front of Colyseus' own (which answers `POST /matchmake/...`
 * before Express sees the request):
 * - a request whose declared body is larger than the limit is answered 413 on any route, unread, and a
 *   chunked body as soon as it passes the limit: either way the rest of the body is then discarded up to a
 *   bound before the connection closes, so the client reads the 413 instead of a reset;
 * - matchmaking requests count against the `matchmake` policy (with the RateLimit fields), and their body
 *   is read here with the same limit, checked while reading, then handed to Colyseus already parsed (it
 *   would otherwise read any body whole). Unlimited, one address could keep a game room full of seat
 *   reservations and lock its players out.
 * - matchmaking refusals are sent as problem documents with 4xx statuses (./matchmake-problems.ts);
 * - every answer, Colyseus' CORS preflights included, carries `API-Version: 1`.
 * Every other request goes straight through.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import express, { type RequestHandler } from "express";
import getRawBody from "raw-body";
import { AppError } from "../../shared/errors";
import type { Logger } from "../../shared/logger";
import { limiter, type LimiterOptions } from "./edges";
import { refusalsAsProblems } from "./matchmake-problems";
import { errorHandler, problemBody } from "./problem";

export interface GateOptions {
  limits: LimiterOptions;
  trustProxy: number;
  log: Logger;
  baseUrl: string;
  /** Largest request body on any route, in bytes. */
  maxBodyBytes: number;
  /** The CORS headers Colyseus would have sent, so a browser can read a refusal. */
  corsHeaders: (req: IncomingMessage) => Record<string, string>;
}

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** What is discarded after an early 413 before the connection is cut: a client sending more is reset. */
const DRAIN_BYTES = 16 * 1024 * 1024;
const DRAIN_MS = 10_000;

/** What a lingering answer is told of the body still arriving. */
interface Linger {
  /** `bytes` more of the body were read and dropped. */
  discarded(bytes: number): void;
  /** The body is over: the answer ends, and the connection with it. */
  complete(): void;
}

/**
 * Sends a whole answer before the body was read (a lingering close, as nginx and Go's net/http do): the
 * caller then discards what the client still sends, up to `DRAIN_BYTES` or `DRAIN_MS`, and only then is the
 * response ended (and with it the connection). Closing at once would leave unread bytes in the kernel, which
 * answers them with a reset: a client still uploading would see EPIPE or ECONNRESET instead of the answer.
 * The response is ended last because Node closes a `connection: close` socket as soon as its response finishes.
 */
function lingeringAnswer(req: IncomingMessage, res: ServerResponse, status: number, body: string): Linger {
  res.writeHead(status, { "content-type": "application/problem+json", "API-Version": "1", "content-length": Buffer.byteLength(body), connection: "close" });
  res.write(body);
  let seen = 0;
  const timer = setTimeout(() => cut(), DRAIN_MS);
  timer.unref();
  const cut = () => {
    clearTimeout(timer);
    res.end();
    req.socket.destroy();
  };
  req.socket.once("close", () => clearTimeout(timer));
  return {
    discarded: (bytes) => {
      seen += bytes;
      if (seen > DRAIN_BYTES) cut();
    },
    // Everything sent has been read: the close is clean (the answer, then FIN, no reset).
    complete: () => {
      clearTimeout(timer);
      res.end();
    },
  };
}

/** After an answer to a body declared too large, reads and drops the rest of it (within the answer's bounds). */
function drainRest(req: IncomingMessage, linger: Linger): void {
  req.on("data", (chunk: Buffer) => linger.discarded(chunk.length));
  req.once("end", () => linger.complete());
  req.resume();
}

/** The declared body length, or null when the body is chunked (or absent). */
function declaredLength(req: IncomingMessage): number | null {
  const raw = req.headers["content-length"];
  return raw === undefined ? null : Number(raw);
}

/**
 * Reads a matchmaking body as JSON (Colyseus does, whatever its content type), at most `limit` bytes. Past
 * the limit it stops reading and the connection is closed with the 413: body-parser would read the rest of
 * the body off the socket first, however long the client keeps sending.
 */
function readJson(limit: number): RequestHandler {
  return (req, res, next) => {
    getRawBody(req, { limit, length: req.headers["content-length"] }).then(
      (buf) => {
        if (buf.length === 0) return next();
        try {
          req.body = JSON.parse(buf.toString("utf8")) as unknown;
        } catch {
          return next(new AppError("bad_request", "the request body is not valid JSON"));
        }
        next();
      },
      (err: { type?: string }) => {
        if (err.type === "entity.too.large") {
          res.setHeader("connection", "close");
          res.on("finish", () => req.socket.destroySoon());
          return next(new AppError("payload_too_large", `the request body is larger than ${limit} bytes`));
        }
        next(new AppError("bad_request", "the request body could not be read"));
      },
    );
  };
}

/**
 * A chunked body has no length to check up front, and a parser past its limit still reads the rest off the
 * socket (body-parser does, to keep the connection usable), however long the client keeps sending. This
 * counts the body as the HTTP parser hands it over: past `limit` the request is answered 413 (when nothing
 * has been answered yet) and the rest of the body goes nowhere: it is dropped here as the parser reads it,
 * within the lingering answer's bounds, and whoever was reading the request never sees it end.
 */
function capChunkedBody(req: IncomingMessage, res: ServerResponse, limit: number, answer: () => Linger): void {
  // Answered before the body was read: Node would drain the rest (without counting it), so the connection ends.
  res.on("finish", () => {
    if (!req.complete) req.socket.destroySoon();
  });
  let seen = 0;
  let linger: Linger | undefined;
  const push = req.push.bind(req);
  req.push = (chunk: unknown, encoding?: BufferEncoding) => {
    if (seen > limit) {
      // Past the limit: true keeps the parser reading, so the client's sending is not stalled into a reset.
      if (chunk === null) linger?.complete();
      else linger?.discarded((chunk as Buffer).length);
      return true;
    }
    if (chunk !== null) {
      seen += (chunk as Buffer).length;
      if (seen > limit) {
        if (res.headersSent) req.socket.destroy();
        else linger = answer();
        return true;
      }
    }
    return push(chunk, encoding);
  };
}

export function gateMatchmaking(server: Server, o: GateOptions): void {
  const downstream = server.listeners("request") as Listener[];
  const pass: Listener = (req, res) => {
    for (const l of downstream) l.call(server, req, res);
  };
  const gate = express();
  gate.disable("x-powered-by");
  gate.set("trust proxy", o.trustProxy);
  gate.use((req, res, next) => {
    for (const [k, v] of Object.entries(o.corsHeaders(req))) res.setHeader(k, v);
    res.setHeader("API-Version", "1");
    next();
  });
  gate.use(limiter("matchmake", o.limits));
  gate.use(readJson(o.maxBodyBytes));
  gate.use((req, res) => {
    refusalsAsProblems(res, o.baseUrl, o.log);
    pass(req, res);
  });
  gate.use(errorHandler(o.log, o.baseUrl));

  /** The 413, with the CORS headers a browser needs to read it, sent before the body was read. */
  const tooLarge = (req: IncomingMessage, res: ServerResponse): Linger => {
    const e = new AppError("payload_too_large", `the request body is larger than ${o.maxBodyBytes} bytes`);
    for (const [k, v] of Object.entries(o.corsHeaders(req))) res.setHeader(k, v);
    return lingeringAnswer(req, res, e.status, JSON.stringify(problemBody(e, o.baseUrl)));
  };

  server.removeAllListeners("request");
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    // Every answer carries it, Colyseus' own too (its CORS preflights, its matchmaking answers).
    res.setHeader("API-Version", "1");
    const length = declaredLength(req);
    if (length !== null && !(length <= o.maxBodyBytes)) return drainRest(req, tooLarge(req, res));
    if (length === null && req.headers["transfer-encoding"] !== undefined) capChunkedBody(req, res, o.maxBodyBytes, () => tooLarge(req, res));
    if (req.method === "POST" && req.url?.startsWith("/matchmake/")) gate(req, res);
    else pass(req, res);
  });
}
