/**
 * The quick-match queue of one ruleset, free of any transport: entries are paired first come, first served,
 * whatever way they came (a WebSocket client of the queue room, or a REST agent's ticket), and each pair gets a
 * new active game. Pairing runs in one serial chain, so two pairings never take the same entry.
 *
 * The quick-match room (rooms/quick-match-room.ts) is its adapter to Colyseus: it authenticates a socket, hands
 * it in with `join`, and shows what the actor tells it through the `QueueShow` port (the `queued` and
 * `matched` messages, a refusal, the waiting count in its state). `From` is the room's client handle.
 */
import type { Seat } from "../../../engine";
import { fail, type Outcome } from "../../../shared/errors";
import type { Logger } from "../../../shared/logger";
import { sha256Hex } from "../../../shared/secrets";
import type { PlayerService } from "../../players/service";
import type { SeatReservation } from "../room-access";
import type { NewSeat, SeatClaim } from "../seats";

export type Ruleset = "classic" | "mutators";

export interface QueueDeps {
  players: PlayerService;
  createMatched(ruleset: Ruleset, seats: Record<Seat, SeatClaim>): Promise<string>;
  /** Reserves a seat in a game's room for a player token (what `joinById` would ask for). */
  reserveSeat(gameId: string, playerToken: string): Promise<SeatReservation>;
  /** Records a REST ticket's match where any process can read it, and wakes its poller. */
  ticketMatched(ticket: string, match: { gameId: string; seat: Seat }): Promise<void>;
  log: Logger;
  /** Of these bot profiles, those whose key has been revoked (read from the store: any process may have revoked it). */
  revokedBots(playerIds: string[]): Promise<Set<string>>;
  /** A REST ticket withdrawn because its bot's key was revoked: it never hands out a seat. */
  ticketWithdrawn(ticket: string): Promise<void>;
  /** Aborts a game just made, not yet played, from which a revoked bot is withdrawn. */
  abortMatched(gameId: string, playerId: string): Promise<void>;
  /** Seconds a REST entry stays queued without being polled. */
  restEntryTtlS: number;
}

/** A socket's match: its seat's token (shown once), and a reservation to join the game's room at once. */
export interface SocketMatch {
  gameId: string;
  seat: Seat;
  playerToken: string;
  player: unknown;
  seatReservation?: SeatReservation;
}

/** How the queue shows itself to the sockets that joined it (the quick-match room). */
export interface QueueShow<From> {
  queued(from: From, position: number): void;
  matched(from: From, match: SocketMatch): void;
  /** The socket's bot key was revoked: it is out of the queue. */
  revoked(from: From): void;
  /** The number of entries waiting changed. */
  waiting(count: number): void;
}

type Entry<From> =
  { kind: "socket"; from: From; seat: NewSeat; token: string; player: unknown } | { kind: "rest"; ticket: string; seat: SeatClaim; expiresAt: number };

export class QueueActor<From> {
  private entries: Entry<From>[] = [];
  private pairing: Promise<void> = Promise.resolve();

  constructor(
    readonly ruleset: Ruleset,
    private readonly deps: QueueDeps,
    private readonly show: QueueShow<From>,
  ) {}

  /** A socket joins with its seat, the token its seat will hold and the public player it shows. */
  join(from: From, seat: NewSeat, token: string, player: unknown): void {
    this.entries.push({ kind: "socket", from, token, player, seat });
    this.show.queued(from, this.entries.length);
    this.schedulePairing();
  }

  /** A socket left (or dropped): its entry goes. */
  left(from: From): void {
    this.entries = this.entries.filter((e) => e.kind !== "socket" || e.from !== from);
    this.refresh();
  }

  enqueue(ticket: string, seat: SeatClaim): Outcome<{ position: number }> {
    if (this.entries.some((e) => e.kind === "rest" && e.ticket === ticket)) return fail("conflict", "this ticket is already queued");
    this.entries.push({ kind: "rest", ticket, seat, expiresAt: Date.now() + this.deps.restEntryTtlS * 1000 });
    this.schedulePairing();
    return { ok: true, value: { position: this.entries.length } };
  }

