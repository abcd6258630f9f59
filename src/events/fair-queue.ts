/**
 * Deliveries waiting for a slot, one FIFO per callback host, served in turn: a host with a thousand waiting
 * deliveries gets one slot each round like a host with one, so a slow or busy receiver delays only itself.
 */
export class FairQueue<T> {
  /** A Map keeps insertion order: the host served last is moved to the back, which makes the rounds. */
  private readonly queues = new Map<string, T[]>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Hosts with something waiting. */
  get keys(): number {
    return this.queues.size;
  }

  push(key: string, item: T): void {
    const q = this.queues.get(key);
    if (q) q.push(item);
    else this.queues.set(key, [item]);
    this.count++;
  }

  /** Takes the next item in turn among the hosts `ready` accepts (default every host). */
  take(ready: (key: string) => boolean = () => true): T | undefined {
    for (const [key, q] of this.queues) {
      if (!ready(key)) continue;
      const item = q.shift() as T;
      this.queues.delete(key);
      if (q.length > 0) this.queues.set(key, q);
      this.count--;
      return item;
    }
    return undefined;
  }

  /** Removes the oldest item of the longest queue: what a full queue sheds, so the busiest host pays for it. */
  shed(): T | undefined {
    let longest: [string, T[]] | undefined;
    for (const entry of this.queues) if (!longest || entry[1].length > longest[1].length) longest = entry;
    if (!longest) return undefined;
    const [key, q] = longest;
    const item = q.shift() as T;
    if (q.length === 0) this.queues.delete(key);
    this.count--;
    return item;
  }

  clear(): void {
    this.queues.clear();
    this.count = 0;
  }
}
