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
import { z } from "zod";
import { botOf } from "./bots";
import type { BotStreamHub } from "../../../services/bots/stream-hub";
import { DEFAULTS } from "../../../shared/config";
import { AppError } from "../../../shared/errors";
import { changeChannel } from "../../../services/games/ports";
import type { GameReads } from "../../../services/games/reads";
import { subscribeOnce } from "../../../services/games/waiter";
import { bearerToken, sha256Hex } from "../../../shared/secrets";
import { addressKey } from "../edges";
import { HeldPerKey } from "../held";
import * as R from "../openapi/responses";
import { bearerOrNone, botKey, id, ndjson, problems } from "../openapi/parts";
import { mountRoutes, route, type Route } from "../route";

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

interface StreamDeps {
  hub: BotStreamHub;
  games: Pick<GameReads, "sync">;
  presence: Presence;
  /** Event streams open per bot key. */
  events: HeldPerKey;
  /** Game streams open per seat token or address. */
  gameStreams: HeldPerKey;
  /** Seconds between heartbeats; a game stream also reads its game again as often. */
  heartbeatS: number;
  /** Counts a stream against its address and against `bound`'s `key`; both are given back by the one release. */
  take(req: Request, bound: HeldPerKey, key: string): () => void;
  /** Starts an NDJSON answer, which the router ends at shutdown. */
  startStream(req: Request, res: Response, onEnd: () => void): ReturnType<typeof startNdjson>;
}

export const streamRoutes: Route<StreamDeps>[] = [
  route({
    method: "get",
    path: "/stream/events",
    operationId: "streamBotEvents",
    tags: ["bots"],
    summary: "Stream a bot's events (NDJSON)",
    description:
      "Push without a public HTTPS callback: one JSON object per line, `gameStart`, `yourTurn`, `gameFinish` (with `result` from the bot's side), `challenge` and `challengeDeclined`, for every game the bot's key seated it in. An empty line is a heartbeat. Resume after a dropped connection with `Last-Event-ID`: events of the resume window are replayed, the bot's games' events kept apart from the challenges other bots send (at most 5 kept per sender), so no flood of challenges evicts them. A key may hold a bounded number of streams, and an address a bounded number of streams of both kinds (429). Revoking the key ends the stream.",
    security: botKey,
    request: { headers: z.object({ "last-event-id": z.string().optional().describe("the id of the last event received: resume after it") }) },
    responses: { 200: ndjson(R.BotEvent, "the bot's events, one JSON object per line; an empty line is a heartbeat"), ...problems(401) },
    handler: ({ req, res }, d) => {
      const authed = botOf(res);
      if (!authed) throw new AppError("unauthorized", "the event stream is a bot's: `Authorization: Bearer bk_...` (POST /bots makes one)");
      // Authenticated just before the key was revoked, the request may arrive here just after.
      if (d.hub.isRevoked(authed.bot.id)) throw new AppError("unauthorized", "this bot key was revoked");
      const release = d.take(req, d.events, authed.bot.id);
      const lastEventId = req.get("last-event-id") ?? (typeof req.query.lastEventId === "string" ? req.query.lastEventId : undefined);
      let stop = () => {};
      const out = d.startStream(req, res, () => {
        stop();
        release();
      });
      stop = d.hub.listen(authed.bot.id, lastEventId, { event: (e) => out.line(e), revoked: () => out.end() });
    },
  }),
  route({
    method: "get",
    path: "/stream/games/:id",
    operationId: "streamGame",
    tags: ["games"],
    summary: "Stream a game (NDJSON)",
    description:
      "The game's sync body (`type: state`) now and after every change, one JSON object per line, ending when the game ends. With the seat's token each line is the seat's view, with its hand and `legalMoves` on its turn; without, a spectator's. An empty line is a heartbeat.",
    security: bearerOrNone,
    request: { params: id("game") },
    responses: { 200: ndjson(R.GameStreamState, "the game's state after every change, one JSON object per line; ends with the game"), ...problems(401, 404) },
    handler: async ({ req, res }, d) => {
      const gameId = String(req.params.id);
      if (!/^[A-Za-z0-9_-]{1,64}$/.test(gameId)) throw new AppError("not_found", `no game with id ${gameId.slice(0, 64)}`);
      const token = bearerToken(req.get("authorization"));
      if (token === null) throw new AppError("unauthorized", "the Authorization header must be `Bearer pt_...` (a seat's token) or absent (a spectator)");
      // Read once before answering, so a wrong token or game is a problem document, not a broken stream.
      let view = await d.games.sync(gameId, token, 0, 0);
      const release = d.take(req, d.gameStreams, token ? sha256Hex(token) : addressKey(req));
      let waiter: Awaited<ReturnType<typeof subscribeOnce>> | null = null;
      const out = d.startStream(req, res, () => {
        waiter?.cancel();
        release();
      });
      out.line({ type: "state", ...view });
      while (!out.ended() && view.status !== "finished") {
        // Subscribed before the read, so a change between the read and the wait is not missed.
        waiter = await subscribeOnce(d.presence, changeChannel(gameId));
        const next = await d.games.sync(gameId, token, view.moveCount, 0).catch(() => null);
        if (next && (next.moveCount !== view.moveCount || next.status !== view.status)) {
          view = next;
          out.line({ type: "state", ...view });
          waiter.cancel();
          continue;
        }
        await waiter.wait(Date.now() + d.heartbeatS * 1000);
        waiter.cancel();
      }
      out.end();
    },
  }),
];

export function streamsRouter(deps: { hub: BotStreamHub; games: Pick<GameReads, "sync">; presence: Presence }, opts: StreamOptions = {}): StreamsRouter {
  const heartbeatS = opts.heartbeatS ?? DEFAULTS.streamHeartbeatS;
  const maxPerAddress = opts.perAddress ?? DEFAULTS.streamsPerAddress;
  const addresses = new HeldPerKey(maxPerAddress, `this address already has ${maxPerAddress} streams open, the most allowed: close one first`, 5);
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
  const startStream = (req: Request, res: Response, onEnd: () => void) => {
    const out = startNdjson(req, res, heartbeatS, () => {
      open.delete(out.end);
      onEnd();
    });
    open.add(out.end);
    return out;
  };
  const r = Router() as StreamsRouter;
  r.close = () => [...open].forEach((end) => end());
  mountRoutes(r, streamRoutes, {
    ...deps,
    heartbeatS,
    events: perKey(opts.perKey ?? DEFAULTS.streamsPerKey, "event streams"),
    gameStreams: perKey(opts.gameStreamsPerKey ?? 8, "game streams"),
    take,
    startStream,
  });
  return r;
}
