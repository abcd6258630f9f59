/** Structured JSON logs (pino). Secrets (tokens, webhook secrets) are redacted by path. */
import pino from "pino";

export type Logger = pino.Logger;

export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: ["*.playerToken", "*.player_token", "*.secret", "*.authorization", "req.headers.authorization", "*.delivery.secret"],
      censor: "[redacted]",
    },
  });
}
