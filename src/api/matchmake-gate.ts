/**
 * Colyseus answers its matchmaking routes (`POST /matchmake/...`) on the HTTP server's own request listener,
 * before Express sees the request, so they would escape the per-IP limits. Unlimited, one address could keep
 * a game room full of seat reservations and lock its players out. This gate sits in front of that listener:
 * matchmaking requests count against the `matchmake` policy (and carry the RateLimit fields); every other
 * request goes straight through.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import express from "express";
import type { Logger } from "../logger";
import { limiter, type LimiterOptions } from "./edges";
import { errorHandler } from "./problem";

export interface GateOptions {
  limits: LimiterOptions;
  trustProxy: number;
  log: Logger;
  baseUrl: string;
  /** The CORS headers Colyseus would have sent, so a browser can read a refusal. */
  corsHeaders: (req: IncomingMessage) => Record<string, string>;
}

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

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
    next();
  });
  gate.use(limiter("matchmake", o.limits));
  gate.use((req, res) => pass(req, res));
  gate.use(errorHandler(o.log, o.baseUrl));

  server.removeAllListeners("request");
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === "POST" && req.url?.startsWith("/matchmake/")) gate(req, res);
    else pass(req, res);
  });
}
