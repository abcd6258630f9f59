/**
 * Work run one at a time per key (a league, an arena, an agent challenge) within this process: each piece
 * starts once the earlier work on its key has settled, whether that succeeded or failed. Other processes are
 * not held off by it: the services that use it guard their writes with the record's version as well.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Runs `work` after this process's earlier work on `key` has settled; a key with nothing queued is forgotten. */
  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const run = (this.tails.get(key) ?? Promise.resolve()).catch(() => {}).then(work);
    this.tails.set(key, run);
    void run
      .finally(() => {
        if (this.tails.get(key) === run) this.tails.delete(key);
      })
      .catch(() => {});
    return run;
  }
}
