/**
 * Long-poll wake-ups through presence pub/sub, so a waiter on any process is woken by a change made in
 * any other. Subscribe before reading, then wait: a change between the read and the wait is not missed.
 *
 * A change wakes its waiters a few per turn of the event loop (Wakeups), not all at once: each woken waiter
 * reads the game, builds its answer and writes it, which costs about half a millisecond, and all of it ran in
 * the turn that published the change. 1,500 spectators parked on one game held the loop for 1.6 s that way,
 * the mover's own answer and every other request of the process behind them.
 */
import type { Presence } from "@colyseus/core";

export interface Waiter {
  /** Resolves true when woken, false at the deadline. */
  wait(deadlineMs: number): Promise<boolean>;
  cancel(): void;
}

/** Waiters woken per turn of the event loop: a few milliseconds of answers, then other work gets its turn. */
const WAKES_PER_TURN = 8;

/** Runs wake-ups in order, at most `perTurn` per turn of the event loop (one queue per process's service). */
export class Wakeups {
  private queue: Array<() => void> = [];
  private head = 0;
  private scheduled = false;

  constructor(private readonly perTurn = WAKES_PER_TURN) {}

  /** Runs `wake` in a later turn (setImmediate: after the I/O already waiting, such as other requests). */
  later(wake: () => void): void {
    this.queue.push(wake);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.drain);
  }

  /** Each wake's answer is built and written in the microtasks after this callback, still in this turn. */
  private readonly drain = () => {
    const end = Math.min(this.queue.length, this.head + this.perTurn);
    while (this.head < end) this.queue[this.head++]();
    if (this.head < this.queue.length) {
      setImmediate(this.drain);
      return;
    }
    this.queue = [];
    this.head = 0;
    this.scheduled = false;
  };
}

/** Subscribes to `channel`; with `wakeups`, a wake-up waits its turn there (for channels with many waiters). */
export async function subscribeOnce(presence: Presence, channel: string, wakeups?: Wakeups): Promise<Waiter> {
  let woken = false;
  let wake: (() => void) | undefined;
  const callback = () => {
    if (woken) return;
    woken = true;
    if (!wake) return;
    if (wakeups) wakeups.later(wake);
    else wake();
  };
  await presence.subscribe(channel, callback);
  let cancelled = false;
  const cancel = () => {
    if (cancelled) return;
    cancelled = true;
    presence.unsubscribe(channel, callback);
  };
  return {
    cancel,
    wait(deadlineMs) {
      if (woken) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), Math.max(0, deadlineMs - Date.now()));
        wake = () => {
          clearTimeout(timer);
          resolve(true);
        };
      });
    },
  };
}
