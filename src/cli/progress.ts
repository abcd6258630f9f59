/**
 * A progress bar for long-running commands, drawn on stderr with cli-progress. Nothing is drawn when stderr
 * is not a terminal (piped, CI) or when the command was asked for JSON, so their output stays clean.
 */
import { Presets, SingleBar } from "cli-progress";

export interface Progress {
  update(value: number): void;
  increment(n?: number): void;
  stop(): void;
}

const NONE: Progress = { update: () => undefined, increment: () => undefined, stop: () => undefined };

export function createProgress(label: string, total: number, opts?: { json?: boolean }): Progress {
  if (!process.stderr.isTTY || opts?.json) return NONE;
  const bar = new SingleBar(
    { format: `${label} [{bar}] {percentage}% | {value}/{total} | {duration_formatted}`, stream: process.stderr, hideCursor: true, clearOnComplete: true },
    Presets.shades_classic,
  );
  bar.start(total, 0);
  return {
    update: (value) => bar.update(value),
    increment: (n = 1) => bar.increment(n),
    stop: () => bar.stop(),
  };
}
