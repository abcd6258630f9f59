// The game room connection of a page, with its state told honestly. The SDK's own reconnection covers a
// short drop (onDrop, then onReconnect); when it gives up (onLeave without the game being over), the page
// joins again by game id with the stored player token, so it lands on whichever process owns the game now.
import type { Room } from "@colyseus/sdk";
import type { GameRoomState } from "../../../rooms/game-state";
import type { GameOut, SeatHand } from "../../../rooms/messages";
import type { MoveBody } from "../../../src/games/schemas";

declare global {
  /** The SDK's browser bundle (/vendor/colyseus.js) defines this global. */
  const Colyseus: typeof import("@colyseus/sdk");
}

export type LinkState = "connecting" | "live" | "dropped" | "offline" | "closed";

/** What the server sends a game room's clients (rooms/messages.ts), with the service's own error codes. */
export type ServerMessage = Extract<GameOut, { type: "refused" | "moved" | "rematchOffered" | "rematchDeclined" | "rematchStarted" }>;
type Payload<T extends GameOut["type"]> = Omit<Extract<GameOut, { type: T }>, "type">;

export interface ConnectionEvents {
  /** The public room state and the own seat's hand (null for a spectator, or until the room sends it). */
  state(state: GameRoomState, hand: SeatHand | null): void;
  message(m: ServerMessage): void;
  link(state: LinkState): void;
  /** The stored token was refused (4401): the page goes on as a spectator. */
  badToken(): void;
  /** Whether the game is over (then a closed room is not rejoined). */
  finished(): boolean;
}

const RETRY_MS = [500, 1000, 2000, 4000, 8000];
const UNAUTHORIZED = 4401;

export class GameConnection {
  private room: Room<unknown, GameRoomState> | null = null;
  private attempt = 0;
  private token: string | null;
  private stopped = false;
  private joining = false;
  /** Between the SDK's onDrop and its onReconnect (or its giving up). */
  private dropped = false;
  /** The own seat's hand as the room last sent it (`hand`, or inside `moved`); the state never holds it. */
  private hand: SeatHand | null = null;
  /** Successful joins so far: more than one means the page rejoined after losing the room. */
  joins = 0;

  /**
   * `reservation`: the seat reservation of the answer that seated this browser, if any; the first join uses
   * it (no matchmaking request), and any later one, or a lapsed reservation, joins by id.
   */
  constructor(private readonly gameId: string, token: string | null, private readonly on: ConnectionEvents, private reservation: unknown = null) {
    this.token = token;
    // The browser knows it is offline before the socket notices; say so at once.
    addEventListener("offline", () => this.on.link("offline"));
    addEventListener("online", () => {
      if (this.room) this.on.link(this.dropped ? "dropped" : "live");
      else void this.connect();
    });
  }

  get live(): boolean {
    return this.room !== null && !this.dropped && navigator.onLine;
  }

  /** A move is validated by the room with the same schema as the REST body (src/games/schemas.ts). */
  send(type: "move", payload: MoveBody): boolean;
  send(type: "resign" | "rematch" | "declineRematch"): boolean;
  /** Sends when the room is live; answers false (nothing sent) otherwise, for the caller to say so. */
  send(type: string, payload?: unknown): boolean {
    if (!this.live || !this.room) return false;
    this.room.send(type, payload);
    return true;
  }

  /** Joins the room unless joined or joining already (the page calls this from several places). */
  async connect(): Promise<void> {
    if (this.room || this.joining || this.stopped) return;
    this.joining = true;
    this.on.link(navigator.onLine ? "connecting" : "offline");
    let room: Room<unknown, GameRoomState>;
    try {
      const client = new Colyseus.Client(location.origin);
      const byId = () => client.joinById<GameRoomState>(this.gameId, this.token ? { playerToken: this.token } : {});
      const reservation = this.token ? this.reservation : null;
      this.reservation = null;
      room = reservation ? await client.consumeSeatReservation<GameRoomState>(reservation as Parameters<typeof client.consumeSeatReservation>[0]).catch(byId) : await byId();
    } catch (e) {
      this.joining = false;
      if (this.token && (e as { code?: number } | null)?.code === UNAUTHORIZED) {
        this.token = null;
        this.on.badToken();
        return this.connect();
      }
      // The room can be gone because the game just ended; the page's record refresh tells which.
      if (this.on.finished()) return this.on.link("closed");
      return this.retry();
    }
    this.joining = false;
    this.attempt = 0;
    this.room = room;
    this.joins++;
    this.on.link(navigator.onLine ? "live" : "offline");
    room.onStateChange((s) => this.on.state(s, this.hand));
    const redraw = () => room.state && this.on.state(room.state, this.hand);
    room.onMessage("hand", (m: Payload<"hand">) => {
      this.hand = { cards: m.cards, legal: m.legal };
      redraw();
    });
    room.onMessage("refused", (m: Payload<"refused">) => this.on.message({ type: "refused", ...m }));
    // A finished game's rematch (web/src/lib/rematch.ts).
    room.onMessage("rematchOffered", (m: Payload<"rematchOffered">) => this.on.message({ type: "rematchOffered", ...m }));
    room.onMessage("rematchDeclined", (m: Payload<"rematchDeclined">) => this.on.message({ type: "rematchDeclined", ...m }));
    room.onMessage("rematchStarted", (m: Payload<"rematchStarted">) => this.on.message({ type: "rematchStarted", ...m }));
    room.onMessage("moved", (m: Payload<"moved">) => {
      this.hand = m.hand;
      this.on.message({ type: "moved", ...m });
      redraw();
    });
    room.onDrop(() => {
      this.dropped = true;
      this.on.link("dropped");
    });
    room.onReconnect(() => {
      this.dropped = false;
      this.on.link(navigator.onLine ? "live" : "offline");
    });
    room.onLeave(() => {
      this.room = null;
      this.dropped = false;
      if (this.on.finished() || this.stopped) return this.on.link("closed");
      // The SDK's reconnection gave up: join again by id (the game may now live on another process).
      this.retry();
    });
  }

  private retry(): void {
    this.on.link(navigator.onLine ? "dropped" : "offline");
    const delay = RETRY_MS[Math.min(this.attempt++, RETRY_MS.length - 1)];
    setTimeout(() => void this.connect(), delay);
  }
}
