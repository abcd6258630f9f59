/**
 * A WebSocket seat that plays legal moves through the game room (@colyseus/sdk), as a stock SDK client
 * does: it plays a random entry of the `legal` list its seat's `hand` message (sent when its turn begins)
 * or `moved` acknowledgement carries, as `move` { move: "E7@b3" }; `refused` refuses. `finished` settles when the synced state says the game ended, the seat leaves, or the room goes away.
 *
 * Unpaced (the default), a seat moves as soon as its turn comes, so the load follows whatever the machine
 * can do. Paced (`paceMs`), each seat moves once every `paceMs` on its own clock: its first move half a
 * period after it first sees its turn, each next one a period after the previous one was due; a seat more
 * than a period behind (its turn came late) drops the missed slots rather than catching up in a burst. Both
 * seats pacing alike, a game moves every half period whatever the server's speed, so the offered load stays
 * the same for as long as the run lasts.
 */
import { WebSocket as WsWebSocket } from "ws";
// Colyseus 0.18 expects a global WebSocket (Node 22 has one; Node 20 does not).
(globalThis as { WebSocket?: unknown }).WebSocket ??= WsWebSocket;

import type { Client, Room } from "@colyseus/sdk";
import { nowMs, type Seat } from "./common";

const LEAVE_WAIT_MS = 2000;

export interface PlayStats {
  /** Moves sent. */
  sent: number;
  /** `moved` replies. */
  acked: number;
  /** `refused` replies, by code. */
  refused: Record<string, number>;
  /** First few refusal details, for the report. */
  refusalSamples: string[];
  /** Round trips (send -> moved), milliseconds; kept only while `latencies` is an array. */
  latencies?: number[];
  /** Called with every round trip instead (a streaming histogram keeps memory bounded on long runs). */
  roundTrip?: (ms: number) => void;
}

export const newStats = (keepLatencies = false): PlayStats => ({
  sent: 0,
  acked: 0,
  refused: {},
  refusalSamples: [],
  ...(keepLatencies ? { latencies: [] } : {}),
});

type Outcome = "finished" | "left";

export class SeatPlayer {
  readonly finished: Promise<Outcome>;
  private settle!: (o: Outcome) => void;
  private sentTime = 0;
  /** A move was sent and neither `moved` nor `refused` has answered it. */
  private inflight = false;
  /** What this seat may play, from its last `hand` or `moved` (empty when it is not its turn). */
  private legal: string[] = [];
  private stopped = false;
  private refusalsInARow = 0;
  /** When this seat's next move is due (paced only); undefined until it first sees its turn. */
  private due: number | undefined;
  private paceTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly room: Room,
    readonly seat: Seat,
    private readonly stats: PlayStats,
    private readonly paceMs = 0,
  ) {
    this.finished = new Promise((r) => (this.settle = r));
    room.onStateChange(() => this.maybeMove());
    room.onMessage("hand", (h: { legal?: string[] }) => {
      this.legal = h.legal ?? [];
      this.maybeMove();
    });
    room.onMessage("moved", (m: { hand?: { legal?: string[] } }) => {
      this.inflight = false;
      if (m.hand) this.legal = m.hand.legal ?? [];
      this.stats.acked++;
      this.refusalsInARow = 0;
      const ms = nowMs() - this.sentTime;
      this.stats.latencies?.push(ms);
      this.stats.roundTrip?.(ms);
    });
    room.onMessage("refused", (m: { code: string; detail: string }) => {
      this.stats.refused[m.code] = (this.stats.refused[m.code] ?? 0) + 1;
      if (this.stats.refusalSamples.length < 5) this.stats.refusalSamples.push(`${m.code}: ${m.detail}`);
      // Try again now with the same legal list (it may have been a stale one); give up after 5 in a row.
      this.inflight = false;
      if (this.paceMs > 0) this.due = nowMs();
      if (++this.refusalsInARow < 5) setImmediate(() => this.maybeMove());
    });
    room.onLeave(() => this.settle("left"));
    this.maybeMove();
  }

  static async join(client: Client, gameId: string, token: string, seat: Seat, stats: PlayStats, paceMs = 0): Promise<SeatPlayer> {
    const room = await client.joinById(gameId, { playerToken: token });
    return new SeatPlayer(room, seat, stats, paceMs);
  }

  private maybeMove() {
    if (this.stopped) return;
    const s = this.room.state;
    if (!s) return;
    if (s.status === "finished") return this.settle("finished");
    if (this.inflight || s.status !== "active" || this.legal.length === 0) return;
    if (this.paceMs > 0 && !this.dueNow()) return;
    const move = { move: this.legal[Math.floor(Math.random() * this.legal.length)] };
    this.inflight = true;
    this.sentTime = nowMs();
    this.stats.sent++;
    this.room.send("move", move);
  }

  /**
   * Paced: true when this seat's move is due now (and the next one is then booked); otherwise one timer
   * comes back at the due time. A refused move is retried at once (the refusal handler makes it due now).
   */
  private dueNow(): boolean {
    const now = nowMs();
    if (this.due === undefined) this.due = now + this.paceMs / 2;
    if (this.due > now) {
      this.paceTimer ??= setTimeout(() => {
        this.paceTimer = undefined;
        this.maybeMove();
      }, this.due - now);
      return false;
    }
    this.due = Math.max(this.due + this.paceMs, now);
    return true;
  }

  /** Stops playing; `leave` closes the connection. */
  stop() {
    this.stopped = true;
    clearTimeout(this.paceTimer);
  }

  /**
   * Leaves the room, waiting at most LEAVE_WAIT_MS for the server's goodbye: a consented leave that crosses
   * the room's own closing (a finished game is released) may never be answered, and a load generator must
   * not hang on it.
   */
  async leave(): Promise<void> {
    this.stop();
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([this.room.leave(true), new Promise((r) => (timer = setTimeout(r, LEAVE_WAIT_MS)))]);
    } catch {
      /* already gone */
    } finally {
      clearTimeout(timer);
    }
    this.settle("left");
  }
}
