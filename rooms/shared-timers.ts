/**
 * One Node timer for the deadlines of every game of the process (the turn clocks, the wait for a second player,
 * the release after the grace period) instead of one per game: the deadlines sit in a binary min-heap by time,
 * and the single timer is armed for the earliest. Adding a deadline later than the earliest, or cancelling one,
 * touches the heap only; the Node timer is re-armed only when the earliest deadline changes. Deadlines are
 * exact (no rounding to a tick), so a turn times out when it is due, as with a timer of its own.
 *
 * Epoch milliseconds (Date.now), as the game records' times are; the timer functions are looked up at each
 * arming, so a test's fake timers drive it.
 */

import type { Deadline, DeadlineTimers } from "../src/games/ports";

interface Entry extends Deadline {
  at: number;
  fire: (() => void) | null;
  /** Its place in the heap; -1 once fired or cancelled. */
  slot: number;
}

export class SharedTimers implements DeadlineTimers {
  private readonly heap: Entry[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** When the armed Node timer fires (epoch ms); Infinity when none is armed. */
  private armedAt = Infinity;
  // Made once: arming the timer makes no closure.
  private readonly fired = () => this.onTimer();

  /** Deadlines waiting. */
  get size(): number {
    return this.heap.length;
  }

  /** Calls `fire` at `at` (epoch ms; at once, in a timer, when already past). */
  add(at: number, fire: () => void): Deadline {
    const entry: Entry = { at, fire, slot: this.heap.length };
    this.heap.push(entry);
    this.up(entry.slot);
    if (at < this.armedAt) this.arm();
    return entry;
  }

  /** Forgets a deadline not yet fired; nothing for one fired, cancelled, or undefined. */
  cancel(deadline: Deadline | undefined): void {
    const entry = deadline as Entry | undefined;
    if (!entry || entry.slot < 0) return;
    this.removeAt(entry.slot);
    // The Node timer stays armed for the removed deadline, if it was the earliest: it then finds nothing due and
    // arms for the next. Fewer re-armings than re-arming here, and no timer left armed once the heap is empty.
    if (this.heap.length === 0) this.disarm();
  }

  private onTimer(): void {
    this.timer = undefined;
    this.armedAt = Infinity;
    const now = Date.now();
    // One at a time: a fired callback may add or cancel deadlines.
    for (let top = this.heap[0]; top && top.at <= now; top = this.heap[0]) {
      const fire = top.fire!;
      this.removeAt(0);
      fire();
    }
    if (this.heap.length > 0 && this.heap[0].at < this.armedAt) this.arm();
  }

  private arm(): void {
    const at = this.heap[0].at;
    if (this.timer) clearTimeout(this.timer);
    this.armedAt = at;
    this.timer = setTimeout(this.fired, Math.max(0, at - Date.now()));
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.armedAt = Infinity;
  }

  private removeAt(slot: number): void {
    const entry = this.heap[slot];
    const last = this.heap.pop()!;
    entry.slot = -1;
    entry.fire = null;
    if (last === entry) return;
    this.heap[slot] = last;
    last.slot = slot;
    this.up(slot);
    this.down(last.slot);
  }

  private up(slot: number): void {
    const h = this.heap;
    const e = h[slot];
    while (slot > 0) {
      const parent = (slot - 1) >> 1;
      if (h[parent].at <= e.at) break;
      h[slot] = h[parent];
      h[slot].slot = slot;
      slot = parent;
    }
    h[slot] = e;
    e.slot = slot;
  }

  private down(slot: number): void {
    const h = this.heap;
    const e = h[slot];
    const n = h.length;
    for (;;) {
      let child = 2 * slot + 1;
      if (child >= n) break;
      if (child + 1 < n && h[child + 1].at < h[child].at) child++;
      if (h[child].at >= e.at) break;
      h[slot] = h[child];
      h[slot].slot = slot;
      slot = child;
    }
    h[slot] = e;
    e.slot = slot;
  }
}
