/**
 * Colyseus logs through `console` unless given a logger; its errors (a frame it cannot decode, a hook that
 * threw) would then be multi-line stack traces on stderr, one per frame. This adapter sends them to the
 * structured logger instead, errors and warnings rate-limited (clients can cause them at will), the rest at
 * debug level.
 */
import { format } from "node:util";
import type { Logger } from "../../shared/logger";
import { RateLimitedLog, type ConnectionScope } from "./log-once";

export interface ColyseusLogger {
  debug(...args: unknown[]): void;
  info(...args: unknown[]): void;
  trace(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

/** `scope` names the connection whose frame is being handled: its errors are logged once per connection. */
export function colyseusLogger(log: Logger, scope?: ConnectionScope): ColyseusLogger {
  const limited = new RateLimitedLog(log);
  const text = (args: unknown[]) => format(...args);
  const report =
    (level: string) =>
    (...args: unknown[]) => {
      const conn = scope?.active;
      if (conn?.errorLogged) return;
      if (conn) conn.errorLogged = true;
      const [first, ...rest] = text(args).split("\n");
      limited.warn({ source: "colyseus", level, ip: conn?.ip, stack: rest.length ? rest.slice(0, 8).map((l) => l.trim()) : undefined }, first);
    };
  return {
    debug: (...args) => log.debug({ source: "colyseus" }, text(args)),
    info: (...args) => log.debug({ source: "colyseus" }, text(args)),
    trace: (...args) => log.trace({ source: "colyseus" }, text(args)),
    warn: report("warn"),
    error: report("error"),
  };
}
