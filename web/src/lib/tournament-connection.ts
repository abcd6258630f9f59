// A tournament page's spectator connection to the tournament room, with its state told honestly (the same
// states as the game page, lib/connection.ts). The SDK's own reconnection covers a short drop; when it gives
// up, the page joins again with a growing delay, so it lands on whichever process holds the room now.
import type { Room } from "@colyseus/sdk";
import type { TournamentRoomState } from "../../../rooms/tournament-state";
import type { LinkState } from "./connection";

export interface TournamentEvents {
  state(state: TournamentRoomState): void;
  link(state: LinkState): void;
  /** The room refused the tournament (no such tournament): the page stops trying. */
  missing(): void;
}

const RETRY_MS = [500, 1000, 2000, 4000, 8000];

export class TournamentConnection {
  private room: Room<unknown, TournamentRoomState> | null = null;
  private joining = false;
  private dropped = false;
  private attempt = 0;
  private stopped = false;
  /** Successful joins so far: more than one means the page joined again after losing the room. */
  joins = 0;

  constructor(private readonly tournamentId: string, private readonly on: TournamentEvents) {
    addEventListener("offline", () => this.on.link("offline"));
    addEventListener("online", () => {
      if (this.room) this.on.link(this.dropped ? "dropped" : "live");
      else void this.connect();
    });
  }

  get live(): boolean {
    return this.room !== null && !this.dropped && navigator.onLine;
  }

  async connect(): Promise<void> {
    if (this.room || this.joining || this.stopped) return;
    this.joining = true;
    this.on.link(navigator.onLine ? "connecting" : "offline");
    let room: Room<unknown, TournamentRoomState>;
    try {
      room = await new Colyseus.Client(location.origin).joinOrCreate<TournamentRoomState>("tournament", { tournamentId: this.tournamentId });
    } catch (e) {
      this.joining = false;
      // The room answers a matchmaking error's HTTP status: 404 for an unknown tournament, 400 for a bad id.
      const code = (e as { code?: number } | null)?.code;
      if (code === 404 || code === 400) {
        this.stopped = true;
        this.on.link("closed");
        return this.on.missing();
      }
      return this.retry();
    }
    this.joining = false;
    this.attempt = 0;
    this.room = room;
    this.joins++;
    this.on.link(navigator.onLine ? "live" : "offline");
    room.onStateChange((s) => this.on.state(s));
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
      if (this.stopped) return this.on.link("closed");
      this.retry();
    });
  }

  private retry(): void {
    this.on.link(navigator.onLine ? "dropped" : "offline");
    const delay = RETRY_MS[Math.min(this.attempt++, RETRY_MS.length - 1)];
    setTimeout(() => void this.connect(), delay);
  }
}
