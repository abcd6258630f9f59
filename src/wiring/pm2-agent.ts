/**
 * Colyseus reports its room and client counts to PM2 through PM2's agent, @pm2/io, which it loads when the
 * matchmaker starts. Outside PM2 the agent has nobody to report to, yet it keeps timers that list every open
 * handle (a 6,000-element array every second with 3,000 games open, about 1% of the main thread) and it
 * installs the process's handlers for uncaught errors. The agent keeps one instance per process in a shared
 * global slot and reuses whatever it finds there, so outside PM2 (no `pm_id` in the environment, which PM2
 * sets for every process it runs) that slot is filled with an inert stand-in before Colyseus loads it. Under
 * PM2 the agent runs as Colyseus intends.
 *
 * The agent's handler for unhandled promise rejections logged them and let the process go on; the server
 * keeps that policy with a handler of its own that writes to the server's log. An uncaught exception still
 * ends the process with exit code 1, as it did under the agent (docs/DEPLOY.md, "Operating it").
 */
import type { Logger } from "../shared/logger";

const SLOT = Symbol.for("@pm2/io");

/** What Colyseus calls on the agent (`metric`), doing nothing. */
const inertAgent = Object.freeze({ metric: () => ({ set: () => {} }) });

/** True when PM2 runs this process. */
const underPm2 = (env: NodeJS.ProcessEnv = process.env) => env.pm_id !== undefined;

let rejectionLog: Logger | null = null;

/**
 * Outside PM2: fills the agent's slot with the inert stand-in (unless the agent is already loaded) and logs
 * unhandled promise rejections to the newest server's log, letting the process go on (one handler per process).
 */
export function quietPm2Agent(log: Logger, env: NodeJS.ProcessEnv = process.env): void {
  if (underPm2(env)) return;
  const slots = globalThis as unknown as Record<symbol, unknown>;
  slots[SLOT] ??= inertAgent;
  if (!rejectionLog) process.on("unhandledRejection", (reason) => rejectionLog?.error({ err: reason }, "unhandled promise rejection"));
  rejectionLog = log;
}
