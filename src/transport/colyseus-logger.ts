/**
 * Colyseus logs through `console` unless given a logger; its errors (a frame it cannot decode, a hook that
 * threw) would then be multi-line stack traces on stderr, one per frame. This adapter sends them to the
 * structured logger instead, errors and warnings rate-limited (clients can cause them at will), the rest at
 * debug level.
 */
import { format } from "node:util";
import type { Logger } from "../logger";
import { RateLimitedLog } from "./log-once";

export interface ColyseusLogger {
  debug(...args: unknown[]): void;
  info(...args: unknown[]): void;
  trace(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

export function colyseusLogger(log: Logger): ColyseusLogger {
  const limited = new RateLimitedLog(log);
  const text = (args: unknown[]) => format(...args);
  const report = (level: string) => (...args: unknown[]) => {
    const [first, ...rest] = text(args).split("\n");
    limited.warn({ source: "colyseus", level, stack: rest.length ? rest.slice(0, 8).map((l) => l.trim()) : undefined }, first);
  };
  return {
    debug: (...args) => log.debug({ source: "colyseus" }, text(args)),
    info: (...args) => log.debug({ source: "colyseus" }, text(args)),
    trace: (...args) => log.trace({ source: "colyseus" }, text(args)),
    warn: report("warn"),
    error: report("error"),
  };
}
