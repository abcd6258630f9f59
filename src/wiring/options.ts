/** What a caller of `startServer` may set besides the Config (tests and benchmarks mostly). */
import type { SpanExporter } from "@opentelemetry/sdk-trace";
import type { Logger } from "../shared/logger";

export interface StartOptions {
  /** Extra CA certificates trusted for webhook callbacks (tests' self-signed receivers). */
  webhookCa?: string | Buffer;
  /** Webhook retry waits (tests shorten them). */
  webhookRetryDelaysMs?: number[];
  finishedGraceMs?: number;
  /** The structured logger (tests capture what is logged); default: pino at config.logLevel on stdout. */
  log?: Logger;
  /** Told each SQLite WAL fsync's duration in seconds besides the metrics (the room benchmark's capacity table). */
  onFsync?: (seconds: number) => void;
  /** Where spans go, whatever config.tracing says (tests read them from an in-memory exporter). */
  spanExporter?: SpanExporter;
}
