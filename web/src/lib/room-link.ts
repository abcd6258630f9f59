// A page's link to one Colyseus room, with its state told honestly; the game page (connection.ts) and the
// tournament page (tournament-connection.ts) share it. The browser's offline and online events are told at
// once; the SDK's own reconnection covers a short drop (onDrop, then onReconnect); when it gives up (onLeave)
// or a join fails, the page joins again with a growing delay, so it lands on whichever process holds the
// room now, unless the room is over for good.
import type { Client, Room } from "@colyseus/sdk";
import type * as ColyseusSdk from "@colyseus/sdk";

declare global {
  /** The SDK's browser bundle (/vendor/colyseus.js) defines this global. */
  const Colyseus: typeof ColyseusSdk;
}

export type LinkState = "connecting" | "live" | "dropped" | "offline" | "closed";

/** The delays between tries to join again, the last one repeated. */
const RETRY_MS = [500, 1000, 2000, 4000, 8000];

export abstract class RoomLink<S> {
  protected room: Room<unknown, S> | null = null;
  /** Set when the room is not to be joined again (it does not exist, or the page is done with it). */
  protected stopped = false;
  private joining = false;
  /** Between the SDK's onDrop and its onReconnect (or its giving up). */
  private dropped = false;
  private attempt = 0;
  /** Successful joins so far: more than one means the page joined again after losing the room. */
  joins = 0;

  constructor(private readonly tell: (state: LinkState) => void) {
    // The browser knows it is offline before the socket notices; say so at once.
    addEventListener("offline", () => this.tell("offline"));
    addEventListener("online", () => {
      if (this.room) this.tell(this.dropped ? "dropped" : "live");
      else void this.connect();
    });
  }

  get live(): boolean {
    return this.room !== null && !this.dropped && navigator.onLine;
  }

  /** Joins the room unless joined or joining already (a page calls this from several places). */
  async connect(): Promise<void> {
    if (this.room || this.joining || this.stopped) return;
    this.joining = true;
    this.tell(navigator.onLine ? "connecting" : "offline");
    let room: Room<unknown, S>;
    try {
      room = await this.join(new Colyseus.Client(location.origin));
    } catch (e) {
      this.joining = false;
      return this.joinFailed(e);
    }
    this.joining = false;
    this.attempt = 0;
    this.room = room;
    this.joins++;
    this.tell(navigator.onLine ? "live" : "offline");
    this.attach(room);
    room.onDrop(() => {
      this.dropped = true;
      this.tell("dropped");
    });
    room.onReconnect(() => {
      this.dropped = false;
      this.tell(navigator.onLine ? "live" : "offline");
    });
    room.onLeave(() => {
      this.room = null;
      this.dropped = false;
      if (this.stopped || this.over()) return this.tell("closed");
      // The SDK's reconnection gave up: join again (the room may now live on another process).
      this.retry();
    });
  }

  /** One join of the room. */
  protected abstract join(client: Client): Promise<Room<unknown, S>>;

  /** Registers the room's state and message handlers, once per join. */
  protected abstract attach(room: Room<unknown, S>): void;

  /** A join that failed: tried again after a delay, unless the subclass knows better. */
  protected joinFailed(_error: unknown): void | Promise<void> {
    this.retry();
  }

  /** Whether a room that closed is over for good (then it is not joined again). */
  protected over(): boolean {
    return false;
  }

  protected retry(): void {
    this.tell(navigator.onLine ? "dropped" : "offline");
    const delay = RETRY_MS[Math.min(this.attempt++, RETRY_MS.length - 1)];
    setTimeout(() => void this.connect(), delay);
  }
}
