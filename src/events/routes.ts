/**
 * The REST face of events. Errors are thrown as AppError and rendered by the service's one error
 * middleware; nothing here writes an error response itself.
 */
import express, { type ErrorRequestHandler, type Request, type Response, type Router } from "express";
import { AppError } from "../errors";
import { eventCatalog } from "./catalog";
import type { SubscriptionService } from "./subscriptions";

export interface EventsRouterDeps {
  subscriptions: Pick<SubscriptionService, "subscribe" | "unsubscribe">;
}

/**
 * Body-parser failures arrive as plain errors with a `type`; they are translated so the shared middleware
 * sees the service's codes.
 */
const translateBodyErrors: ErrorRequestHandler = (err: { type?: string; message?: string }, _req, _res, next) => {
  if (err?.type === "entity.too.large") return next(new AppError("payload_too_large", "request body too large"));
  if (err?.type === "entity.parse.failed") return next(new AppError("bad_request", "request body is not valid JSON"));
  return next(err);
};

/** Mounts GET /games/events, POST /games/events/subscribe (201) and POST /games/events/unsubscribe (200). */
export function eventsRouter(deps: EventsRouterDeps): Router {
  const router = express.Router();
  // Skipped by body-parser when the app already parsed the body, so mounting it here is harmless.
  const json = express.json({ limit: "64kb" });

  router.get("/games/events", (_req, res) => {
    res.json({ events: eventCatalog() });
  });

  router.post("/games/events/subscribe", json, translateBodyErrors, async (req: Request, res: Response) => {
    res.status(201).json(await deps.subscriptions.subscribe(req.body ?? {}));
  });

  router.post("/games/events/unsubscribe", json, translateBodyErrors, async (req: Request, res: Response) => {
    res.status(200).json(await deps.subscriptions.unsubscribe(req.body ?? {}));
  });

  return router;
}
