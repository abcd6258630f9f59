/**
 * The WebSocket heartbeat, spread over its period. Colyseus' own transport pings every socket of the process
 * in one timer callback every 3 s: each ping is a socket write (tens of microseconds), so with thousands of
 * sockets that one callback holds the event loop for as long as a move's whole round trip budget (20 ms at
 * 500 sockets, about 90 ms at 4,000 in the room benchmark's capacity phase), every 3 s. Here a short timer
 * pings the next slice of sockets round-robin: every socket is pinged once per period and cut after
 * `maxMissed` unanswered pings, and no callback writes to more than a slice.
 *
 * A socket that sent a frame since its last visit is not pinged on this pass: the frame already shows it is
 * alive, and a ping would cost a write here and a read and a write at the client, for nothing. With seats
 * moving every few seconds most sockets of a busy process are in that case (at 2,000 games, each seat
 * moving every 5 s and a 3 s period, three pings in five). A socket that falls silent is pinged on the next
 * pass and cut after `maxMissed` unanswered pings; a pong does not count as such a frame, or a
 * silent socket would be pinged only every other pass and cut twice as late.
 */
export interface Pingable {
  /** Pings sent since the socket last answered (the transport's pong handler sets it back to 0). */
  pingCount: number;
  /** Set by the transport when the socket sends a message or a ping frame (not a pong); cleared by each pass. */
  heard?: boolean;
  ping(cb: (err?: Error) => void): void;
  terminate(): void;
}

/** How often a slice is pinged: short enough that each slice is small, long enough to cost nothing idle. */
const SLICE_MS = 100;

function noop(): void {}

export class StaggeredHeartbeat {
  private cursor: Iterator<Pingable> | null = null;
  private ticks = 0;
  private readonly slices: number;

  /**
   * @param sockets the live set of sockets (ws' `wss.clients`: sockets are added and removed while it runs,
   *   and a Set's iterator skips removed entries and reaches added ones).
   */
  constructor(
    private readonly sockets: Set<Pingable>,
    periodMs: number,
    private readonly maxMissed: number,
    private readonly sliceMs = SLICE_MS,
  ) {
    this.slices = Math.max(1, Math.round(periodMs / sliceMs));
  }

  /** Starts the timer; the caller clears it (the transport keeps it where its server's close clears it). */
  start(): NodeJS.Timeout {
    return setInterval(() => this.tick(), this.sliceMs);
  }

  /**
   * Pings (or cuts) the next slice. A pass over the sockets takes `slices` ticks, one period, however few
   * sockets there are; a socket that joined after its pass began waits for the next pass at most.
   */
  tick(): void {
    if (this.ticks++ % this.slices === 0) this.cursor = this.sockets.values();
    let n = Math.ceil(this.sockets.size / this.slices);
    while (n-- > 0 && this.cursor) {
      const next = this.cursor.next();
      if (next.done) {
        this.cursor = null;
        return;
      }
      const socket = next.value;
      if (socket.heard) {
        socket.heard = false;
        socket.pingCount = 0;
        continue;
      }
      if (socket.pingCount >= this.maxMissed) {
        socket.terminate();
        continue;
      }
      socket.pingCount++;
      socket.ping(noop);
    }
  }
}
