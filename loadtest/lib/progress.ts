/**
 * A progress bar on the terminal (stderr) for the long-running tools; nothing at all when stderr is not a
 * terminal or the output is JSON, so logs and pipes stay clean.
 */
import { SingleBar, Presets } from "cli-progress";

export interface Progress {
  update(value: number): void;
  increment(n?: number): void;
  stop(): void;
}

const NONE: Progress = { update: () => undefined, increment: () => undefined, stop: () => undefined };

export function createProgress(label: string, total: number, opts?: { json?: boolean }): Progress {
  if (!process.stderr.isTTY || opts?.json) return NONE;
  const bar = new SingleBar({ format: `${label} [{bar}] {percentage}% | {value}/{total} | {duration_formatted}`, stream: process.stderr, hideCursor: true }, Presets.shades_classic);
  bar.start(total, 0);
  return {
    update: (value) => bar.update(value),
    increment: (n = 1) => bar.increment(n),
    stop: () => bar.stop(),
  };
}
