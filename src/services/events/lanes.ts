/**
 * Which subscriptions are in the slow lane. A subscription starts in the fast lane; an answer slower than the
 * threshold, a POST still unanswered at the threshold, or a failed POST moves it to the slow lane, and a run
 * of healthy answers brings it back. Held in memory per process: after a restart every subscription starts
 * fast again and is judged on its next answers.
 */
export type Lane = "fast" | "slow";

export class SlowLane {
  /** Subscription id -> healthy answers in a row since it was last slow. A Map keeps the oldest entry first. */
  private readonly members = new Map<string, number>();

  /**
   * @param healthyToReturn healthy answers in a row that bring a subscription back to the fast lane.
   * @param cap most subscriptions remembered; beyond it the one slowed longest ago is forgotten (it starts fast).
   */
  constructor(
    private readonly healthyToReturn: number,
    private readonly cap: number,
  ) {}

  get size(): number {
    return this.members.size;
  }

  laneOf(subscriptionId: string): Lane {
    return this.members.has(subscriptionId) ? "slow" : "fast";
  }

  /** A slow or failed answer; true when this moved the subscription from the fast lane. */
  slowed(subscriptionId: string): boolean {
    const moved = !this.members.delete(subscriptionId);
    this.members.set(subscriptionId, 0);
    if (this.members.size > this.cap) this.members.delete(this.members.keys().next().value as string);
    return moved;
  }

  /** A healthy answer; true when this brought the subscription back to the fast lane. */
  healthy(subscriptionId: string): boolean {
    const streak = this.members.get(subscriptionId);
    if (streak === undefined) return false;
    if (streak + 1 < this.healthyToReturn) {
      this.members.set(subscriptionId, streak + 1);
      return false;
    }
    this.members.delete(subscriptionId);
    return true;
  }

  /** The subscription ended. */
  forget(subscriptionId: string): void {
    this.members.delete(subscriptionId);
  }
}
