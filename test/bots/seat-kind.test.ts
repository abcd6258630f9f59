/**
 * A bot's seat says "bot" wherever the seat is shown: the stored seat, the public record, the seat's sync view,
 * the WebSocket public state and game.finished, whether the bot joined a person's game or made the game.
 */
import { strict as assert } from "node:assert";
import { generateSecret, type EmittedEvent } from "../../src/services/events";
import type { RunningServer } from "../../src/server";
import { playToEnd } from "../agents/play";
import { startReceiver, testCert, type Receiver } from "../events/helpers";
import { bearer, bootServer, eventually, http } from "../support/server";
import { joinWs } from "../support/ws";

describe("Integration: a bot's seat kind", function () {
  this.timeout(60_000);
  let server: RunningServer;
  let receiver: Receiver;
  const emitted: EmittedEvent[] = [];

  before(async () => {
    server = await bootServer({ webhookAllowPrivate: true }, { webhookCa: testCert().cert });
    receiver = await startReceiver();
    const emit = server.events.emit.bind(server.events);
    server.events.emit = (e) => {
      emitted.push(structuredClone(e));
      emit(e);
    };
  });
  after(async () => {
    await server?.close();
    await receiver?.close();
  });

  const register = async (name: string) => (await http(server.url, "POST", "/api/v1/bots", { name })).json as { key: string; bot: { id: string } };

  /** Plays a friend game between a creator and a joiner, and checks every view of it names the bot's seat a bot. */
  async function playAndCheck(creator: Record<string, string>, creatorBody: object, joiner: Record<string, string>, joinerBody: object, botId: string) {
    const created = await http(server.url, "POST", "/api/v1/games", { opponent: "friend", ...creatorBody }, creator);
    assert.equal(created.status, 201, created.text);
    const id = created.json.game.id as string;
    const delivery = { mode: "webhook", url: `${receiver.url}?${id}`, secret: generateSecret() };
    const sub = await http(server.url, "POST", "/api/v1/games/events/subscribe", { name: "game.finished", arguments: { game_id: id }, delivery });
    assert.equal(sub.status, 201, sub.text);
    const joined = await http(server.url, "POST", "/api/v1/games/join", { code: created.json.code, ...joinerBody }, joiner);
    assert.equal(joined.status, 200, joined.text);
    const tokens = { [created.json.seat]: created.json.playerToken, [joined.json.seat]: joined.json.playerToken } as Record<"A" | "B", string>;
    const botSeat = (created.json.player.id === botId ? created.json.seat : joined.json.seat) as "A" | "B";
    const personSeat = botSeat === "A" ? "B" : "A";
    const kinds = (players: Record<"A" | "B", { kind: string }>) => ({ bot: players[botSeat].kind, person: players[personSeat].kind });
    const expected = { bot: "bot", person: "human" };

    const stored = await server.store.games.getGame(id);
    assert.deepEqual({ bot: stored!.seats[botSeat]!.kind, person: stored!.seats[personSeat]!.kind }, expected, "the stored seats");
    assert.deepEqual(kinds((await http(server.url, "GET", `/api/v1/games/${id}`)).json.players), expected, "GET /games/{id}");
    const sync = await http(server.url, "GET", `/api/v1/games/${id}/sync`, undefined, bearer(tokens[botSeat]));
    assert.deepEqual(kinds(sync.json.players), expected, "the seat's sync view");
    const ws = await joinWs(server.url, id, tokens[personSeat]);
    await eventually(() => ws.room.state.seats?.get(botSeat)?.playerId === botId, "the WebSocket state's seats");
    assert.deepEqual({ bot: ws.room.state.seats.get(botSeat).kind, person: ws.room.state.seats.get(personSeat).kind }, expected, "the WebSocket public state");
    await ws.leave();

    await Promise.all([playToEnd(server.url, id, tokens.A), playToEnd(server.url, id, tokens.B)]);
    await eventually(() => emitted.some((e) => e.name === "game.finished" && e.data.game_id === id), "game.finished");
    const finished = emitted.find((e) => e.name === "game.finished" && e.data.game_id === id)!;
    assert.deepEqual(kinds(finished.data.players as Record<"A" | "B", { kind: string }>), expected, "game.finished");
  }

  it("marks the seat of a bot that joins a person's friend game with its key as a bot", async () => {
    const { key, bot } = await register("Joiner");
    await playAndCheck({}, { name: "Ann" }, bearer(key), {}, bot.id);
  });

  it("marks the seat of a bot that made the friend game a person joins as a bot", async () => {
    const { key, bot } = await register("Maker");
    await playAndCheck(bearer(key), {}, {}, { name: "Bob" }, bot.id);
  });
});
