// The rematch of a finished friend or quick-match game, as lichess offers it on the end panel: "Rematch"
// offers it to the same opponent ("Offer sent"), the opponent's page shows "Accept rematch" and "Decline",
// and once accepted both pages go to the new game (seats swapped). Offers and answers travel over the game's
// room while it is connected (rematchOffered, rematchDeclined, rematchStarted), and over REST otherwise
// (POST/DELETE /games/{id}/rematch); the finished seat view of /sync is read every few seconds meanwhile, so
// a page whose room has closed still sees an offer or the start.
import type { GameOut } from "../../../rooms/messages";
import { $, api, errorText, saveSeat, type StoredSeat } from "./api";
import type { Seat } from "./model";

type Started = Omit<Extract<GameOut, { type: "rematchStarted" }>, "type">;
export type RematchMessage = Extract<GameOut, { type: "rematchOffered" | "rematchDeclined" | "rematchStarted" }>;
interface RematchAnswer {
  rematch: { offeredBy: Seat | null; gameId?: string };
  game?: { id: string; seat: Seat; playerToken: string };
}

const POLL_MS = 2000;
/** How long a seat reservation carried by rematchStarted is worth trying (the server keeps it 15 s). */
const RESERVATION_MS = 10_000;

export class RematchOffer {
  private offeredBy: Seat | null = null;
  /** Set when the opponent declined this seat's offer, until either seat offers again. */
  private declined = false;
  private gone = false;
  private readonly button = $<HTMLButtonElement>("#rematch");
  private readonly decline = $<HTMLButtonElement>("#rematch-decline");

  constructor(
    private readonly gameId: string,
    private readonly seat: StoredSeat,
    /** Sends over the game's room; false when it is not connected (then REST carries the request). */
    private readonly send: (type: "rematch" | "declineRematch") => boolean,
  ) {
    this.button.addEventListener("click", () => void this.act("rematch"));
    this.decline.addEventListener("click", () => void this.act("declineRematch"));
    void this.poll();
  }

  /** A rematch message of the game's room. */
  onMessage(m: RematchMessage): void {
    if (m.type === "rematchStarted") return this.go(m);
    this.declined = m.type === "rematchDeclined" && m.by !== this.seat.seat && this.offeredBy === this.seat.seat;
    this.offeredBy = m.type === "rematchOffered" ? m.by : null;
    this.draw();
  }

  private async act(type: "rematch" | "declineRematch"): Promise<void> {
    $("#rematch-error").textContent = "";
    if (type === "rematch" && this.offeredBy === null) this.offeredBy = this.seat.seat; // shown at once; the room confirms
    if (type === "declineRematch") this.offeredBy = null;
    this.draw();
    if (this.send(type)) return;
    try {
      this.apply(await this.rest(type === "rematch" ? "POST" : "DELETE"));
    } catch (e) {
      $("#rematch-error").textContent = errorText(e);
    }
  }

  private rest(method: "POST" | "DELETE"): Promise<RematchAnswer> {
    const headers = { authorization: `Bearer ${this.seat.token}` };
    return api<RematchAnswer>(method, `/games/${encodeURIComponent(this.gameId)}/rematch`, undefined, undefined, headers).then((r) => r.body);
  }

  private apply(a: RematchAnswer): void {
    if (a.game) return this.go({ gameId: a.game.id, seat: a.game.seat, playerToken: a.game.playerToken });
    this.offeredBy = a.rematch.offeredBy;
    this.draw();
  }

  /**
   * The seat view of the finished game, read until the page leaves: whether the game offers a rematch at all
   * (its `rematch`; the button shows only then), and an offer or a start made while the room is closed.
   */
  private async poll(): Promise<void> {
    for (let first = true; !this.gone; first = false) {
      if (!first) await new Promise((r) => setTimeout(r, POLL_MS));
      try {
        const { body } = await api<{ rematch?: RematchAnswer["rematch"] }>("GET", `/games/${encodeURIComponent(this.gameId)}/sync`, undefined, undefined, {
          authorization: `Bearer ${this.seat.token}`,
        });
        if (!body.rematch) return; // this game offers none
        if (first) {
          this.button.hidden = false;
          this.draw();
        }
        if (this.gone) return;
        // Started while this page was not told: a second POST answers this seat's token in the new game.
        if (body.rematch.gameId) this.apply(await this.rest("POST"));
        else if (body.rematch.offeredBy !== this.offeredBy) this.apply({ rematch: body.rematch });
      } catch {
        // A failed read is retried on the next round.
      }
    }
  }

  private go(s: Started): void {
    if (this.gone) return;
    this.gone = true;
    const reservation = s.seatReservation ? { reservation: { value: s.seatReservation, until: Date.now() + RESERVATION_MS } } : {};
    saveSeat(s.gameId, { token: s.playerToken, seat: s.seat, ...reservation });
    this.button.disabled = true;
    $("#rematch-status").textContent = "Rematch accepted: starting the new game…";
    location.assign(`/play/${encodeURIComponent(s.gameId)}`);
  }

  private draw(): void {
    const mine = this.offeredBy === this.seat.seat;
    const theirs = this.offeredBy !== null && !mine;
    this.button.textContent = mine ? "Offer sent" : theirs ? "Accept rematch" : "Rematch";
    this.button.disabled = mine;
    this.decline.hidden = !theirs;
    $("#rematch-status").textContent = theirs
      ? "Your opponent offers a rematch."
      : mine
        ? "Waiting for your opponent to answer."
        : this.declined
          ? "Your opponent declined the rematch."
          : "";
  }
}
