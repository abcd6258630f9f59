/**
 * The REST face of events. Bodies are parsed by the API's one JSON parser (src/edges/api) before these routes
 * run; errors are thrown as AppError and rendered by the service's one error middleware.
 */
import express, { type Router } from "express";
import { eventCatalog } from "../../../services/events/catalog";
import { SubscribeBody, UnsubscribeBody, type SubscriptionService } from "../../../services/events/subscriptions";
import * as R from "../openapi/responses";
import { json, problems } from "../openapi/parts";
import { reply } from "../reply";
import { mountRoutes, route, type Route } from "../route";

export interface EventsRouterDeps {
  subscriptions: Pick<SubscriptionService, "subscribe" | "unsubscribe">;
}

// The subscription service checks its bodies itself (its problems name the subscription), so the declared
// schemas are published here and the raw bodies passed on.
export const eventRoutes: Route<EventsRouterDeps>[] = [
  route({
    method: "get",
    path: "/games/events",
    operationId: "listEvents",
    tags: ["events"],
    summary: "List webhook events",
    description: "The event catalog: each event's arguments and the JSON Schema of its `data`.",
    responses: { 200: json(R.EventCatalog), ...problems() },
    handler: ({ res }) => {
      reply(res, 200, R.EventCatalog, { events: eventCatalog() });
    },
  }),
  route({
    method: "post",
    path: "/games/events/subscribe",
    operationId: "subscribe",
    tags: ["events"],
    summary: "Subscribe a webhook",
    description: "Delivers an event to a public HTTPS callback, signed (Standard Webhooks). The callback must answer the verification challenge first.",
    request: { body: SubscribeBody },
    responses: { 201: json(R.Subscribed, "subscribed"), ...problems(400, 401, 404, 422) },
    handler: async ({ req, res }, d) => {
      reply(res, 201, R.Subscribed, await d.subscriptions.subscribe(req.body ?? {}));
    },
  }),
  route({
    method: "post",
    path: "/games/events/unsubscribe",
    operationId: "unsubscribe",
    tags: ["events"],
    summary: "Unsubscribe a webhook",
    description:
      "Removes the subscription named by event name, arguments and callback URL (an id or secret may be sent; neither is needed); 200 whether or not it existed.",
    request: { body: UnsubscribeBody },
    responses: { 200: json(R.Unsubscribed), ...problems(400, 401) },
    handler: async ({ req, res }, d) => {
      reply(res, 200, R.Unsubscribed, await d.subscriptions.unsubscribe(req.body ?? {}));
    },
  }),
];

/** Mounts GET /games/events, POST /games/events/subscribe (201) and POST /games/events/unsubscribe (200). */
export function eventsRouter(deps: EventsRouterDeps): Router {
  return mountRoutes(express.Router(), eventRoutes, deps);
}
