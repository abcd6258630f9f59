/**
 * NDJSON streams (one JSON object per line, as lichess' /api/stream/event): a bot's event stream
 * (GET /stream/events, with its key) and a game's stream (GET /stream/games/{id}: a seat's view with its
 * hand and legalMoves after every change, with its pt_ token; a spectator's without). An empty line is a
 * heartbeat. Streams are bounded per key (per seat token or address for game streams) in each process.
 */
import type { Presence } from "@colyseus/core";
import { Router, type Request, type Response } from "express";
import { AppError } from "../errors";
import { changeChannel } from "../games/ports";
import { bearerToken, sha256Hex } from "../games/secrets";
import type { GameService } from "../games/service";
import { subscribeOnce } from "../games/waiter";
import { botOf } from "./routes";
import type { BotStreamHub } from "./stream-hub";

export interface StreamOptions {
  /** Seconds between heartbeats (an empty line); default 15. */
  heartbeatS?: number;
  /** Event streams one bot key may hold open in one process; default 2. */
  perKey?: number;
  /** Game streams one seat token or address may hold open in one process; default 8. */
  gameStreamsPerKey?: number;
}

/** Counts open streams per key; `open` refuses past the bound, the returned function closes. */
class Bound {
  private readonly open = new Map<string, number>();
  constructor(private readonly max: number, private readonly what: string) {}
  take(key: string): () => void {
    const n = this.open.get(key) ?? 0;
    if (n >= this.max) throw new AppError("rate_limited", `${this.max} ${this.what} are open for this key, the most allowed: close one first`, { retryAfter: 5 });
    this.open.set(key, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(key) ?? 1) - 1;
      if (left > 0) this.open.set(key, left);
      else this.open.delete(key);
    };
  }
}

/** Starts an NDJSON answer with heartbeats; `line` writes one object, `end` stops everything once. */
function startNdjson(req: Request, res: Response, heartbeatS: number, onEnd: () => void) {
  res.status(200).set({ "Content-Type": "application/x-ndjson; charset=utf-8", "Cache-Control": "no-store", "X-Accel-Buffering": "no" });
  res.flushHeaders();
  const beat = setInterval(() => res.write("\n"), heartbeatS * 1000);
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    clearInterval(beat);
    onEnd();
    res.end();
  };
  req.on("close", end);
  return { line: (o: object) => void (ended || res.write(`${JSON.stringify(o)}\n`)), end, ended: () => ended };
}

export type StreamsRouter = Router & { close(): void };

export function streamsRouter(deps: { hub: BotStreamHub; games: GameService; presence: Presence }, opts: StreamOptions = {}): StreamsRouter {
  const heartbeatS = opts.heartbeatS ?? 15;
  const events = new Bound(opts.perKey ?? 2, "event streams");
  const gameStreams = new Bound(opts.gameStreamsPerKey ?? 8, "game streams");
  // Open streams, ended at shutdown: a stream never ends by itself, and would hold the server open.
  const open = new Set<() => void>();
  const r = Router() as StreamsRouter;
  r.close = () => [...open].forEach((end) => end());
  const ndjson = (req: Request, res: Response, onEnd: () => void) => {
    const out = startNdjson(req, res, heartbeatS, () => {
      open.delete(out.end);
      onEnd();
    });
    open.add(out.end);
    return out;
  };

  r.get("/stream/events", (req, res) => {
    const authed = botOf(res);
    if (!authed) throw new AppError("unauthorized", "the event stream is a bot's: `Authorization: Bearer bk_...` (POST /bots makes one)");
    // Authenticated just before the key was revoked, the request may arrive here just after.
    if (deps.hub.isRevoked(authed.bot.id)) throw new AppError("unauthorized", "this bot key was revoked");
    const release = events.take(authed.bot.id);
    const lastEventId = req.get("last-event-id") ?? (typeof req.query.lastEventId === "string" ? req.query.lastEventId : undefined);
    let stop = () => {};
    const out = ndjson(req, res, () => {
      stop();
      release();
    });
    stop = deps.hub.listen(authed.bot.id, lastEventId, { event: (e) => out.line(e), revoked: () => out.end() });
  });

  r.get("/stream/games/:id", async (req, res) => {
    const gameId = String(req.params.id);
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(gameId)) throw new AppError("not_found", `no game with id ${gameId.slice(0, 64)}`);
    const token = bearerToken(req.get("authorization"));
    if (token === null) throw new AppError("unauthorized", "the Authorization header must be `Bearer pt_...` (a seat's token) or absent (a spectator)");
    // Read once before answering, so a wrong token or game is a problem document, not a broken stream.
    let view = await deps.games.sync(gameId, token, 0, 0);
    const release = gameStreams.take(token ? sha256Hex(token) : (req.ip ?? "unknown"));
    let waiter: Awaited<ReturnType<typeof subscribeOnce>> | null = null;
    const out = ndjson(req, res, () => {
      waiter?.cancel();
      release();
    });
    out.line({ type: "state", ...view });
    while (!out.ended() && view.status !== "finished") {
      // Subscribed before the read, so a change between the read and the wait is not missed.
      waiter = await subscribeOnce(deps.presence, changeChannel(gameId));
      const next = await deps.games.sync(gameId, token, view.moveCount, 0).catch(() => null);
      if (next && (next.moveCount !== view.moveCount || next.status !== view.status)) {
        view = next;
        out.line({ type: "state", ...view });
        waiter.cancel();
        continue;
      }
      await waiter.wait(Date.now() + heartbeatS * 1000);
      waiter.cancel();
    }
    out.end();
  });
  return r;
}
