/**
 * The REST facade: mounts every router under `/api/v1` and its permanent alias `/api`, with the edges
 * every response needs. It holds no game state; see src/services/games for what the routes call.
 */
import express, { type Application as Express, type RequestHandler, type Router } from "express";
import type { BotDirectory, BotRevocation, BotService, BotStreamHub } from "../../services/bots";
import { botAuth, botsRouter } from "./routes/bots";
import type { GameCreation } from "../../services/games/creation";
import type { GamePlay } from "../../services/games/play";
import type { GameReads } from "../../services/games/reads";
import type { QuickMatch } from "../../services/games/quick-match";
import type { Logger } from "../../shared/logger";
import type { PlayerService } from "../../services/players/service";
import { DEFAULTS } from "../../shared/config";
import { AppError } from "../../shared/errors";
import { actionLimiter, addressKey, apiVersion, limiter, type LimiterOptions } from "./edges";
import { errorHandler, notFoundHandler } from "./problem";
import { LongPolls } from "./long-polls";
import { gamesRouter } from "./routes/games";
import { playersRouter } from "./routes/players";
import { rulesRouter } from "./routes/rules";
import { metaRoutes } from "./openapi/document";
import { enteredByFirstSegment, mountRoutes } from "./route";

export interface ApiDeps {
  gameCreation: GameCreation;
  gamePlay: GamePlay;
  gameReads: GameReads;
  quick: QuickMatch;
  players: PlayerService;
  bots: BotService;
  botStreams: BotStreamHub;
  /** Withdraws a revoked bot's tickets, entries and games not yet played. */
  revocation: BotRevocation;
  /** The bot directory (GET /bots). */
  botDirectory: BotDirectory;
  /** Routers of other bounded contexts (events, agents, clients), mounted under the version prefix. */
  extraRouters: Router[];
  log: Logger;
  baseUrl: string;
  limits: LimiterOptions;
  /** Bots one address may register per window (config BOT_REGISTRATIONS_PER_ADDRESS, times the limits' scale). */
  botRegistrations: { perAddress: number; windowMs: number };
  trustProxy: number;
  /** Largest JSON body, in bytes (config MAX_BODY_BYTES); default 64 KiB. */
  maxBodyBytes?: number;
  /** Long-polls waiting per address, shared with MCP; default 20 per address for this router alone. */
  longPolls?: LongPolls;
  /** A game's index in the public log (src/services/log), or null while it is not in it; a finished game's record and replay name it. */
  logIndexOf?: (gameId: string) => Promise<number | null>;
  /** What /healthz reports beside `ok` (the store, the cluster); `ok: false` answers 503. */
  health?: () => Promise<{ ok: boolean } & Record<string, unknown>>;
}

export function mountApi(app: Express, deps: ApiDeps): void {
  app.set("trust proxy", deps.trustProxy);
  app.disable("x-powered-by");
  app.use(apiVersion);
  // Every /api request counts against exactly one policy, chosen before the body is read, so even a
  // malformed body is counted and answered with the RateLimit fields.
  const policies = {
    reads: limiter("reads", deps.limits),
    writes: limiter("writes", deps.limits),
    challenge: limiter("challenge", deps.limits),
    result: limiter("result", deps.limits),
  };
  const v1 = express.Router();
  v1.use((req, res, next) => policies[policyOf(req.method, req.path)](req, res, next));
  v1.use(jsonBody(deps.maxBodyBytes));
  v1.use(botAuth(deps.bots, deps.botStreams));
  mountRoutes(v1, metaRoutes, { baseUrl: deps.baseUrl });
  // Each router below is entered only for the first path segments its routes begin with (route.ts).
  for (const r of deps.extraRouters) v1.use(enteredByFirstSegment(r));
  const { perAddress, windowMs } = deps.botRegistrations;
  const registrations = actionLimiter(
    "bot-registration",
    perAddress,
    deps.limits,
    addressKey,
    `more than ${perAddress} bots registered from this address in ${windowMs / 1000} s`,
    windowMs,
  );
  v1.use(
    enteredByFirstSegment(
      botsRouter({ bots: deps.bots, games: deps.gameCreation, hub: deps.botStreams, revocation: deps.revocation, directory: deps.botDirectory, registrations }),
    ),
  );
  v1.use(
    enteredByFirstSegment(
      gamesRouter({
        gameCreation: deps.gameCreation,
        gamePlay: deps.gamePlay,
        gameReads: deps.gameReads,
        quick: deps.quick,
        longPolls: deps.longPolls ?? new LongPolls(DEFAULTS.longPollsPerAddress),
        logIndexOf: deps.logIndexOf,
        baseUrl: deps.baseUrl,
      }),
    ),
  );
  v1.use(enteredByFirstSegment(playersRouter({ players: deps.players, games: deps.gameReads })));
  v1.use(enteredByFirstSegment(rulesRouter()));
  v1.use(notFoundHandler);
  app.use("/api/v1", v1);
  app.use("/api", v1);
  app.get("/healthz", async (_req, res) => {
    const report = deps.health ? await deps.health() : { ok: true };
    // Outside the API and its document, so there is no response schema to answer through.
    res.status(report.ok ? 200 : 503).json(report);
  });
}

/**
 * The API's one body parser: JSON up to `limitBytes` (64 KiB by default; MAX_BODY_BYTES); a body in another format (curl -d sends a form) is refused
 * rather than read as no body at all. Parse failures reach the error handler as body-parser errors.
 */
export const jsonBody = (limitBytes: number = DEFAULTS.maxBodyBytes): RequestHandler[] => [
  express.json({ limit: limitBytes, type: ["application/json", "application/*+json"] }),
  (req, _res, next) => {
    const content = req.get("transfer-encoding") !== undefined || Number(req.get("content-length")) > 0;
    if (content && req.is(["application/json", "application/*+json"]) === false) {
      throw new AppError("bad_request", `request bodies are JSON: send it with Content-Type: application/json (got ${req.get("content-type") ?? "none"})`);
    }
    next();
  },
];

/** The spec's policy for a request (section 8): agent challenge and result posts, reads, other writes. */
export function policyOf(method: string, path: string): "reads" | "writes" | "challenge" | "result" {
  if (method === "POST" && /^\/agent\/challenge\/?$/.test(path)) return "challenge";
  if (method === "POST" && /^\/agent\/result\/?$/.test(path)) return "result";
  return method === "GET" || method === "HEAD" ? "reads" : "writes";
}

/** The last handlers of the app: unknown paths outside /api, and the error renderer. */
export function finishApp(app: Express, deps: Pick<ApiDeps, "log" | "baseUrl">): void {
  app.use(notFoundHandler);
  app.use(errorHandler(deps.log, deps.baseUrl));
}
