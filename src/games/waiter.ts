/**
 * Long-poll wake-ups through presence pub/sub, so a waiter on any process is woken by a change made in
 * any other. Subscribe before reading, then wait: a change between the read and the wait is not missed.
 */
import type { Presence } from "@colyseus/core";

export interface Waiter {
  /** Resolves true when woken, false at the deadline. */
  wait(deadlineMs: number): Promise<boolean>;
  cancel(): void;
}

export async function subscribeOnce(presence: Presence, channel: string): Promise<Waiter> {
  let woken = false;
  let wake: (() => void) | undefined;
  const callback = () => {
    woken = true;
    wake?.();
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
