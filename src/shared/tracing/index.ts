/**
 * OpenTelemetry traces of the REST routes and of a game action's path through its room (validate, engine,
 * group commit, broadcast), off by default. On (config.tracing), spans go to an OTLP/HTTP exporter that
 * takes its endpoint, headers and timeouts from the standard OTEL_EXPORTER_OTLP_* variables, or to the
 * console; tests hand in an in-memory exporter.
 *
 * Spans are made through the global API (`traced`): with no provider registered by startTracing it makes
 * none and calls the traced function directly, so the code paths cost next to nothing while tracing is off. A provider is registered for the
 * life of one server and removed when it closes, so a later server in the same process starts clean.
 */
import { context, INVALID_SPAN_CONTEXT, propagation, trace, SpanStatusCode, type Attributes, type Span } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, ConsoleSpanExporter, SimpleSpanProcessor, TracerProvider, type SpanExporter } from "@opentelemetry/sdk-trace";
import { redactingExporter } from "./redacting-exporter";

const TRACER = "tile-arena";

export type TracingMode = "off" | "otlp" | "console";

export interface Tracing {
  /** Flushes the spans still buffered and unregisters the provider. */
  shutdown(): Promise<void>;
}

/**
 * Registers a tracer provider for this process when tracing is on (or an exporter is given, as tests do);
 * otherwise registers nothing and every span is a no-op.
 */
export function startTracing(mode: TracingMode, serviceName: string, exporter?: SpanExporter): Tracing {
  if (mode === "off" && !exporter) return { shutdown: async () => undefined };
  // Whatever the exporter, capabilities in a span are replaced on the way out (src/shared/redaction.ts).
  const processor = exporter
    ? new SimpleSpanProcessor({ exporter: redactingExporter(exporter) })
    : new BatchSpanProcessor({ exporter: redactingExporter(mode === "console" ? new ConsoleSpanExporter() : new OTLPTraceExporter()) });
  const provider = new TracerProvider({ resource: resourceFromAttributes({ "service.name": serviceName }), spanProcessors: [processor] });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  providers++;
  return {
    shutdown: async () => {
      providers--;
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}

/** Providers registered by startTracing and not yet shut down; while none is, `traced` makes no span at all. */
let providers = 0;

/**
 * What `traced` hands its function while tracing is off: the API's own non-recording span. Making one per
 * call (the no-op tracer's span, its context, the wrapper's extra promise) was a measurable share of a move.
 */
const NO_SPAN: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/**
 * Runs `fn` inside a span named `name`, a child of the active one; the span ends when `fn` returns or its
 * promise settles, marked as an error when it throws. The tracer is looked up on each call: a provider may
 * have been registered (or removed) since the last one. With none registered `fn` runs as a plain call.
 */
export function traced<T>(name: string, attributes: Attributes, fn: (span: Span) => T): T {
  if (providers === 0) return fn(NO_SPAN);
  return trace.getTracer(TRACER).startActiveSpan(name, { attributes }, (span) => {
    const fail = (err: unknown) => {
      span.recordException(err instanceof Error ? err : String(err));
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      throw err;
    };
    try {
      const out = fn(span);
      if (out instanceof Promise) {
        return out.then((v: unknown) => {
          span.end();
          return v;
        }, fail) as T;
      }
      span.end();
      return out;
    } catch (err) {
      return fail(err);
    }
  });
}

export { tracingMiddleware } from "./http";
