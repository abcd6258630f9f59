/**
 * One room per tournament (`tournament`, filtered by tournament id; room id `tournament-<id>`): spectators
 * join it with `joinOrCreate("tournament", { tournamentId })` and watch live standings and pairings. The
 * room reads the stored tournament when it opens and again whenever the tournament service announces a
 * stored change on presence, so it shows changes made by any process. It accepts no messages.
 */
import { Room, ServerError } from "@colyseus/core";
import { ROOM_CODES } from "../src/shared/errors";
import { z } from "zod";
import type { TournamentRecord } from "../src/store/port";
import { tournamentChannel } from "../src/services/tournaments";
import type { Logger } from "../src/shared/logger";
import { projectTournament, TournamentRoomState } from "./tournament-state";

export interface TournamentRoomDeps {
  read(id: string): Promise<TournamentRecord | null>;
  /** Counts results a crash left uncounted (TournamentService.reconcile). */
  reconcile(id: string): Promise<void>;
  log: Logger;
}

const CreateOptions = z.object({ tournamentId: z.string().regex(/^t_[A-Za-z0-9_-]{8,20}$/) });

export class TournamentRoom extends Room<{ state: TournamentRoomState }> {
  override state = new TournamentRoomState();
  private deps!: TournamentRoomDeps;
  private tournamentId = "";
  /** Refreshes run one at a time, so an older read never overwrites a newer one. */
  private refreshing: Promise<void> = Promise.resolve();
  private readonly onChange = () => {
    this.refreshing = this.refreshing
      .then(() => this.refresh())
      .catch((err: unknown) => this.deps.log.warn({ err, tournamentId: this.tournamentId }, "tournament room refresh failed"));
  };

  override async onCreate(options: { tournamentId?: unknown; deps: TournamentRoomDeps }) {
    const parsed = CreateOptions.safeParse(options);
    // Thrown while a matchmaking request is answered: its code becomes the HTTP status.
    if (!parsed.success) throw new ServerError(ROOM_CODES.http.bad_request, "join options are { tournamentId }");
    this.deps = options.deps;
    this.tournamentId = parsed.data.tournamentId;
    this.roomId = `tournament-${this.tournamentId}`;
    const stored = await this.deps.read(this.tournamentId);
    if (!stored) throw new ServerError(ROOM_CODES.http.not_found, `no tournament with id ${this.tournamentId}`);
    projectTournament(stored, this.state);
    await this.presence.subscribe(tournamentChannel(this.tournamentId), this.onChange);
    // A change it makes is announced on the channel just subscribed, so the room shows it.
    void this.deps
      .reconcile(this.tournamentId)
      .catch((err: unknown) => this.deps.log.warn({ err, tournamentId: this.tournamentId }, "tournament reconciliation failed"));
  }

  private async refresh(): Promise<void> {
    const stored = await this.deps.read(this.tournamentId);
    if (stored) projectTournament(stored, this.state);
  }

  override async onDispose() {
    await this.presence.unsubscribe(tournamentChannel(this.tournamentId), this.onChange);
  }
}
