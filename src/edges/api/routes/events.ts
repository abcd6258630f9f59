/**
 * The REST face of events. Bodies are parsed by the API's one JSON parser (src/edges/api) before these routes
 * run; errors are thrown as AppError and rendered by the service's one error middleware.
 */
import express, { type Router } from "express";
import { eventCatalog } from "../../../services/events/catalog";
import type { SubscriptionService } from "../../../services/events/subscriptions";
import * as R from "../openapi/responses";
import { reply } from "../reply";

export interface EventsRouterDeps {
  subscriptions: Pick<SubscriptionService, "subscribe" | "unsubscribe">;
}

/** Mounts GET /games/events, POST /games/events/subscribe (201) and POST /games/events/unsubscribe (200). */
export function eventsRouter(deps: EventsRouterDeps): Router {
  const router = express.Router();

  router.get("/games/events", (_req, res) => {
    reply(res, 200, R.EventCatalog, { events: eventCatalog() });
  });

  router.post("/games/events/subscribe", async (req, res) => {
    reply(res, 201, R.Subscribed, await deps.subscriptions.subscribe(req.body ?? {}));
  });

  router.post("/games/events/unsubscribe", async (req, res) => {
    reply(res, 200, R.Unsubscribed, await deps.subscriptions.unsubscribe(req.body ?? {}));
  });

  return router;
}
