/**
 * What accepted moves owe to others than their clients (metrics, waking long-polls, events), run after the
 * current turn of the event loop, so that the turn's socket writes (the patch and the mover's acknowledgement,
 * uncorked at its end) are not held up by them. One per process, shared by its game actors: a burst of moves
 * in one turn costs one setImmediate. In order, and never dropped.
 */
export class AfterTurn {
  private queue: Array<() => void> = [];
  private readonly drain = (): void => {
    const due = this.queue;
    this.queue = [];
    for (const task of due) task();
  };

  /** Runs `task` after this turn. A task must not throw: it handles its own failure (the actor logs it). */
  run(task: () => void): void {
    if (this.queue.length === 0) setImmediate(this.drain);
    this.queue.push(task);
  }
}