  /** A poll keeps a REST entry alive; false when the ticket is no longer queued. */
  touch(ticket: string): Outcome<{ queued: boolean }> {
    const e = this.entries.find((x) => x.kind === "rest" && x.ticket === ticket);
    if (e && e.kind === "rest") e.expiresAt = Date.now() + this.deps.restEntryTtlS * 1000;
    return { ok: true, value: { queued: Boolean(e) } };
  }

  leave(ticket: string): Outcome<{ removed: boolean }> {
    const before = this.entries.length;
    this.entries = this.entries.filter((e) => e.kind !== "rest" || e.ticket !== ticket);
    this.refresh();
    return { ok: true, value: { removed: this.entries.length < before } };
  }

  /** Removes every entry of a player (a bot whose key was revoked); answers the REST tickets removed. */
  withdrawPlayer(playerId: string): Outcome<{ tickets: string[] }> {
    const gone = this.entries.filter((e) => e.seat.playerId === playerId);
    this.entries = this.entries.filter((e) => e.seat.playerId !== playerId);
    for (const e of gone) if (e.kind === "socket") this.show.revoked(e.from);
    this.refresh();
    return { ok: true, value: { tickets: gone.flatMap((e) => (e.kind === "rest" ? [e.ticket] : [])) } };
  }

  /** Resolves once every pairing scheduled so far has run. */
  settled(): Promise<void> {
    return this.pairing;
  }

  private schedulePairing() {
    this.pairing = this.pairing.then(() => this.pair()).catch((e) => this.deps.log.error({ err: e }, "pairing failed"));
  }

  private async pair() {
    const now = Date.now();
    this.entries = this.entries.filter((e) => e.kind === "socket" || e.expiresAt > now);
    while (this.entries.length >= 2) {
      const [a, b] = this.entries.splice(0, 2);
      // A bot whose key was revoked after it queued is never seated: its entry is dropped and the other waits on,
      // first in line. Checked again once the game exists, since the key may be revoked while it is made; a
      // revocation after that finds the game in the store and aborts it (BotRevocation).
      if (await this.withdrawRevoked(a, b)) continue;
      const seatOf = (e: Entry<From>) => (e.kind === "socket" ? { ...e.seat, tokenHash: sha256Hex(e.token) } : e.seat);
      const gameId = await this.deps.createMatched(this.ruleset, { A: seatOf(a), B: seatOf(b) });
      if (await this.withdrawRevoked(a, b, gameId)) continue;
      await this.notify(a, gameId, "A");
      await this.notify(b, gameId, "B");
    }
    this.refresh();
  }

  /**
   * Whether either entry is a bot whose key is revoked: then the revoked ones are told so and dropped, the game
   * made for them (if any) is aborted unplayed, the others go back to the front of the queue, and true.
   */
  private async withdrawRevoked(a: Entry<From>, b: Entry<From>, gameId?: string): Promise<boolean> {
    const bots = [a, b].filter((e) => e.seat.kind === "bot").map((e) => e.seat.playerId);
    if (bots.length === 0) return false;
    const revoked = await this.deps.revokedBots(bots);
    if (revoked.size === 0) return false;
    const gone = [a, b].filter((e) => revoked.has(e.seat.playerId));
    this.entries.unshift(...[a, b].filter((e) => !revoked.has(e.seat.playerId)));
    if (gameId)
      await this.deps
        .abortMatched(gameId, gone[0].seat.playerId)
        .catch((err: unknown) => this.deps.log.error({ err, gameId }, "a game made for a revoked bot was not aborted"));
    for (const e of gone) {
      if (e.kind === "rest") await this.deps.ticketWithdrawn(e.ticket);
      else this.show.revoked(e.from);
    }
    return true;
  }

  private async notify(e: Entry<From>, gameId: string, seat: Seat) {
    if (e.kind === "rest") return this.deps.ticketMatched(e.ticket, { gameId, seat });
    // The reservation travels with the match on the socket the client already holds: it joins its game
    // without another HTTP round. Without one (the room could not be reached), it joins by id.
    const seatReservation = await this.deps.reserveSeat(gameId, e.token).catch(() => undefined);
    this.show.matched(e.from, { gameId, seat, playerToken: e.token, player: e.player, ...(seatReservation ? { seatReservation } : {}) });
  }

  private refresh() {
    this.show.waiting(this.entries.length);
  }
}
