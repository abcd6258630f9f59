/**
 * A progress bar for long runs (benchmarks, self-play). It draws on stderr only when stderr is a terminal
 * and the caller is not writing JSON, so piped or machine-read output never carries bar frames.
 */
import { Presets, SingleBar } from "cli-progress";

export interface Progress {
  update(value: number): void;
  increment(n?: number): void;
  stop(): void;
}

const SILENT: Progress = { update: () => undefined, increment: () => undefined, stop: () => undefined };

export function createProgress(label: string, total: number, opts: { json?: boolean } = {}): Progress {
  if (!process.stderr.isTTY || opts.json) return SILENT;
  const bar = new SingleBar(
    { format: `${label} [{bar}] {value}/{total} {percentage}% eta {eta_formatted}`, stream: process.stderr, hideCursor: true },
    Presets.shades_classic,
  );
  bar.start(total, 0);
  return {
    update: (value) => bar.update(value),
    increment: (n = 1) => bar.increment(n),
    stop: () => bar.stop(),
  };
}
