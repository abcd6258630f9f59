/**
 * Quick-match for REST agents. A ticket is queued in the ruleset's queue room; its state lives in
 * presence (memory, or Redis when scaled) under `qm:<ticket>` for ten minutes, so a poll on any process
 * sees the match. The ticket is a bearer secret: it is the only way to learn the seat's player token,
 * which is kept there (never in the store) until the ticket expires. A ticket asked with `reserveSeat` gets
 * a fresh WebSocket seat reservation with every matched answer (one lapses 15 s after it is made).
 * A bot's ticket (queued with its key) is also told to the bot's event stream when it is paired, seat and
 * token included, so a bot that waits on its stream need not poll the ticket. A bot's ticket still queued when
 * its key is revoked is withdrawn (`withdrawBot`, and the queue room's own check at pairing): its state keeps
 * no token, and a poll of it is refused.
 */
import type { Presence } from "@colyseus/core";
import { AppError, unwrap } from "../../shared/errors";
import type { Seat } from "../../engine";
import type { PlayerService } from "../players/service";
import type { RoomAccess } from "./room-access";
import { RulesetSchema, type QuickMatchBody } from "./schemas";
import { newPlayerToken, newTicketId, sha256Hex } from "../../shared/secrets";
import type { GameReads } from "./reads";
import { seatKindOf } from "./record";
import { subscribeOnce } from "./waiter";

const TICKET_TTL_S = 600;
const withdrawnError = () => new AppError("unauthorized", "this ticket was withdrawn: its bot's key was revoked before it was paired");
const key = (ticket: string) => `qm:${ticket}`;

interface TicketState {
  /** `withdrawn`: its bot's key was revoked before it was paired. */
  status: "queued" | "matched" | "withdrawn";
  ruleset: QuickMatchBody["ruleset"];
  playerToken: string;
  player: ReturnType<PlayerService["introduce"]>;
  gameId?: string;
  seat?: Seat;
  reserveSeat?: boolean;
  /** The bot account that queued the ticket with its key. */
  botId?: string;
}

/** Tells a bot's event stream (on every process) that its ticket was paired. */
export type BotSeated = (botId: string, gameId: string, seat: Seat, playerToken: string) => void;

export class QuickMatch {
  constructor(
    private readonly presence: Presence,
    private readonly rooms: RoomAccess,
    private readonly players: PlayerService,
    /** The matched game's record, answered with a matched ticket. */
    private readonly games: Pick<GameReads, "record">,
    private readonly botSeated?: BotSeated,
  ) {}

  async enqueue(body: QuickMatchBody) {
    const resolved = await this.players.resolve(body.player, body.name);
    const { player } = resolved;
    const ticket = newTicketId();
    const playerToken = newPlayerToken();
    const state: TicketState = {
      status: "queued",
      ruleset: body.ruleset,
      playerToken,
      player: this.players.introduce(resolved),
      reserveSeat: body.reserveSeat,
      ...(player.kind === "bot" ? { botId: player.id } : {}),
    };
    await this.presence.setex(key(ticket), JSON.stringify(state), TICKET_TTL_S);
    const waiter = await subscribeOnce(this.presence, key(ticket));
    try {
      const seat = { playerId: player.id, name: player.name, kind: seatKindOf(player), champion: body.champion, tokenHash: sha256Hex(playerToken) };
      unwrap(await this.rooms.queue(body.ruleset).enqueue(ticket, seat));
      await waiter.wait(Date.now() + body.wait * 1000);
    } finally {
      waiter.cancel();
    }
    return this.answer(ticket);
  }

  /** Waits up to `timeoutS` for the pairing. */
  async poll(ticket: string, timeoutS: number) {
    const state = await this.read(ticket);
    if (state.status !== "queued") return this.answer(ticket);
    await this.rooms.queue(state.ruleset).touch(ticket);
    if (timeoutS > 0) {
      const waiter = await subscribeOnce(this.presence, key(ticket));
      try {
        if ((await this.read(ticket)).status !== "matched") await waiter.wait(Date.now() + timeoutS * 1000);
      } finally {
        waiter.cancel();
      }
    }
    return this.answer(ticket);
  }

