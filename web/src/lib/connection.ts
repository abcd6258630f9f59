// The game room connection of a page, with its state told honestly (room-link.ts: offline, a drop, a
// reconnection, joining again with a growing delay). When the SDK's reconnection gives up and the game is not
// over, the page joins again by game id with the stored player token, so it lands on whichever process owns
// the game now.
import type { Client, Room } from "@colyseus/sdk";
import type { GameRoomState } from "../../../rooms/game-state";
import type { GameOut, SeatHand } from "../../../rooms/messages";
import type { MoveBody } from "./api-types";
import { RoomLink, type LinkState } from "./room-link";

export type { LinkState } from "./room-link";

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

const UNAUTHORIZED = 4401;

export class GameConnection extends RoomLink<GameRoomState> {
  private token: string | null;
  /** The own seat's hand as the room last sent it (`hand`, or inside `moved`); the state never holds it. */
  private hand: SeatHand | null = null;

  /**
   * `reservation`: the seat reservation of the answer that seated this browser, if any; the first join uses
   * it (no matchmaking request), and any later one, or a lapsed reservation, joins by id.
   */
  constructor(
    private readonly gameId: string,
    token: string | null,
    private readonly on: ConnectionEvents,
    private reservation: unknown = null,
  ) {
    super((state) => on.link(state));
    this.token = token;
  }

  /** A move is validated by the room with the same schema as the REST body (POST /games/{id}/moves). */
  send(type: "move", payload: MoveBody): boolean;
  send(type: "resign" | "rematch" | "declineRematch"): boolean;
  /** Sends when the room is live; answers false (nothing sent) otherwise, for the caller to say so. */
  send(type: string, payload?: unknown): boolean {
    if (!this.live || !this.room) return false;
    this.room.send(type, payload);
    return true;
  }

  protected async join(client: Client): Promise<Room<unknown, GameRoomState>> {
    const byId = () => client.joinById<GameRoomState>(this.gameId, this.token ? { playerToken: this.token } : {});
    const reservation = this.token ? this.reservation : null;
    this.reservation = null;
    return reservation ? client.consumeSeatReservation<GameRoomState>(reservation as Parameters<typeof client.consumeSeatReservation>[0]).catch(byId) : byId();
  }

  protected override joinFailed(e: unknown): void | Promise<void> {
    if (this.token && (e as { code?: number } | null)?.code === UNAUTHORIZED) {
      this.token = null;
      this.on.badToken();
      return this.connect();
    }
    // The room can be gone because the game just ended; the page's record refresh tells which.
    if (this.on.finished()) return this.on.link("closed");
    this.retry();
  }

  protected override over(): boolean {
    return this.on.finished();
  }

  protected attach(room: Room<unknown, GameRoomState>): void {
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
  }
}
