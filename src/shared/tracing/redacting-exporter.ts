/**
 * Every span leaves the process through this exporter, which replaces capabilities (src/shared/redaction.ts) in its
 * name, its attributes, its events' attributes (an exception's message and stack), its links' attributes and
 * its status message. The spans themselves are left as recorded: the copies handed on differ only there.
 */
import type { Attributes, Link } from "@opentelemetry/api";
import type { ExportResult } from "@opentelemetry/core";
import type { ReadableSpan, SpanExporter, TimedEvent } from "@opentelemetry/sdk-trace";
import { redactText } from "../redaction";

export function redactingExporter(inner: SpanExporter): SpanExporter {
  return {
    export: (spans: ReadableSpan[], done: (result: ExportResult) => void) => inner.export(spans.map(redactSpan), done),
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush?.() ?? Promise.resolve(),
  };
}

function redactSpan(span: ReadableSpan): ReadableSpan {
  const copy: Partial<Record<keyof ReadableSpan, PropertyDescriptor>> = {
    name: { value: redactText(span.name), enumerable: true },
    attributes: { value: redactAttributes(span.attributes), enumerable: true },
    events: {
      value: span.events.map((e): TimedEvent => ({ ...e, ...(e.attributes ? { attributes: redactAttributes(e.attributes) } : {}) })),
      enumerable: true,
    },
    links: { value: span.links.map((l): Link => ({ ...l, ...(l.attributes ? { attributes: redactAttributes(l.attributes) } : {}) })), enumerable: true },
    status: { value: span.status.message ? { ...span.status, message: redactText(span.status.message) } : span.status, enumerable: true },
  };
  // The copy reads everything else (ids, times, parent, resource, scope) from the recorded span.
  return Object.create(span, copy) as ReadableSpan;
}

function redactAttributes(attributes: Attributes): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) out[key] = redactValue(value);
  return out;
}

/** A string, or the strings of an array, redacted; numbers and booleans as they are. */
function redactValue<T>(value: T): T {
  if (typeof value === "string") return redactText(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => (typeof v === "string" ? redactText(v) : v)) as T;
  return value;
}
