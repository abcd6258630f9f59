/**
 * NDJSON streams (one JSON object per line, as lichess' /api/stream/event): a bot's event stream
 * (GET /stream/events, with its key) and a game's stream (GET /stream/games/{id}: a seat's view with its
 * hand and legalMoves after every change, with its pt_ token; a spectator's without). An empty line is a
 * heartbeat. Streams are bounded in each process per key (per seat token or address for game streams) and,
 * both kinds together, per client address: keys are free, so a bound per key alone lets one address hold as many
 * streams as it registers bots.
 */
import type { Presence } from "@colyseus/core";
import { Router, type Request, type Response } from "express";
import { botOf } from "./bots";
import type { BotStreamHub } from "../../../services/bots/stream-hub";
import { DEFAULTS } from "../../../shared/config";
import { AppError } from "../../../shared/errors";
import { changeChannel } from "../../../services/games/ports";
import type { GameService } from "../../../services/games/service";
import { subscribeOnce } from "../../../services/games/waiter";
import { bearerToken, sha256Hex } from "../../../shared/secrets";
import { addressKey } from "../edges";
import { HeldPerKey } from "../held";

export interface StreamOptions {
  /** Seconds between heartbeats (an empty line); default 15. */
  heartbeatS?: number;
  /** Event streams one bot key may hold open in one process; default 2. */
  perKey?: number;
  /** Game streams one seat token or address may hold open in one process; default 8. */
  gameStreamsPerKey?: number;
  /** Streams of both kinds one client address may hold open in one process (STREAMS_PER_ADDRESS); default 40. */
  perAddress?: number;
}

const perKey = (max: number, what: string) => new HeldPerKey(max, `${max} ${what} are open for this key, the most allowed: close one first`, 5);

/** Starts an NDJSON answer with heartbeats; `line` writes one object, `end` stops everything once. */
function startNdjson(req: Request, res: Response, heartbeatS: number, onEnd: () => void) {
  // Lines written as events happen, not one JSON answer: the document's schemas describe each line, not reply.
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
  const heartbeatS = opts.heartbeatS ?? DEFAULTS.streamHeartbeatS;
  const events = perKey(opts.perKey ?? DEFAULTS.streamsPerKey, "event streams");
  const gameStreams = perKey(opts.gameStreamsPerKey ?? 8, "game streams");
  const maxPerAddress = opts.perAddress ?? DEFAULTS.streamsPerAddress;
  const addresses = new HeldPerKey(maxPerAddress, `this address already has ${maxPerAddress} streams open, the most allowed: close one first`, 5);
  /** Counts a stream against its address and its key; both are given back by the one release. */
  const take = (req: Request, bound: HeldPerKey, key: string): (() => void) => {
    const address = addresses.take(addressKey(req));
    try {
      const own = bound.take(key);
      return () => {
        own();
        address();
      };
    } catch (err) {
      address();
      throw err;
    }
  };
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
    const release = take(req, events, authed.bot.id);
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
    const release = take(req, gameStreams, token ? sha256Hex(token) : addressKey(req));
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
