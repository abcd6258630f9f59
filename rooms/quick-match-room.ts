/**
 * The quick-match queue of one ruleset, as a Colyseus room (`quick`, filtered by ruleset; room id
 * `quick-<ruleset>`). WebSocket clients join it with `joinOrCreate("quick", { ruleset })`; REST agents are
 * queued server-side through `enqueue` (QueueRoomApi) with a ticket. Entries are paired first come, first served,
 * whatever transport they came by; the pair gets a new active game.
 */
import { Room, ServerError, type Client } from "@colyseus/core";
import { schema, t } from "@colyseus/schema";
import { z } from "zod";
import type { Seat } from "../src/engine";
import { fail, ROOM_CODES, type Outcome } from "../src/shared/errors";
import type { NewSeat, SeatClaim } from "../src/services/games/seats";
import { seatKindOf } from "../src/services/games/record";
import { queueRoomId, type SeatReservation } from "../src/services/games/room-access";
import type { QueueRoomApi } from "../src/services/games/room-api";
import { send } from "./messages";
import { ChampionSchema, NameSchema, PlayerRefSchema, RulesetSchema } from "../src/services/games/schemas";
import { newPlayerToken, sha256Hex } from "../src/shared/secrets";
import type { PlayerService } from "../src/services/players/service";
import type { Logger } from "../src/shared/logger";

export const QueueState = schema({ ruleset: t.string().default("classic"), waiting: t.uint16().default(0) }, "QueueState");
export type QueueState = InstanceType<typeof QueueState>;

export interface QueueDeps {
  players: PlayerService;
  createMatched(ruleset: "classic" | "mutators", seats: Record<Seat, SeatClaim>): Promise<string>;
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

type Entry =
  | { kind: "ws"; client: Client; seat: NewSeat; token: string; player: unknown }
  | { kind: "rest"; ticket: string; seat: SeatClaim; expiresAt: number };

const JoinOptions = z.object({
  ruleset: RulesetSchema.default("classic"),
  name: NameSchema.optional(),
  player: PlayerRefSchema.optional(),
  champion: ChampionSchema.optional(),
});

export class QuickMatchRoom extends Room<{ state: QueueState }> implements QueueRoomApi {
  override state = new QueueState();
  private deps!: QueueDeps;
  private ruleset: "classic" | "mutators" = "classic";
  private entries: Entry[] = [];
  private pairing: Promise<void> = Promise.resolve();

  override onCreate(options: { ruleset?: string; deps: QueueDeps }) {
    const ruleset = RulesetSchema.safeParse(options.ruleset ?? "classic");
    // Thrown while a matchmaking request is answered: its code becomes the HTTP status.
    if (!ruleset.success) throw new ServerError(ROOM_CODES.http.bad_request, "ruleset is \"classic\" or \"mutators\"");
    this.deps = options.deps;
    this.ruleset = ruleset.data;
    this.roomId = queueRoomId(this.ruleset);
    this.autoDispose = false;
    this.maxClients = 10_000;
    this.patchRate = 2 ** 31 - 1;
    this.state.ruleset = this.ruleset;
  }

  override async onAuth(_client: Client, options: unknown) {
    const parsed = JoinOptions.safeParse(options ?? {});
    if (!parsed.success) throw new ServerError(ROOM_CODES.close.bad_request, "bad_request: join options are { ruleset, name?, player?, champion? }");
    const { player, secret } = await this.deps.players.resolve(parsed.data.player, parsed.data.name).catch(() => {
      throw new ServerError(ROOM_CODES.close.unauthorized, "unauthorized: unknown player id or wrong player secret");
    });
    return { player, secret, champion: parsed.data.champion };
  }

  override onJoin(client: Client, _options: unknown, auth: Awaited<ReturnType<QuickMatchRoom["onAuth"]>>) {
    const token = newPlayerToken();
    const publicPlayer = this.deps.players.introduce(auth);
    this.entries.push({ kind: "ws", client, token, player: publicPlayer, seat: { playerId: auth.player.id, name: auth.player.name, kind: seatKindOf(auth.player), champion: auth.champion } });
    send(client, { type: "queued", ruleset: this.ruleset, position: this.entries.length });
    this.schedulePairing();
  }

  override onLeave(client: Client) {
    this.entries = this.entries.filter((e) => e.kind !== "ws" || e.client !== client);
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
    for (const e of gone) if (e.kind === "ws") e.client.leave(ROOM_CODES.close.unauthorized, "unauthorized: this bot key was revoked");
    this.refresh();
    return { ok: true, value: { tickets: gone.flatMap((e) => (e.kind === "rest" ? [e.ticket] : [])) } };
  }

  private schedulePairing() {
    this.pairing = this.pairing.then(() => this.pair()).catch((e) => this.deps.log.error({ err: e }, "pairing failed"));
  }

  private async pair() {
    const now = Date.now();
    this.entries = this.entries.filter((e) => e.kind === "ws" || e.expiresAt > now);
    while (this.entries.length >= 2) {
      const [a, b] = this.entries.splice(0, 2);
      // A bot whose key was revoked after it queued is never seated: its entry is dropped and the other waits on,
      // first in line. Checked again once the game exists, since the key may be revoked while it is made; a
      // revocation after that finds the game in the store and aborts it (BotRevocation).
      if (await this.withdrawRevoked(a, b)) continue;
      const seatOf = (e: Entry) => (e.kind === "ws" ? { ...e.seat, tokenHash: sha256Hex(e.token) } : e.seat);
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
  private async withdrawRevoked(a: Entry, b: Entry, gameId?: string): Promise<boolean> {
    const bots = [a, b].filter((e) => e.seat.kind === "bot").map((e) => e.seat.playerId);
    if (bots.length === 0) return false;
    const revoked = await this.deps.revokedBots(bots);
    if (revoked.size === 0) return false;
    const gone = [a, b].filter((e) => revoked.has(e.seat.playerId));
    this.entries.unshift(...[a, b].filter((e) => !revoked.has(e.seat.playerId)));
    if (gameId) await this.deps.abortMatched(gameId, gone[0].seat.playerId).catch((err: unknown) => this.deps.log.error({ err, gameId }, "a game made for a revoked bot was not aborted"));
    for (const e of gone) {
      if (e.kind === "rest") await this.deps.ticketWithdrawn(e.ticket);
      else e.client.leave(ROOM_CODES.close.unauthorized, "unauthorized: this bot key was revoked");
    }
    return true;
  }

  private async notify(e: Entry, gameId: string, seat: Seat) {
    if (e.kind === "rest") return this.deps.ticketMatched(e.ticket, { gameId, seat });
    // The reservation travels with the match on the socket the client already holds: it joins its game
    // without another HTTP round. Without one (the room could not be reached), it joins by id.
    const seatReservation = await this.deps.reserveSeat(gameId, e.token).catch(() => undefined);
    send(e.client, { type: "matched", status: "matched", gameId, seat, playerToken: e.token, player: e.player, ...(seatReservation ? { seatReservation } : {}) });
  }

  private refresh() {
    this.state.waiting = this.entries.length;
    this.broadcastPatch();
  }
}
