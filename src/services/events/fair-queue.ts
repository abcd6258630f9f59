/**
 * Deliveries waiting for a slot, one FIFO per subscription, served in turn: a subscription with a thousand
 * waiting deliveries gets one slot each round like a subscription with one, so a busy subscriber delays only
 * itself, whatever callback host it shares with others.
 */
export class FairQueue<T> {
  /** A Map keeps insertion order: the key served last is moved to the back, which makes the rounds. */
  private readonly queues = new Map<string, T[]>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Keys with something waiting. */
  get keys(): number {
    return this.queues.size;
  }

  push(key: string, item: T): void {
    const q = this.queues.get(key);
    if (q) q.push(item);
    else this.queues.set(key, [item]);
    this.count++;
  }

  /** Takes the next item in turn among the keys whose next item `ready` accepts (default every key). */
  take(ready: (next: T) => boolean = () => true): T | undefined {
    for (const [key, q] of this.queues) {
      if (!ready(q[0])) continue;
      const item = q.shift() as T;
      this.queues.delete(key);
      if (q.length > 0) this.queues.set(key, q);
      this.count--;
      return item;
    }
    return undefined;
  }

  /** Removes and returns everything waiting under `key`, oldest first (to move it to another queue). */
  remove(key: string): T[] {
    const q = this.queues.get(key);
    if (!q) return [];
    this.queues.delete(key);
    this.count -= q.length;
    return q;
  }

  /** Removes the oldest item of the longest queue: what a full queue sheds, so the busiest key pays for it. */
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
