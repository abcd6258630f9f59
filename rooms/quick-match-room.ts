/**
 * The quick-match queue of one ruleset as a Colyseus room (`quick`, filtered by ruleset; room id
 * `quick-<ruleset>`): the adapter of its queue actor (src/services/games/actor/queue-actor.ts), which pairs the
 * entries. WebSocket clients join it with `joinOrCreate("quick", { ruleset })` and are authenticated here; REST
 * agents are queued server-side through `enqueue` (QueueRoomApi) with a ticket, handed to the actor.
 */
import { Room, ServerError, type Client } from "@colyseus/core";
import { schema, t } from "@colyseus/schema";
import { z } from "zod";
import { ROOM_CODES, type Outcome } from "../src/shared/errors";
import type { SeatClaim } from "../src/services/games/seats";
import { seatKindOf } from "../src/services/games/record";
import { queueRoomId } from "../src/services/games/room-access";
import type { QueueRoomApi } from "../src/services/games/room-api";
import { QueueActor, type QueueDeps, type QueueShow, type SocketMatch } from "../src/services/games/actor/queue-actor";
import { send } from "./messages";
import { ChampionSchema, NameSchema, PlayerRefSchema, RulesetSchema } from "../src/services/games/schemas";
import { newPlayerToken } from "../src/shared/secrets";

export type { QueueDeps } from "../src/services/games/actor/queue-actor";

export const QueueState = schema({ ruleset: t.string().default("classic"), waiting: t.uint16().default(0) }, "QueueState");
export type QueueState = InstanceType<typeof QueueState>;

const JoinOptions = z.object({
  ruleset: RulesetSchema.default("classic"),
  name: NameSchema.optional(),
  player: PlayerRefSchema.optional(),
  champion: ChampionSchema.optional(),
});

export class QuickMatchRoom extends Room<{ state: QueueState }> implements QueueRoomApi, QueueShow<Client> {
  override state = new QueueState();
  private deps!: QueueDeps;
  private queue!: QueueActor<Client>;

  override onCreate(options: { ruleset?: string; deps: QueueDeps }) {
    const ruleset = RulesetSchema.safeParse(options.ruleset ?? "classic");
    // Thrown while a matchmaking request is answered: its code becomes the HTTP status.
    if (!ruleset.success) throw new ServerError(ROOM_CODES.http.bad_request, 'ruleset is "classic" or "mutators"');
    this.deps = options.deps;
    this.queue = new QueueActor(ruleset.data, options.deps, this);
    this.roomId = queueRoomId(ruleset.data);
    this.autoDispose = false;
    this.maxClients = 10_000;
    this.patchRate = 2 ** 31 - 1;
    this.state.ruleset = ruleset.data;
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
    const seat = { playerId: auth.player.id, name: auth.player.name, kind: seatKindOf(auth.player), champion: auth.champion };
    this.queue.join(client, seat, newPlayerToken(), this.deps.players.introduce(auth));
  }

  override onLeave(client: Client) {
    this.queue.left(client);
  }

  // ---- QueueRoomApi: the REST tickets, handed to the actor --------------------------------------------------

  enqueue(ticket: string, seat: SeatClaim): Outcome<{ position: number }> {
    return this.queue.enqueue(ticket, seat);
  }

  touch(ticket: string): Outcome<{ queued: boolean }> {
    return this.queue.touch(ticket);
  }

  leave(ticket: string): Outcome<{ removed: boolean }> {
    return this.queue.leave(ticket);
  }

  withdrawPlayer(playerId: string): Outcome<{ tickets: string[] }> {
    return this.queue.withdrawPlayer(playerId);
  }

  // ---- QueueShow: what the actor shows the sockets ----------------------------------------------------------

  queued(client: Client, position: number) {
    send(client, { type: "queued", ruleset: this.queue.ruleset, position });
  }

  matched(client: Client, match: SocketMatch) {
    send(client, { type: "matched", status: "matched", ...match });
  }

  revoked(client: Client) {
    client.leave(ROOM_CODES.close.unauthorized, "unauthorized: this bot key was revoked");
  }

  waiting(count: number) {
    this.state.waiting = count;
    this.broadcastPatch();
  }
}
