/**
 * OpenTelemetry: off unless the standard OTEL_* variables turn it on; on, a REST move leaves one trace from
 * the route through the facade into the room (the engine's step, the group commit, the broadcast), joined
 * to the caller's trace when it sends a `traceparent`.
 */
import { strict as assert } from "node:assert";
import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace";
import { loadConfig } from "../../src/shared/config";
import type { RunningServer } from "../../src/server";
import { seatedFriendGame } from "../support/play";
import { bearer, bootServer, eventually, http } from "../support/server";

describe("Tracing: OpenTelemetry spans of the REST routes and the move path", function () {
  this.timeout(30_000);

  it("is off by default, on with an OTLP endpoint or a named exporter, off again when disabled", () => {
    assert.equal(loadConfig({}).tracing, "off");
    assert.equal(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" }).tracing, "otlp");
    assert.equal(loadConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://127.0.0.1:4318/v1/traces" }).tracing, "otlp");
    assert.equal(loadConfig({ OTEL_TRACES_EXPORTER: "console" }).tracing, "console");
    assert.equal(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318", OTEL_TRACES_EXPORTER: "none" }).tracing, "off");
    assert.equal(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318", OTEL_SDK_DISABLED: "true" }).tracing, "off");
    assert.equal(loadConfig({}).serviceName, "tile-arena");
  });

  describe("with an in-memory exporter", () => {
    const exporter = new InMemorySpanExporter();
    let server: RunningServer;
    before(async () => {
      server = await bootServer({}, { spanExporter: exporter });
    });
    after(async () => {
      await server?.close();
    });

    const spans = () => exporter.getFinishedSpans();
    const named = (name: string) => spans().filter((s) => s.name === name);
    const parentOf = (s: ReadableSpan) => spans().find((p) => p.spanContext().spanId === s.parentSpanContext?.spanId);

    it("traces a move from its route to the room's engine, commit and broadcast, in the caller's trace", async () => {
      const { id, tokens } = await seatedFriendGame(server.url, { create: { name: "Ann" }, join: { name: "Bea" } });
      const sync = await http(server.url, "GET", `/api/v1/games/${id}/sync?since=0`, undefined, bearer(tokens.A));
      const token = tokens[sync.json.turn as string];
      const mine = (await http(server.url, "GET", `/api/v1/games/${id}/sync?since=0`, undefined, bearer(token))).json.state;
      exporter.reset();

      const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
      const moved = await http(
        server.url,
        "POST",
        `/api/v1/games/${id}/moves`,
        { card: mine.hand[0].id, square: "a1" },
        {
          ...bearer(token),
          traceparent: `00-${traceId}-00f067aa0ba902b7-01`,
        },
      );
      assert.equal(moved.status, 200, moved.text);
      await eventually(() => named("POST /api/v1/games/:id/moves").length === 1, "the route's span", 5000);

      const route = named("POST /api/v1/games/:id/moves")[0];
      assert.equal(route.spanContext().traceId, traceId, "a child of the caller's trace");
      assert.equal(route.attributes["http.response.status_code"], 200);
      const facade = named("games.move")[0];
      assert.equal(parentOf(facade), route);
      const action = named("game.action")[0];
      assert.equal(parentOf(action), facade);
      assert.equal(action.attributes["game.id"], id);
      assert.ok(action.events.some((e) => e.name === "dequeued"));
      for (const step of ["engine.step", "store.commit", "room.announce"]) {
        const span = named(step)[0];
        assert.ok(span, `a ${step} span`);
        assert.equal(parentOf(span), action, `${step} is a step of the action`);
      }
      assert.ok(
        spans().every((s) => s.spanContext().traceId === traceId),
        "one trace",
      );
    });

    it("names a refused request's span by its route too, with its status", async () => {
      exporter.reset();
      const r = await http(server.url, "GET", "/api/v1/games/g_nope");
      assert.equal(r.status, 404);
      await eventually(
        () => named("GET /api/v1/games/:id").length === 1,
        `the route's span: ${spans()
          .map((s) => `${s.name} ${JSON.stringify(s.attributes)}`)
          .join("; ")}`,
        5000,
      );
      assert.equal(named("GET /api/v1/games/:id")[0].attributes["http.response.status_code"], 404);
    });
  });
});
