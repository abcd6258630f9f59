// A tournament page's spectator connection to the tournament room, with its state told honestly: the same
// link as the game page's (room-link.ts: offline, a drop, a reconnection, joining again with a growing
// delay), so it lands on whichever process holds the room now. An unknown tournament stops the tries.
import type { Client, Room } from "@colyseus/sdk";
import type { TournamentRoomState } from "../../../rooms/tournament-state";
import { RoomLink, type LinkState } from "./room-link";

export interface TournamentEvents {
  state(state: TournamentRoomState): void;
  link(state: LinkState): void;
  /** The room refused the tournament (no such tournament): the page stops trying. */
  missing(): void;
}

export class TournamentConnection extends RoomLink<TournamentRoomState> {
  constructor(
    private readonly tournamentId: string,
    private readonly on: TournamentEvents,
  ) {
    super((state) => on.link(state));
  }

  protected join(client: Client): Promise<Room<unknown, TournamentRoomState>> {
    return client.joinOrCreate<TournamentRoomState>("tournament", { tournamentId: this.tournamentId });
  }

  protected override joinFailed(e: unknown): void {
    // The room answers a matchmaking error's HTTP status: 404 for an unknown tournament, 400 for a bad id.
    const code = (e as { code?: number } | null)?.code;
    if (code === 404 || code === 400) {
      this.stopped = true;
      this.on.link("closed");
      return this.on.missing();
    }
    this.retry();
  }

  protected attach(room: Room<unknown, TournamentRoomState>): void {
    room.onStateChange((s) => this.on.state(s));
  }
}
