/**
 * Structured JSON logs (pino). Secrets are redacted twice: by field (pino's `redact`, for the fields that
 * hold one), and every line as written (src/shared/redaction.ts), so a capability inside a message, a URL or an
 * error's text does not reach the log either.
 */
import pino from "pino";
import { REDACTED, redactText } from "./redaction";

export type Logger = pino.Logger;

/** Where log lines go: standard output by default; tests pass a stream that keeps them. */
export interface LogDestination {
  write(line: string): unknown;
}

export function createLogger(level: string, destination: LogDestination = pino.destination(1)): Logger {
  const scrubbed = {
    write: (line: string) => destination.write(redactText(line)),
    // pino's flush() reaches the underlying stream when it has one (standard output does).
    flush: (cb?: (err?: Error) => void) => {
      const flushable = destination as LogDestination & { flush?: (cb?: (err?: Error) => void) => void };
      if (flushable.flush) flushable.flush(cb);
      else cb?.();
    },
  };
  return pino(
    {
      level,
      redact: {
        paths: [
          "*.playerToken",
          "*.player_token",
          "*.token",
          "*.secret",
          "*.authorization",
          "*.botKey",
          "req.headers.authorization",
          "*.headers.authorization",
          "*.delivery.secret",
        ],
        censor: REDACTED,
      },
    },
    scrubbed,
  );
}
