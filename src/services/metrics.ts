/**
 * Operational metrics in the Prometheus text format (prom-client), served at `/metrics`. One registry per
 * server instance, so several servers in one process (tests) never share counters.
 */
import type { Request, Response } from "express";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { AppError } from "../shared/errors";
import type { DispatcherStats } from "./events";
import { presentsToken } from "./operator/auth";
import { sha256Hex } from "../store";

export interface Metrics {
  registry: Registry;
  /** Placements by who made them: a person (any transport) or the house opponent. */
  moves: Counter<"player">;
  refusals: Counter<"code">;
  gamesStarted: Counter<"opponent">;
  gamesFinished: Counter<"decided_by">;
  /** Seconds from receiving a move to its durable append and projection. */
  moveSeconds: Histogram;
  /** Seconds one house decision or review took on the AI pool, by task. */
  aiSeconds: Histogram<"task">;
  /** Seconds one fsync of SQLite's WAL took (synchronous=FULL): what durable writes wait for besides the CPU. */
  walFsyncSeconds: Histogram;
  /** Reads the webhook dispatcher's queues when scraped; set once the dispatcher exists. */
  deliveries: { source?: () => DispatcherStats };
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "arena_" });
  const deliveries: Metrics["deliveries"] = {};
  new Gauge({
    name: "arena_webhook_deliveries",
    help: "Webhook work held by this process: events awaiting lookup, deliveries queued, in flight, and held in all",
    labelNames: ["state"],
    registers: [registry],
    collect() {
      const s = deliveries.source?.();
      if (!s) return;
      this.set({ state: "events_queued" }, s.queuedEvents);
      this.set({ state: "queued" }, s.queuedDeliveries);
      this.set({ state: "in_flight" }, s.inflight);
      this.set({ state: "held" }, s.held);
    },
  });
  new Gauge({
    name: "arena_webhook_over_budget_total",
    help: "Webhook deliveries answered later than the latency budget since start (each counted as a failed event)",
    registers: [registry],
    collect() {
      const s = deliveries.source?.();
      if (s) this.set(s.overBudget);
    },
  });
  return {
    registry,
    moves: new Counter({ name: "arena_moves_total", help: "Placements accepted", labelNames: ["player"], registers: [registry] }),
    refusals: new Counter({ name: "arena_refusals_total", help: "Game actions refused, by code", labelNames: ["code"], registers: [registry] }),
    gamesStarted: new Counter({ name: "arena_games_started_total", help: "Games that became active", labelNames: ["opponent"], registers: [registry] }),
    gamesFinished: new Counter({
      name: "arena_games_finished_total",
      help: "Games finished, by what decided them",
      labelNames: ["decided_by"],
      registers: [registry],
    }),
    moveSeconds: new Histogram({
      name: "arena_move_seconds",
      help: "Time to validate, apply, persist and project one action",
      buckets: [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25],
      registers: [registry],
    }),
    aiSeconds: new Histogram({
      name: "arena_ai_task_seconds",
      help: "Time of one house decision, review or league standings table on the AI pool, queueing included",
      labelNames: ["task"],
      buckets: [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    walFsyncSeconds: new Histogram({
      name: "arena_sqlite_wal_fsync_seconds",
      help: "Time of one fsync of the SQLite WAL, which every durable write waits for with synchronous=FULL",
      buckets: [0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25],
      registers: [registry],
    }),
    deliveries,
  };
}

/**
 * GET /metrics. With a token configured the scraper must send `Authorization: Bearer <token>` (compared in
 * constant time); without one the route is open, which suits a server reachable only by its operator.
 */
export function metricsHandler(metrics: Metrics, token?: string) {
  const expected = token ? sha256Hex(token) : undefined;
  return async (req: Request, res: Response) => {
    if (expected && !presentsToken(req, expected)) {
      throw new AppError("unauthorized", "GET /metrics needs `Authorization: Bearer <METRICS_TOKEN>`");
    }
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  };
}
