/**
 * Every event a real server emits during whole games (a friend game played to the end, a resignation, a
 * friend game nobody joins, an agent challenge) is checked against the catalog the server publishes at
 * `GET /games/events`: the published JSON Schema must accept it, and it may carry no member the catalog
 * does not name. A room builds a game's events only for names someone subscribed to, so each game is
 * watched through real webhook subscriptions of every game event before it starts.
 */
import { strict as assert } from "node:assert";
import Ajv from "ajv/dist/2020";
import type { ValidateFunction } from "ajv";
import type { RunningServer } from "../../src/server";
import type { EmittedEvent } from "../../src/services/events";
import { generateSecret } from "../../src/services/events";
import { EVENT_NAMES, type EventName } from "../../src/services/events/catalog";
import { playToEnd } from "../agents/play";
import { closed } from "../support/schema";
import { bearer, bootServer, eventually, http } from "../support/server";
import { playOpening } from "../support/play";
import { startReceiver, testCert, type Receiver } from "./helpers";

describe("Integration: emitted events match the published catalog", function () {
  this.timeout(90_000);
  let server: RunningServer;
  let receiver: Receiver;
  const emitted: EmittedEvent[] = [];
  const validators = new Map<EventName, ValidateFunction>();

  before(async () => {
    // A short wait for the second player, so that the abandoned friend game is aborted within the test.
    server = await bootServer({ waitingGameTtlS: 2, webhookAllowPrivate: true }, { webhookCa: testCert().cert });
    receiver = await startReceiver();
    const emit = server.events.emit.bind(server.events);
    server.events.emit = (e) => {
      emitted.push(structuredClone(e));
      emit(e);
    };
    const catalog = await http(server.url, "GET", "/api/v1/games/events");
    assert.equal(catalog.status, 200);
    const ajv = new Ajv({ strict: false, allErrors: true });
    for (const entry of catalog.json.events as Array<{ name: EventName; data: object }>) validators.set(entry.name, ajv.compile(closed(entry.data) as object));
  });
  after(async () => {
    await server?.close();
    await receiver?.close();
  });

  const of = (gameId: string) => emitted.filter((e) => e.data.game_id === gameId);

  /** Subscribes to every event of a game; one seat's game.turn is enough for the room to build both seats'. */
  async function watch(gameId: string, playerToken: string) {
    const subscriptions: [EventName, Record<string, unknown>][] = [
      ["game.started", {}],
      ["game.move", {}],
      ["game.turn", { player_token: playerToken }],
      ["game.finished", {}],
    ];
    for (const [name, args] of subscriptions) {
      const delivery = { mode: "webhook", url: `${receiver.url}?${gameId}`, secret: generateSecret() };
      const r = await http(server.url, "POST", "/api/v1/games/events/subscribe", { name, arguments: { game_id: gameId, ...args }, delivery });
      assert.equal(r.status, 201, r.text);
    }
  }

  it("a friend game played to the end: game.started, every game.move, game.turn and game.finished", async () => {
    const created = await http(server.url, "POST", "/api/v1/games", { opponent: "friend", name: "Ann" });
    assert.equal(created.status, 201);
    await watch(created.json.game.id, created.json.playerToken);
    const joined = await http(server.url, "POST", "/api/v1/games/join", { code: created.json.code, name: "Bob" });
    assert.equal(joined.status, 200, joined.text);
    const id = created.json.game.id as string;
    await Promise.all([playToEnd(server.url, id, created.json.playerToken), playToEnd(server.url, id, joined.json.playerToken)]);
    await eventually(() => of(id).filter((e) => e.name === "game.turn" && e.data.your_turn === false).length === 2, "the final game.turn of both seats");
    const names = new Set(of(id).map((e) => e.name));
    assert.deepEqual([...names].sort(), ["game.finished", "game.move", "game.started", "game.turn"]);
    assert.equal(of(id).filter((e) => e.name === "game.move").length, 16);
  });

  it("a resignation ends a game with game.finished and the final game.turn", async () => {
    const created = await http(server.url, "POST", "/api/v1/games", { opponent: "friend" });
    await watch(created.json.game.id, created.json.playerToken);
    const joined = await http(server.url, "POST", "/api/v1/games/join", { code: created.json.code });
    const id = created.json.game.id as string;
    await playOpening(server.url, id, [created.json.playerToken, joined.json.playerToken]);
    const r = await http(server.url, "POST", `/api/v1/games/${id}/resign`, undefined, bearer(joined.json.playerToken));
    assert.equal(r.status, 200, r.text);
    await eventually(() => of(id).some((e) => e.name === "game.finished"), "game.finished");
    assert.equal(of(id).find((e) => e.name === "game.finished")?.data.decided_by, "resignation");
  });

  it("a friend game nobody joins is aborted with game.finished and the promised final game.turn", async () => {
    const created = await http(server.url, "POST", "/api/v1/games", { opponent: "friend" });
    const id = created.json.game.id as string;
    await watch(id, created.json.playerToken);
    await eventually(() => of(id).some((e) => e.name === "game.turn"), "the aborted game's final game.turn", 10_000);
    const finished = of(id).find((e) => e.name === "game.finished");
    assert.equal(finished?.data.decided_by, "aborted");
    const turn = of(id).find((e) => e.name === "game.turn");
    assert.equal(turn?.data.your_turn, false);
    assert.equal(turn?.data.status, "finished");
    assert.equal(turn?.data.seat, created.json.seat);
  });

  it("an agent challenge played through: challenge.played", async () => {
    const ch = await http(server.url, "POST", "/api/v1/agent/challenge", { agent: { name: "catalog-bot" }, level: "easy" });
    assert.equal(ch.status, 201, ch.text);
    const accepted = await http(server.url, "POST", `/api/v1/agent/challenge/${ch.json.token}/accept`, { name: "Ada" });
    assert.equal(accepted.status, 200, accepted.text);
    await playToEnd(server.url, accepted.json.game.id, accepted.json.playerToken);
    await eventually(() => emitted.some((e) => e.name === "challenge.played" && e.data.token === ch.json.token), "challenge.played");
  });

  it("a two-entrant swiss of one round: tournament.started, tournament.paired, tournament.finished", async () => {
    const t = await http(server.url, "POST", "/api/v1/tournaments", { name: "Catalog cup", rounds: 1 });
    assert.equal(t.status, 201, t.text);
    const id = t.json.tournament.id as string;
    const a = await http(server.url, "POST", `/api/v1/tournaments/${id}/join`, { name: "Ann" });
    const b = await http(server.url, "POST", `/api/v1/tournaments/${id}/join`, { name: "Ben" });
    assert.equal((await http(server.url, "POST", `/api/v1/tournaments/${id}/start`, undefined, bearer(t.json.directorToken))).status, 200);
    const paired = emitted.filter((e) => e.name === "tournament.paired" && e.data.tournament_id === id);
    assert.deepEqual(paired.map((e) => e.data.player_id).sort(), [a.json.playerId, b.json.playerId].sort());
    const gameId = paired[0].data.game_id as string;
    await Promise.all([playToEnd(server.url, gameId, a.json.playerToken), playToEnd(server.url, gameId, b.json.playerToken)]);
    await eventually(() => emitted.some((e) => e.name === "tournament.finished" && e.data.tournament_id === id), "tournament.finished");
  });

  it("a duplicate league of two bots and one deal: league.finished", async () => {
    const l = await http(server.url, "POST", "/api/v1/leagues", { name: "Catalog league", deals: 1 });
    assert.equal(l.status, 201, l.text);
    const id = l.json.league.id as string;
    const tokens: string[] = [];
    for (const name of ["Catalog bot A", "Catalog bot B"]) {
      const bot = await http(server.url, "POST", "/api/v1/bots", { name });
      tokens.push((await http(server.url, "POST", `/api/v1/leagues/${id}/join`, undefined, bearer(bot.json.key))).json.playerToken as string);
    }
    assert.equal((await http(server.url, "POST", `/api/v1/leagues/${id}/start`, undefined, bearer(l.json.directorToken))).status, 200);
    const deal = (await http(server.url, "GET", `/api/v1/leagues/${id}/games`)).json.deals[0] as { games: { gameId: string }[] };
    await Promise.all(deal.games.flatMap((g) => tokens.map((t) => playToEnd(server.url, g.gameId, t))));
    await eventually(() => emitted.some((e) => e.name === "league.finished" && e.data.league_id === id), "league.finished", 10_000);
  });

  it("a two-entrant arena: tournament.started (no rounds), tournament.paired per game, tournament.finished at its end", async () => {
    const t = await http(server.url, "POST", "/api/v1/tournaments", { name: "Catalog arena", format: "arena", minutes: 5 });
    assert.equal(t.status, 201, t.text);
    const id = t.json.tournament.id as string;
    const a = await http(server.url, "POST", `/api/v1/tournaments/${id}/join`, { name: "Ann" });
    const b = await http(server.url, "POST", `/api/v1/tournaments/${id}/join`, { name: "Ben" });
    assert.equal((await http(server.url, "POST", `/api/v1/tournaments/${id}/start`, undefined, bearer(t.json.directorToken))).status, 200);
    const started = emitted.find((e) => e.name === "tournament.started" && e.data.tournament_id === id)!;
    assert.equal(started.data.rounds, 0);
    const paired = emitted.filter((e) => e.name === "tournament.paired" && e.data.tournament_id === id);
    assert.deepEqual(paired.map((e) => [e.data.round, e.data.first]).sort(), [
      [1, false],
      [1, true],
    ]);
    const gameId = paired[0].data.game_id as string;
    await Promise.all([playToEnd(server.url, gameId, a.json.playerToken), playToEnd(server.url, gameId, b.json.playerToken)]);
    // Ann and Ben have just met: they wait. The time is up (brought forward in the store): the arena finishes.
    for (;;) {
      const stored = (await server.store.tournaments.getTournament(id))!;
      if (!stored.arena!.games[0].outcome) {
        await new Promise((r) => setTimeout(r, 20));
        continue;
      }
      stored.arena!.endsAt = new Date().toISOString();
      stored.version += 1;
      if (await server.store.tournaments.replaceTournamentIf(stored)) break;
    }
    await server.tournaments.reconcile(id);
    await eventually(() => emitted.some((e) => e.name === "tournament.finished" && e.data.tournament_id === id), "tournament.finished");
  });

  it("every one of those events is accepted by its published schema, and all ten names occurred", () => {
    const failures: string[] = [];
    for (const e of emitted) {
      const validate = validators.get(e.name);
      assert.ok(validate, `no catalog entry for ${e.name}`);
      if (!validate(e.data)) failures.push(`${e.name} ${JSON.stringify(e.data)}: ${JSON.stringify(validate.errors)}`);
    }
    assert.deepEqual(failures, []);
    assert.deepEqual([...new Set(emitted.map((e) => e.name))].sort(), [...EVENT_NAMES].sort());
  });
});