  async leave(ticket: string) {
    const state = await this.read(ticket);
    if (state.status === "withdrawn") throw withdrawnError();
    if (state.status === "matched") throw new AppError("already_joined", "this ticket has already been matched; play or resign the game");
    const out = unwrap(await this.rooms.queue(state.ruleset).leave(ticket));
    // Presence types `del` as void, but the Redis presence returns a promise: wait for it there.
    await (this.presence.del(key(ticket)) as unknown);
    return { status: "left" as const, removed: out.removed };
  }

  /** Withdraws every queued ticket of a bot whose key was revoked, from the queue room of each ruleset, wherever it lives. */
  async withdrawBot(botId: string): Promise<void> {
    for (const ruleset of RulesetSchema.options) {
      const { tickets } = unwrap(await this.rooms.queue(ruleset).withdrawPlayer(botId));
      for (const ticket of tickets) await this.withdrawn(ticket);
    }
  }

  /**
   * Called by the queue room when a bot's ticket is dropped because its key was revoked (and by `withdrawBot`):
   * the token is forgotten, and whoever waits on the ticket is woken to be refused.
   */
  async withdrawn(ticket: string) {
    const raw = (await this.presence.get(key(ticket))) as string | null | undefined;
    if (!raw) return;
    const { player, ruleset, botId } = JSON.parse(raw) as TicketState;
    const state: TicketState = { status: "withdrawn", ruleset, player, playerToken: "", ...(botId ? { botId } : {}) };
    await this.presence.setex(key(ticket), JSON.stringify(state), TICKET_TTL_S);
    await this.presence.publish(key(ticket), { status: "withdrawn" });
  }

  /** Called by the queue room (on whichever process holds it) when a REST ticket is paired. */
  async matched(ticket: string, match: { gameId: string; seat: Seat }) {
    const raw = (await this.presence.get(key(ticket))) as string | null | undefined;
    if (!raw) return;
    const before = JSON.parse(raw) as TicketState;
    // Withdrawn meanwhile (its bot's key revoked): the queue room aborts the game rather than seat it.
    if (before.status === "withdrawn") return;
    const state: TicketState = { ...before, status: "matched", ...match };
    await this.presence.setex(key(ticket), JSON.stringify(state), TICKET_TTL_S);
    await this.presence.publish(key(ticket), { status: "matched" });
    if (state.botId) this.botSeated?.(state.botId, match.gameId, match.seat, state.playerToken);
  }

  private async read(ticket: string): Promise<TicketState> {
    if (!/^qm_[A-Za-z0-9_-]{8,64}$/.test(ticket)) throw new AppError("not_found", "no such quick-match ticket");
    const raw = (await this.presence.get(key(ticket))) as string | null | undefined;
    if (!raw) throw new AppError("not_found", "no such quick-match ticket (tickets expire after ten minutes)");
    return JSON.parse(raw) as TicketState;
  }

  private async answer(ticket: string) {
    const state = await this.read(ticket);
    if (state.status === "withdrawn") throw withdrawnError();
    if (state.status !== "matched") return { status: "queued" as const, ticket, ruleset: state.ruleset };
    return {
      status: "matched" as const,
      ticket,
      game: await this.games.record(state.gameId!, state.playerToken),
      seat: state.seat!,
      playerToken: state.playerToken,
      player: state.player,
      // Without one (the room could not be reached) the client joins by id, as it would have anyway.
      ...(state.reserveSeat
        ? await this.rooms.reserveSeat(state.gameId!, state.playerToken).then(
            (seatReservation) => ({ seatReservation }),
            () => ({}),
          )
        : {}),
    };
  }
}
